#!/usr/bin/env bash
# Writes the configuration files of the real node into $NODE_DIR (sourced by node.sh after
# lib.sh): the local registry, containerd (CRI, runc, bridge CNI, registry hosts), and the kubelet.

# registry_config: Debian's docker-registry on loopback, storing in the cache so the images it
# holds outlive the cluster (a fresh cluster does not rebuild what is already there).
registry_config() {
  mkdir -p "$VC_CACHE/registry"
  cat > "$NODE_DIR/registry.yml" <<YAML
version: 0.1
log: {level: warn}
storage:
  filesystem: {rootdirectory: $VC_CACHE/registry}
  delete: {enabled: true}
http:
  addr: $REGISTRY
YAML
}

# containerd_config: containerd with its own root, state and socket under $NODE_DIR (never the
# machine's /var/lib/containerd), runc with cgroupfs (no systemd here), the bridge CNI, and every
# registry the node pulls from pointed at the local one: nothing is fetched from outside.
containerd_config() {
  local r
  mkdir -p "$NODE_DIR/certs.d" "$NODE_DIR/cni/net.d" "$NODE_DIR/run"
  cat > "$NODE_DIR/containerd.toml" <<TOML
version = 2
root = "$NODE_DIR/containerd"
state = "$NODE_DIR/run/containerd"
[grpc]
  address = "$CONTAINERD_SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"
  enable_unprivileged_ports = true
  # This machine withholds CAP_SYS_RESOURCE, so no process may lower its oom_score_adj; the
  # kubelet asks for -998 on sandboxes, which runc cannot set. Clamped to containerd's own score.
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$NODE_DIR/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
    runtime_type = "io.containerd.runc.v2"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
      SystemdCgroup = false
      Root = "$RUNC_ROOT"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$NODE_DIR/certs.d"
TOML
  # "server" replaces the upstream: a name the registry lacks fails to pull (ErrImagePull), as
  # on a cluster without access to it, instead of falling back to the internet.
  for r in docker.io registry.k8s.io quay.io ghcr.io; do
    mkdir -p "$NODE_DIR/certs.d/$r"
    cat > "$NODE_DIR/certs.d/$r/hosts.toml" <<TOML
server = "http://$REGISTRY"
[host."http://$REGISTRY"]
  capabilities = ["pull", "resolve"]
TOML
  done
  cat > "$NODE_DIR/cni/net.d/10-vc-bridge.conflist" <<JSON
{
  "cniVersion": "1.0.0",
  "name": "vc-pods",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$POD_BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{"subnet": "$POD_CIDR", "gateway": "$POD_GATEWAY"}]],
        "routes": [{"dst": "0.0.0.0/0"}],
        "dataDir": "$NODE_DIR/cni/ipam"
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
JSON
}

# kubelet_config: cgroup v1 with cgroupfs (Kubernetes 1.35 refuses v1 unless told), the node's
# address on the pod bridge (a kubelet refuses a loopback node IP; the API server reaches it there
# for logs and exec), client certificates from the cluster CA, a registration taint so only pods that ask for
# this node land here (the kwok nodes keep every test pod that does not), and eviction
# thresholds low enough that a busy build machine never evicts the cluster's own pods.
kubelet_config() {
  cat > "$NODE_DIR/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
address: $POD_GATEWAY
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $KUBELET_HEALTHZ_PORT
tlsCertFile: $PKI/kubelet.crt
tlsPrivateKeyFile: $PKI/kubelet.key
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: $PKI/ca.crt}
authorization: {mode: AlwaysAllow}
failSwapOn: false
resolvConf: ""
podCIDR: $POD_CIDR
maxPods: 110
serializeImagePulls: false
imageGCHighThresholdPercent: 100
evictionHard:
  memory.available: 100Mi
  nodefs.available: 1%
  imagefs.available: 1%
registerWithTaints:
  - {key: node-role.kubernetes.io/control-plane, effect: NoSchedule}
YAML
}
