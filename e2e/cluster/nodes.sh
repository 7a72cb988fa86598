#!/usr/bin/env bash
# Creates the fake kwok nodes worker-0..CLUSTER_NODES-1 with NODE_CPU / NODE_MEMORY each.
# Existing nodes are left as they are.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

for i in $(seq 0 $((CLUSTER_NODES - 1))); do
  name=worker-$i
  kubectl_ get node "$name" >/dev/null 2>&1 && continue
  kubectl_ create -f - >/dev/null <<YAML
apiVersion: v1
kind: Node
metadata:
  name: $name
  annotations:
    node.alpha.kubernetes.io/ttl: "0"
    kwok.x-k8s.io/node: fake
  labels:
    kubernetes.io/arch: amd64
    kubernetes.io/os: linux
    kubernetes.io/hostname: $name
    type: kwok
spec: {}
status:
  capacity: {cpu: "$NODE_CPU", memory: $NODE_MEMORY, pods: "110"}
  allocatable: {cpu: "$NODE_CPU", memory: $NODE_MEMORY, pods: "110"}
  nodeInfo: {architecture: amd64, operatingSystem: linux, kubeletVersion: fake, kubeProxyVersion: fake}
YAML
  log "created node $name ($NODE_CPU CPU, $NODE_MEMORY)"
done
