#!/usr/bin/env bash
# Prints each component's process state and, when the API server answers, nodes and queues.
# Exits non-zero if a component that should run is not running.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

rc=0
printf '%-24s %-8s %s\n' COMPONENT PID STATE
impl_webhook=$(cat "$STATE_DIR/impl-webhook" 2>/dev/null || echo -)
names="etcd kube-apiserver kube-controller-manager kube-scheduler"
[ "$REAL_NODE" = 1 ] && names="$names registry containerd kubelet kube-proxy"
# In chart mode the webhook, controllers and scheduler are pods (listed below), not processes.
[ "$impl_webhook" = chart ] || names="$names webhook controllers scheduler"
for name in $names kwok; do
  pid=$(cat "$PIDS/$name.pid" 2>/dev/null || echo -)
  if alive "$name"; then state=running; else state=stopped; fi
  case $name in
    webhook) state="$state ($impl_webhook)" ;;
    controllers) state="$state ($(cat "$STATE_DIR/impl-controllers" 2>/dev/null || echo -))" ;;
  esac
  printf '%-24s %-8s %s\n' "$name" "$pid" "$state"
  case $state in stopped*) [[ $state == *none* ]] || rc=1 ;; esac
done
if [ -f "$ADMIN_KUBECONFIG" ] && kubectl_ get --raw /readyz >/dev/null 2>&1; then
  echo; kubectl_ get nodes -o wide 2>&1 | head -20
  if [ "$impl_webhook" = chart ]; then
    echo; "$HELM" --kubeconfig "$ADMIN_KUBECONFIG" -n "$VC_NAMESPACE" list 2>&1
    echo; kubectl_ -n "$VC_NAMESPACE" get deployments,pods -o wide 2>&1 | head -20
  fi
  echo; kubectl_ get queues 2>&1 | head -20
else
  echo; echo "kube-apiserver is not answering"
  rc=1
fi
exit $rc
