#!/usr/bin/env bash
# `make bench-controller`: our vc-controller-manager against Volcano's, same cluster, same flags.
#
# On the already running local cluster (it is not started here: other engineers share it), this
# script takes the cluster's controller-manager slot for the duration of the run and, for each
# implementation in turn, starts that controller-manager itself with equal flags
# (--kube-api-qps, --kube-api-burst, --worker-threads, --leader-elect=false,
# --scheduler-name=volcano, healthz and metrics on the cluster's controller ports), then drives
# load with vcbench (e2e/tests/cmd/vcbench) in a fresh namespace. BENCH_CASE chooses the load:
#
#   jobs     (default) BENCH_JOBS Volcano Jobs of BENCH_TASKS one-replica tasks (minAvailable =
#            tasks) at once; from watches, the time from the first create until every pod exists
#            and until every job is Running. Last comes the ceiling: vcbench creates the same pods
#            directly, with a client limited to the same QPS and burst, while no
#            controller-manager runs.
#            With it, the cluster's work per job: the requests each controller made by verb and
#            resource (the API server's audit log of its benchmark identity, api-work.sh), the
#            watches it opened, the bytes it sent and received, the API server's and etcd's CPU
#            seconds per 1,000 pods, and the lower bound of writes for a job of BENCH_TASKS tasks.
#   cronjob  BENCH_CRONJOBS CronJobs "* * * * *", created at second 30 of a minute; over the next
#            BENCH_CRON_MINUTES scheduled minutes, the runs created per minute, missed runs and
#            each run's lateness (its Job first seen by the watch minus its scheduled minute).
#   jobflow  five JobTemplates and BENCH_FLOWS JobFlows of five steps (a; b, c after a; d after
#            b, c; e after d) at once; the time until every flow is Succeed, and per flow.
#   all      the three, in this order.
#   scale    (`make bench-scale`, case-scale.sh) BENCH_SCALE_JOBS one-pod and BENCH_SCALE_BIG_JOBS
#            ten-pod Jobs through each implementation's own webhook, at a tenth and at full size,
#            the controller-manager's cold start with all of them present, and the growth.
#
# Meanwhile the controller process is sampled every 0.2 s (CPU ticks, RSS); the tables report its
# CPU seconds from the launch of vcbench to the end of the measurement and its peak RSS (VmHWM).
# The jobs and pods of every case end on kwok: each pod of the cronjob and jobflow cases is
# Succeeded 1 s after it runs (e2e/cluster/kwok-stages.yaml).
#
# The pods go to dedicated kwok nodes (labelled and tainted vc-cpp.local/bench=controller, so no
# other test's pod lands there) in the queue "bench"; namespaces, nodes and queue are removed at
# the end, and the cluster's controller-manager is ALWAYS restored (to what ran before), also on
# failure or Ctrl-C.
#
# Environment:
#   BENCH_CASE         jobs (default), cronjob, jobflow, all, or scale
#   BENCH_SCALE_JOBS   one-pod Jobs of the scale case (default 10000); BENCH_SCALE_BIG_JOBS
#                      ten-pod Jobs (default 1000); a tenth of each runs first
#   BENCH_JOBS         jobs (default 500); BENCH_TASKS tasks per job (default 4)
#   BENCH_CRONJOBS     CronJobs of the cronjob case (default 500)
#   BENCH_CRON_MINUTES scheduled minutes the cronjob case measures (default 3)
#   BENCH_CRON_GRACE   seconds after the last of them a run still counts (default 30, under 60)
#   BENCH_FLOWS        JobFlows of the jobflow case (default 200)
#   BENCH_QPS          --kube-api-qps of both, and the ceiling client's QPS (default 200)
#   BENCH_BURST        --kube-api-burst of both, and the ceiling client's burst (default 400)
#   BENCH_WORKERS      --worker-threads of both (default 3)
#   BENCH_CONTROLLER_FLAGS  further flags given to both controllers alike, e.g.
#                      "--worker-threads-for-cronjob=12" (default none)
#   BENCH_IMPLS        default "ours reference"
#   BENCH_ROUNDS       measurements of each implementation (default 1). Rounds alternate the
#                      order (ours first, then reference first, ...); the table shows every
#                      round and, from 2 rounds on, each figure's median, which the ratios and
#                      targets then use. On this small shared machine a single run can be off by
#                      a third; 3 rounds give figures worth keeping.
#   BENCH_TIMEOUT      seconds each measurement may take, from the first create (default 600,
#                      1800 for the scale case;
#                      the cronjob case needs BENCH_CRON_MINUTES minutes + BENCH_CRON_GRACE)
#   BENCH_CONCURRENCY  vcbench's concurrent creates, for every case and the ceiling (default 64)
#   BENCH_VERBOSITY    the controllers' -v (default 3, as in the cluster)
#   BENCH_NODES        benchmark nodes, 250 pods each (default: room for the pods of the largest
#                      case + 25 %)
#   BENCH_PERF         1: profile every measurement's controller-manager and webhook with perf
#                      (perf.sh: <run>-perf-<proc>-self.txt, -dso.txt and -ours.txt next to the
#                      results; sampling costs CPU, so such a run's figures are for the profile
#                      only);
#                      BENCH_PERF_FREQ samples per second (default 99)
#   BUILD_DIR          build tree (default: the repo's build/)
#   CONTROLLERS_BIN    ours (default $BUILD_DIR/controllers/vc-controller-manager)
#   REFERENCE_BIN      Volcano's (default: the cluster's Volcano build)
#
# Output: per case a markdown table on stdout, saved with the raw JSON under
# .state/bench/controller-<timestamp>/: for jobs results.md, results.json, <impl>-r<round>.json,
# ceiling.json, <impl>-r<round>-samples.tsv, vcbench and cluster logs; for the other cases the
# same names prefixed with the case (cronjob-results.md, jobflow-ours-r1.json, ...). Exit status 1
# if a measurement failed or timed out or a controller died; missed performance targets are
# reported as "TARGET MISSED" lines only.
set -euo pipefail
here=$(dirname "$0")
source "$here/../../e2e/cluster/lib.sh"
source "$here/../rounds.sh"

