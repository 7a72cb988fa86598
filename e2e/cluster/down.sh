#!/usr/bin/env bash
# Stops every component of the local cluster by its recorded PID (reverse start order), takes the
# real node down with every container it ran, and removes the cluster state. Logs are kept in
# $STATE_DIR/logs until the next cluster-up.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

for name in kwok scheduler controllers controllers-2 webhook; do
  stop "$name"
done
if [ -d "$NODE_DIR" ] || alive kubelet || alive containerd; then
  "$cluster_dir/node.sh" down
fi
for name in kube-scheduler kube-controller-manager kube-apiserver etcd; do
  stop "$name"
done
left=$(ls "$PIDS" 2>/dev/null || true)
for f in $left; do stop "${f%.pid}"; done
ip route del unreachable "$KWOK_POD_CIDR" 2>/dev/null || true
apiserver_gate open  # an up.sh that failed before /readyz may have left it closed
rm -rf "$STATE_DIR/etcd" "$STATE_DIR/pki" "$STATE_DIR/crds" "$PIDS" \
  "$STATE_DIR"/*.kubeconfig "$STATE_DIR"/impl-* "$STATE_DIR"/*.yaml "$STATE_DIR"/*.conf
log "cluster down"
