#!/usr/bin/env bash
# Runs the end-to-end suite against the local cluster, bringing it up first if needed (with the
# implementations chosen by IMPL / IMPL_WEBHOOK / IMPL_CONTROLLERS). A cluster this script
# started is stopped again afterwards unless KEEP_CLUSTER=1. On failure, prints the tail of every
# component log and, last, the failed tests with their messages. Extra arguments go to `go test`
# (e.g. -run TestGang).
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"

down_on_exit_unless_running

if ! "$cluster_dir/up.sh"; then
  tail_logs 60
  exit 1
fi

export KUBECONFIG=$ADMIN_KUBECONFIG IMPL_WEBHOOK IMPL_CONTROLLERS
# What tests need beyond the API: kubectl for `kubectl apply` cases, the cluster's PKI and the
# repo root for the certificate-rotation case.
export KUBECTL=$K8S_BIN/kubectl VC_PKI_DIR=$PKI VC_REPO=$repo VC_WEBHOOK_ADDR=127.0.0.1:$WEBHOOK_PORT
export HELM=$("$cluster_dir/build-binaries.sh" --print-dir helm)/helm
# The identity the webhook runs under (up.sh): ours as a process under the role we ship, renamed.
case $IMPL_WEBHOOK in
  ours) export VC_ADMISSION_SA=volcano-system/vc-cpp-admission ;;
  *) export VC_ADMISSION_SA=$VC_NAMESPACE/volcano-admission ;;
esac
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
log "running e2e (webhook=$IMPL_WEBHOOK controllers=$IMPL_CONTROLLERS)"
start_s=$(date +%s)
set +e
# Every package but deployed/, which needs the stack installed by the chart (run-deployed.sh).
(cd "$repo/e2e/tests" && go test $(go list ./... | grep -v '/deployed$') -count=1 -p 1 -timeout 40m -v "$@" 2>&1) \
  | tee "$LOGS/e2e-go-test.out" | grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|_test.go' 
rc=${PIPESTATUS[0]}
set -e
log "e2e finished in $(( $(date +%s) - start_s )) s with exit code $rc (full output: $LOGS/e2e-go-test.out)"
if [ "$rc" != 0 ]; then
  tail_logs 60
  collect_failed_tests "$LOGS/e2e-go-test.out"
fi
exit "$rc"
