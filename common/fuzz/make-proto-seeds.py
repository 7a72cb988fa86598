#!/usr/bin/env python3
"""Writes proto_fuzz's seed corpus (common/fuzz/corpus/proto_fuzz/): a few objects of the types
our client exchanges in protobuf, as the API server frames them, each behind proto_fuzz's mode
byte (see proto_fuzz.cpp). The messages are written in protobuf's text format and encoded by
protoc against the Kubernetes .proto files the build copies (build-fuzz/common/k8s-protos).

    common/fuzz/make-proto-seeds.py PROTO_DIR

Run it again only to change the seeds; they are committed.
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "proto_fuzz")
FILES = ["k8s.io/api/core/v1/generated.proto", "k8s.io/api/coordination/v1/generated.proto",
         "k8s.io/api/events/v1/generated.proto"]
CORE, META = "k8s.io.api.core.v1.", "k8s.io.apimachinery.pkg.apis.meta.v1."

POD = '''
metadata { name: "job-a-task-0" namespace: "default" uid: "0b1c" resourceVersion: "4021"
  labels { key: "volcano.sh/job-name" value: "job-a" }
  annotations { key: "scheduling.k8s.io/group-name" value: "job-a" }
  creationTimestamp { seconds: 1767225600 }
  ownerReferences { apiVersion: "batch.volcano.sh/v1alpha1" kind: "Job" name: "job-a" uid: "9a"
                    controller: true blockOwnerDeletion: true } }
spec { schedulerName: "volcano" nodeName: "node-1" restartPolicy: "Never"
  containers { name: "main" image: "busybox" command: "sleep" args: "3600"
    resources { requests { key: "cpu" value { string: "100m" } }
                limits { key: "memory" value { string: "64Mi" } } }
    ports { containerPort: 8080 protocol: "TCP" }
    readinessProbe { handler { httpGet { path: "/healthz" port { type: 1 strVal: "http" } } }
                     periodSeconds: 5 } }
  volumes { name: "data" volumeSource { emptyDir { sizeLimit { string: "1Gi" } } } } }
status { phase: "Running" podIP: "10.0.0.7"
  conditions { type: "Ready" status: "True" lastTransitionTime { seconds: 1767225610 } } }
'''
NODE = '''
metadata { name: "node-1" labels { key: "kubernetes.io/hostname" value: "node-1" } }
spec { podCIDR: "10.0.0.0/24" taints { key: "dedicated" value: "gpu" effect: "NoSchedule" } }
status { capacity { key: "cpu" value { string: "8" } }
         allocatable { key: "pods" value { string: "110" } }
         conditions { type: "Ready" status: "True" } }
'''
LEASE = '''
metadata { name: "vc-controller-manager" namespace: "volcano-system" resourceVersion: "77" }
spec { holderIdentity: "host_1234" leaseDurationSeconds: 15
       acquireTime { seconds: 1767225600 nanos: 123456000 }
       renewTime { seconds: 1767225660 nanos: 5000 } leaseTransitions: 3 }
'''
EVENT = '''
metadata { name: "job-a.17f" namespace: "default" }
eventTime { seconds: 1767225600 nanos: 1000 } reportingController: "vc-controller-manager"
reportingInstance: "host_1234" action: "Sync" reason: "PodGroupPending" type: "Warning"
regarding { kind: "Job" namespace: "default" name: "job-a" apiVersion: "batch.volcano.sh/v1alpha1" }
note: "PodGroup default/job-a unschedulable" deprecatedCount: 2
'''
STATUS = '''
metadata { } status: "Failure" message: "pods \\"x\\" not found" reason: "NotFound"
details { name: "x" kind: "pods" causes { reason: "FieldValueInvalid" field: "spec" } } code: 404
'''
CONFIGMAP = '''
metadata { name: "sharding" namespace: "volcano-system" }
data { key: "config.yaml" value: "shards: 2\\n" } binaryData { key: "b" value: "\\000\\001" }
'''
NAMESPACE = '''metadata { name: "default" } spec { finalizers: "kubernetes" } status { phase: "Active" }'''


def encode(proto_dir, message, text):
    # protoc warns about imports the generated files do not use: not ours to fix, so quiet.
    done = subprocess.run(["protoc", "-I", proto_dir, "--encode=" + message] + FILES,
                          input=text.encode(), capture_output=True, cwd=proto_dir)
    if done.returncode != 0:
        sys.exit(done.stderr.decode())
    return done.stdout


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, data):  # a length-delimited field
    return varint(number << 3 | 2) + varint(len(data)) + data


def envelope(api_version, kind, raw):
    type_meta = field(1, api_version.encode()) + field(2, kind.encode())
    return b"k8s\0" + field(1, type_meta) + field(2, raw) + field(3, b"") + field(4, b"")


def watch_frame(event_type, enveloped):
    event = field(1, event_type.encode()) + field(2, field(1, enveloped))
    return struct.pack(">I", len(event)) + event


def main():
    proto_dir = sys.argv[1]
    pod = encode(proto_dir, CORE + "Pod", POD)
    node = encode(proto_dir, CORE + "Node", NODE)
    lease = encode(proto_dir, "k8s.io.api.coordination.v1.Lease", LEASE)
    event = encode(proto_dir, "k8s.io.api.events.v1.Event", EVENT)
    status = encode(proto_dir, META + "Status", STATUS)
    configmap = encode(proto_dir, CORE + "ConfigMap", CONFIGMAP)
    namespace = encode(proto_dir, CORE + "Namespace", NAMESPACE)
    pod_list = field(1, field(2, b"4100")) + field(2, pod) + field(2, pod)
    seeds = {
        "object_pod": b"\0" + envelope("v1", "Pod", pod),
        "object_node": b"\0" + envelope("v1", "Node", node),
        "object_lease": b"\0" + envelope("coordination.k8s.io/v1", "Lease", lease),
        "object_event": b"\0" + envelope("events.k8s.io/v1", "Event", event),
        "object_status": b"\0" + envelope("v1", "Status", status),
        "list_pods": b"\1" + envelope("v1", "PodList", pod_list),
        "watch_stream": b"\2" + watch_frame("ADDED", envelope("v1", "Pod", pod))
        + watch_frame("MODIFIED", envelope("coordination.k8s.io/v1", "Lease", lease))
        + watch_frame("ERROR", envelope("v1", "Status", status)),
        "message_pod": b"\3" + pod,
        "message_node": b"\4" + node,
        "message_namespace": b"\5" + namespace,
        "message_configmap": b"\6" + configmap,
        "message_lease": b"\7" + lease,
        "message_event": b"\x08" + event,
        "message_status": b"\x09" + status,
    }
    os.makedirs(OUT, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
