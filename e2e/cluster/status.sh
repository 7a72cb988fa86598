#!/usr/bin/env bash
# Prints each component's process state and, when the API server answers, nodes and queues.
# Exits non-zero if a component that should run is not running.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

rc=0
printf '%-24s %-8s %s\n' COMPONENT PID STATE
for name in etcd kube-apiserver kube-controller-manager webhook controllers scheduler kwok; do
  pid=$(cat "$PIDS/$name.pid" 2>/dev/null || echo -)
  if alive "$name"; then state=running; else state=stopped; fi
  case $name in
    webhook) state="$state ($(cat "$STATE_DIR/impl-webhook" 2>/dev/null || echo -))" ;;
    controllers) state="$state ($(cat "$STATE_DIR/impl-controllers" 2>/dev/null || echo -))" ;;
  esac
  printf '%-24s %-8s %s\n' "$name" "$pid" "$state"
  case $state in stopped*) [[ $state == *none* ]] || rc=1 ;; esac
done
if [ -f "$ADMIN_KUBECONFIG" ] && kubectl_ get --raw /readyz >/dev/null 2>&1; then
  echo; kubectl_ get nodes -o wide 2>&1 | head -20
  echo; kubectl_ get queues 2>&1 | head -20
else
  echo; echo "kube-apiserver is not answering"
  rc=1
fi
exit $rc