CASE=${BENCH_CASE:-jobs}
JOBS=${BENCH_JOBS:-500}
TASKS=${BENCH_TASKS:-4}
CRONJOBS=${BENCH_CRONJOBS:-500}
CRON_MINUTES=${BENCH_CRON_MINUTES:-3}
CRON_GRACE=${BENCH_CRON_GRACE:-30}
FLOWS=${BENCH_FLOWS:-200}
QPS=${BENCH_QPS:-200}
BURST=${BENCH_BURST:-400}
WORKERS=${BENCH_WORKERS:-3}
read -r -a CONTROLLER_FLAGS <<< "${BENCH_CONTROLLER_FLAGS:-}"
IMPLS=${BENCH_IMPLS:-"ours reference"}
ROUNDS=${BENCH_ROUNDS:-1}
SCALE_JOBS=${BENCH_SCALE_JOBS:-10000}
SCALE_BIG_JOBS=${BENCH_SCALE_BIG_JOBS:-1000}
# 20,000 pods take this machine minutes: the scale case gets half an hour by default.
TIMEOUT=${BENCH_TIMEOUT:-$([ "$CASE" = scale ] && echo 1800 || echo 600)}
CONCURRENCY=${BENCH_CONCURRENCY:-64}
VERBOSITY=${BENCH_VERBOSITY:-3}
case ${BENCH_PERF:-0} in 1) PERF=true ;; 0) PERF=false ;; *) die "BENCH_PERF must be 0 or 1 (got '$BENCH_PERF')" ;; esac
PODS_PER_NODE=250
CONTROLLERS_BIN=${CONTROLLERS_BIN:-$BUILD_DIR/controllers/vc-controller-manager}
REFERENCE_BIN=${REFERENCE_BIN:-$VOLCANO_BIN/vc-controller-manager}
VCBENCH=$STATE_DIR/bench/bin/vcbench
# Benchmark nodes carry this label and a NoSchedule taint with it; benchmark namespaces the label.
PLACEMENT=vc-cpp.local/bench=controller
QUEUE=bench

