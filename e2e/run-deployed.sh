#!/usr/bin/env bash
# Runs the end-to-end suite against the stack installed the way users install it: the cluster in
# chart mode (IMPL=chart: no component runs as a process), our images and the chart installed on
# the real node by e2e/cluster/install.sh, then
#   1. e2e/tests/deployed: the deployed stack's own scenarios (probes, rollout restart under load,
#      leader handover, the namespace's queue through the deployed webhook, switching to
#      Volcano's images and back);
#   2. the lifecycle, gang (seed) and bad-input scenarios of the process-mode suite;
#   3. helm uninstall, last, and what it must leave behind.
# A cluster this script started is stopped again afterwards unless KEEP_CLUSTER=1. On failure it
# prints the tail of every component log and of the stack's pods, and last (after the cluster's
# shutdown) the failed tests with their messages. Extra arguments go to go test.
set -euo pipefail
export IMPL=chart IMPL_WEBHOOK=chart IMPL_CONTROLLERS=chart
source "$(dirname "$0")/cluster/lib.sh"

down_on_exit_unless_running

pod_logs() {
  local p
  for p in $(kubectl_ -n "$VC_NAMESPACE" get pods -o name 2>/dev/null); do
    echo "===== $p (last 40 lines) ====="
    kubectl_ -n "$VC_NAMESPACE" logs --tail=40 --all-containers "$p" 2>&1 || true
  done
  kubectl_ -n "$VC_NAMESPACE" get events --sort-by=.lastTimestamp 2>&1 | tail -30
}
# The switching test installs Volcano's own webhook and controller-manager images: build them
# (and the binaries they hold) before any test starts the clock. The scheduler's image is
# already there (install.sh).
# The image builds get a TMPDIR of their own, which must be empty again afterwards: each image's
# root filesystem is tens of MiB, and a run that leaves them behind fills the disk CI shares.
images_tmp=$(mktemp -d "${TMPDIR:-/tmp}/vc-e2e-images.XXXXXX")
if ! "$cluster_dir/up.sh" || ! TMPDIR=$images_tmp "$cluster_dir/install.sh" install \
  || ! TMPDIR=$images_tmp REGISTRY=$REGISTRY "$repo/images/build.sh" volcano vc-webhook-manager vc-controller-manager; then
  tail_logs 60
  pod_logs
  rm -rf "$images_tmp"
  exit 1
fi
if [ -n "$(ls -A "$images_tmp")" ]; then
  log "FAIL: the image builds left files behind in their TMPDIR: $(ls -A "$images_tmp" | head -5 | tr '\n' ' ')"
  rm -rf "$images_tmp"
  exit 1
fi
rmdir "$images_tmp"

export KUBECONFIG=$ADMIN_KUBECONFIG KUBECTL=$K8S_BIN/kubectl HELM VC_REPO=$repo VC_NAMESPACE \
  VC_REAL_NODE=$NODE_NAME VC_ADMISSION_SA=$VC_NAMESPACE/volcano-admission \
  VC_AUDIT_LOG=$AUDIT_LOG VC_FENCED_SA=$FENCED_SA VC_POD_GATEWAY=$POD_GATEWAY
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
start_s=$(date +%s)
rc=0
run() {  # run PACKAGE REGEX: one go test run, its output kept in the logs
  local out=$LOGS/e2e-deployed-$(echo "$2" | tr -c 'A-Za-z0-9' '_' | cut -c1-40).out
  log "go test $1 -run '$2'"
  set +e
  (cd "$repo/e2e/tests" && go test "$1" -count=1 -p 1 -timeout 30m -v -run "$2" "${@:3}" 2>&1) \
    | tee "$out" | grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|_test.go'
  local r=${PIPESTATUS[0]}
  set -e
  [ "$r" = 0 ] || rc=$r
}
run ./deployed/ '^TestDeployed' "$@"
run . '^(TestJobLifecycle|TestGangSchedulingSeedCase|TestWebhookJobCreateDenials|TestWebhookQueueValidation|TestJobMinAvailableAboveReplicasDenied)$' "$@"
run ./deployed/ '^TestUninstallKeepsUserObjects$' "$@"
log "deployed e2e finished in $(( $(date +%s) - start_s )) s with exit code $rc (outputs: $LOGS/e2e-deployed-*.out)"
if [ "$rc" != 0 ]; then
  tail_logs 60
  pod_logs
  collect_failed_tests "$LOGS"/e2e-deployed-*.out
fi
exit "$rc"