case $CASE in
  jobs|cronjob|jobflow) CASES=$CASE ;;
  all) CASES="jobs cronjob jobflow" ;;
  scale) CASES="scale-tenth scale" ;;
  *) die "BENCH_CASE must be jobs, cronjob, jobflow, all or scale (got '$CASE')" ;;
esac
source "$here/common.sh"
source "$here/api-work.sh"
source "$here/perf.sh"
# One file per case; the scale file holds both of its sizes.
for f in $(for c in $CASES; do echo "${c%%-*}"; done | sort -u); do source "$here/case-$f.sh"; done

for v in JOBS TASKS CRONJOBS CRON_MINUTES CRON_GRACE FLOWS QPS BURST WORKERS TIMEOUT CONCURRENCY ROUNDS SCALE_JOBS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "BENCH_$v must be a positive integer (got '${!v}')"
done
[[ $SCALE_BIG_JOBS =~ ^[0-9]+$ ]] || die "BENCH_SCALE_BIG_JOBS must be a non-negative integer (got '$SCALE_BIG_JOBS')"
if [ "$CASE" = scale ] && [ "$SCALE_JOBS" -lt 10 ]; then
  die "BENCH_SCALE_JOBS must be at least 10: the scale case also runs a tenth of it (got $SCALE_JOBS)"
fi
[ "$CRON_GRACE" -lt 60 ] || die "BENCH_CRON_GRACE must be under 60 seconds (got $CRON_GRACE)"
if [[ " $CASES " == *" cronjob "* ]] && [ "$TIMEOUT" -lt $((CRON_MINUTES * 60 + CRON_GRACE)) ]; then
  die "BENCH_TIMEOUT ($TIMEOUT s) is shorter than the cronjob window ($CRON_MINUTES minutes + $CRON_GRACE s)"
fi
# Room for the pods of the largest case.
PODS=0
for c in $CASES; do
  p=$("${c}_pods")
  [ "$p" -gt "$PODS" ] && PODS=$p
done
NODES=${BENCH_NODES:-$(((PODS * 5 / 4 + PODS_PER_NODE - 1) / PODS_PER_NODE))}
[[ $NODES =~ ^[1-9][0-9]*$ ]] || die "BENCH_NODES must be a positive integer (got '$NODES')"
for impl in $IMPLS; do
  case $impl in ours|reference) ;; *) die "BENCH_IMPLS: unknown implementation '$impl'" ;; esac
  [ -x "$(bin_of "$impl")" ] || die "$impl controller-manager $(bin_of "$impl") is missing (run make build)"
  [ -f "$STATE_DIR/$(identity_of "$impl").kubeconfig" ] ||
    die "$STATE_DIR/$(identity_of "$impl").kubeconfig is missing (e2e/cluster/rbac.sh writes it)"
done
command -v jq >/dev/null || die "jq is required (make deps)"
if $PERF; then perf_check; fi
command -v go >/dev/null || die "go is required to build vcbench"
CLK_TCK=$(getconf CLK_TCK)

check_cluster
stamp=$(date +%Y%m%d-%H%M%S)
out=$STATE_DIR/bench/controller-$stamp
mkdir -p "$out" "$(dirname "$VCBENCH")"
build_vcbench
install_cleanup
remove_leftovers
create_nodes
create_queue
bench_identities_create
take_slot

{
  echo "date: $(date -Is)"
  echo "commit: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
  echo "kernel: $(uname -r)"
  echo "rounds: $ROUNDS"
  for c in $CASES; do "${c}_conditions"; done
  echo "vcbench: $CONCURRENCY concurrent creates; $NODES nodes x $PODS_PER_NODE pods; cluster webhook: $(webhook_impl)"
  for impl in $IMPLS; do echo "$impl: $(bin_of "$impl") (roles of $(identity_of "$impl"), as $(bench_user "$impl"))"; done
  if $PERF; then echo "perf: every measurement profiled at $PERF_FREQ Hz (CPU and time figures include its cost)"; fi
  echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/conditions.txt"

for c in $CASES; do run_case "$c"; done
$failed && exit 1
exit 0
