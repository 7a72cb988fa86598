#!/usr/bin/env bash
# `make bench-controller`: our vc-controller-manager against Volcano's, same cluster, same flags.
#
# On the already running local cluster (it is not started here: other engineers share it), this
# script takes the cluster's controller-manager slot for the duration of the run and, for each
# implementation in turn, starts that controller-manager itself with equal flags
# (--kube-api-qps, --kube-api-burst, --worker-threads, --leader-elect=false,
# --scheduler-name=volcano, healthz and metrics on the cluster's controller ports). vcbench
# (e2e/tests/cmd/vcbench) then creates BENCH_JOBS Volcano Jobs of BENCH_TASKS one-replica tasks
# (minAvailable = tasks) at once in a fresh namespace and measures, from watches, the time from
# the first create until every pod exists and until every job is Running. Meanwhile the
# controller process is sampled every 0.2 s (CPU ticks, RSS); the table reports its CPU seconds
# from the start of the job creation to the end of the measurement and its peak RSS (VmHWM).
# Last comes the ceiling: vcbench creates the same pods directly, with a client limited to the
# same QPS and burst, while no controller-manager runs.
#
# The pods go to dedicated kwok nodes (labelled and tainted vc-cpp.local/bench=controller, so no
# other test's pod lands there) in the queue "bench"; namespaces, nodes and queue are removed at
# the end, and the cluster's controller-manager is ALWAYS restored (to what ran before), also on
# failure or Ctrl-C.
#
# Environment:
#   BENCH_JOBS         jobs (default 500); BENCH_TASKS tasks per job (default 4)
#   BENCH_QPS          --kube-api-qps of both, and the ceiling client's QPS (default 200)
#   BENCH_BURST        --kube-api-burst of both, and the ceiling client's burst (default 400)
#   BENCH_WORKERS      --worker-threads of both (default 3)
#   BENCH_IMPLS        default "ours reference"
#   BENCH_ROUNDS       measurements of each implementation (default 1). Rounds alternate the
#                      order (ours first, then reference first, ...); the table shows every
#                      round and, from 2 rounds on, each figure's median, which the ratios and
#                      targets then use. On this small shared machine a single run can be off by
#                      a third; 3 rounds give figures worth keeping.
#   BENCH_TIMEOUT      seconds each measurement may take, from the first create (default 600)
#   BENCH_CONCURRENCY  vcbench's concurrent creates, for the jobs and the ceiling (default 64)
#   BENCH_VERBOSITY    the controllers' -v (default 3, as in the cluster)
#   BENCH_NODES        benchmark nodes, 250 pods each (default: room for the pods + 25 %)
#   BUILD_DIR          build tree (default: the repo's build/)
#   CONTROLLERS_BIN    ours (default $BUILD_DIR/controllers/vc-controller-manager)
#   REFERENCE_BIN      Volcano's (default: the cluster's Volcano build)
#
# Output: a markdown table on stdout, saved with the raw JSON under
# .state/bench/controller-<timestamp>/ (results.md, results.json, <impl>-r<round>.json,
# ceiling.json, <impl>-r<round>-samples.tsv, vcbench and cluster logs). Exit status 1 if a
# measurement failed or timed out or a controller died; missed performance targets are reported
# as "TARGET MISSED" lines only.
set -euo pipefail
source "$(dirname "$0")/../../e2e/cluster/lib.sh"
source "$(dirname "$0")/../rounds.sh"

JOBS=${BENCH_JOBS:-500}
TASKS=${BENCH_TASKS:-4}
QPS=${BENCH_QPS:-200}
BURST=${BENCH_BURST:-400}
WORKERS=${BENCH_WORKERS:-3}
IMPLS=${BENCH_IMPLS:-"ours reference"}
ROUNDS=${BENCH_ROUNDS:-1}
TIMEOUT=${BENCH_TIMEOUT:-600}
CONCURRENCY=${BENCH_CONCURRENCY:-64}
VERBOSITY=${BENCH_VERBOSITY:-3}
PODS=$((JOBS * TASKS))
PODS_PER_NODE=250
NODES=${BENCH_NODES:-$(((PODS * 5 / 4 + PODS_PER_NODE - 1) / PODS_PER_NODE))}
CONTROLLERS_BIN=${CONTROLLERS_BIN:-$BUILD_DIR/controllers/vc-controller-manager}
REFERENCE_BIN=${REFERENCE_BIN:-$VOLCANO_BIN/vc-controller-manager}
VCBENCH=$STATE_DIR/bench/bin/vcbench
# Benchmark nodes carry this label and a NoSchedule taint with it; benchmark namespaces the label.
PLACEMENT=vc-cpp.local/bench=controller
QUEUE=bench
# Targets: pods/s >= 1.5x Volcano's and >= 90 % of the ceiling; RSS <= 1/5 of
# Volcano's; CPU seconds <= 1/3.
TARGET_PODS_RATIO=1.5
TARGET_CEILING_RATIO=0.9
TARGET_RSS_RATIO=0.2
TARGET_CPU_RATIO=0.33

for v in JOBS TASKS QPS BURST WORKERS TIMEOUT CONCURRENCY NODES ROUNDS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "BENCH_$v must be a positive integer (got '${!v}')"
done
bin_of() { case $1 in ours) echo "$CONTROLLERS_BIN" ;; reference) echo "$REFERENCE_BIN" ;; esac; }
# Each implementation runs under its own identity, as in the cluster (rbac.sh).
identity_of() { case $1 in ours) echo vc-cpp-controllers ;; reference) echo volcano-controllers ;; esac; }
for impl in $IMPLS; do
  case $impl in ours|reference) ;; *) die "BENCH_IMPLS: unknown implementation '$impl'" ;; esac
  [ -x "$(bin_of "$impl")" ] || die "$impl controller-manager $(bin_of "$impl") is missing (run make build)"
  [ -f "$STATE_DIR/$(identity_of "$impl").kubeconfig" ] ||
    die "$STATE_DIR/$(identity_of "$impl").kubeconfig is missing (e2e/cluster/rbac.sh writes it)"
done
command -v jq >/dev/null || die "jq is required (make deps)"
command -v go >/dev/null || die "go is required to build vcbench"
CLK_TCK=$(getconf CLK_TCK)

# ---------------------------------------------------------------- the cluster must be up
cluster_down() {
  die "the local cluster is not up ($*). This benchmark uses the running shared cluster and" \
      "never starts or stops it: run 'make cluster-up' first"
}
alive kube-apiserver || cluster_down "kube-apiserver is not running"
kubectl_ get --raw /readyz >/dev/null 2>&1 || cluster_down "kube-apiserver /readyz fails"
for c in scheduler kwok kube-controller-manager; do alive "$c" || cluster_down "$c is not running"; done
webhook_impl() { cat "$STATE_DIR/impl-webhook" 2>/dev/null || echo none; }
controllers_impl() { cat "$STATE_DIR/impl-controllers" 2>/dev/null || echo none; }
if [ "$(webhook_impl)" != none ]; then alive webhook || cluster_down "the webhook is not running"; fi

stamp=$(date +%Y%m%d-%H%M%S)
out=$STATE_DIR/bench/controller-$stamp
mkdir -p "$out" "$(dirname "$VCBENCH")"
log "building vcbench"
(cd "$repo/e2e/tests" && GOTOOLCHAIN=local GOFLAGS=-buildvcs=false go build -o "$VCBENCH" ./cmd/vcbench) ||
  die "could not build vcbench (e2e/tests/cmd/vcbench)"
vcbench() { "$VCBENCH" "$1" --kubeconfig="$ADMIN_KUBECONFIG" "${@:2}"; }

# ---------------------------------------------------------------- cleanup
previous=
slot_taken=false
controller=      # the lib.sh name of the controller-manager this script runs, if any
sampler_pid=
vcbench_pid=
created_nodes=false
cleanup() {
  local rc=$? ns
  trap - EXIT INT TERM
  if [ -n "$vcbench_pid" ]; then kill -TERM "$vcbench_pid" 2>/dev/null || true; wait "$vcbench_pid" 2>/dev/null || true; fi
  if [ -n "$sampler_pid" ]; then kill -TERM "$sampler_pid" 2>/dev/null || true; fi
  if [ -n "$controller" ]; then stop "$controller"; fi
  if $slot_taken; then
    log "restoring the cluster's controller-manager: $previous"
    if ! IMPL_WEBHOOK=$(webhook_impl) IMPL_CONTROLLERS=$previous "$cluster_dir/up.sh" >>"$out/cluster-up.log" 2>&1; then
      tail -n 20 "$out/cluster-up.log" >&2
      log "error: could not restore the controller-manager; run: IMPL_CONTROLLERS=$previous e2e/cluster/up.sh"
      rc=1
    fi
  fi
  for ns in $(kubectl_ get namespace -l "$PLACEMENT" -o name 2>/dev/null | sed 's|^namespace/||'); do
    vcbench delete-namespace --namespace="$ns" --timeout=300s 2>>"$out/cleanup.log" ||
      { log "error: namespace $ns not deleted (see $out/cleanup.log)"; rc=1; }
  done
  kubectl_ delete queue "$QUEUE" --ignore-not-found >/dev/null 2>&1 ||
    { log "error: could not delete queue $QUEUE"; rc=1; }
  if $created_nodes; then
    kubectl_ delete node -l "$PLACEMENT" --ignore-not-found >/dev/null ||
      { log "error: could not delete the benchmark nodes (-l $PLACEMENT)"; rc=1; }
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- leftovers, nodes, queue
for impl in ours reference; do stop "bench-controllers-$impl"; done  # of an interrupted run
for ns in $(kubectl_ get namespace -l "$PLACEMENT" -o name | sed 's|^namespace/||'); do
  log "deleting namespace $ns left by an earlier run"
  vcbench delete-namespace --namespace="$ns" --timeout=300s || die "could not delete namespace $ns"
done

created_nodes=true
kubectl_ delete node -l "$PLACEMENT" --ignore-not-found >/dev/null
log "creating $NODES benchmark nodes ($PODS_PER_NODE pods each)"
{
  echo '{"apiVersion": "v1", "kind": "List", "items": ['
  for i in $(seq 0 $((NODES - 1))); do
    [ "$i" = 0 ] || echo ,
    cat <<JSON
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "vcbench-node-$i",
   "annotations": {"node.alpha.kubernetes.io/ttl": "0", "kwok.x-k8s.io/node": "fake"},
   "labels": {"kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux",
     "kubernetes.io/hostname": "vcbench-node-$i", "type": "kwok", "${PLACEMENT%%=*}": "${PLACEMENT#*=}"}},
 "spec": {"taints": [{"key": "${PLACEMENT%%=*}", "value": "${PLACEMENT#*=}", "effect": "NoSchedule"}]},
 "status": {"capacity": {"cpu": "1000", "memory": "4Ti", "pods": "$PODS_PER_NODE"},
   "allocatable": {"cpu": "1000", "memory": "4Ti", "pods": "$PODS_PER_NODE"}}}
JSON
  done
  echo ']}'
} | kubectl_ create -f - >/dev/null || die "could not create the benchmark nodes"
kubectl_ wait --for=condition=Ready node -l "$PLACEMENT" --timeout=120s >/dev/null ||
  die "benchmark nodes not Ready: $(kubectl_ get node -l "$PLACEMENT" --no-headers 2>&1 | head -5)"

kubectl_ apply -f - >/dev/null <<YAML || die "could not create queue $QUEUE"
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: $QUEUE}
spec: {weight: 1}
YAML

# ---------------------------------------------------------------- the controller-manager slot
previous=$(controllers_impl)
log "taking the cluster's controller-manager slot (running: $previous)"
slot_taken=true
IMPL_WEBHOOK=$(webhook_impl) IMPL_CONTROLLERS=none "$cluster_dir/up.sh" >>"$out/cluster-up.log" 2>&1 ||
  { tail -n 20 "$out/cluster-up.log" >&2; log "IMPL_CONTROLLERS=none up.sh failed; stopping it directly"; }
if alive controllers || [ "$(controllers_impl)" != none ]; then
  stop controllers
  echo none > "$STATE_DIR/impl-controllers"
fi
alive controllers && die "the cluster's controller-manager is still running"
port_free() { ! curl -fsS --max-time 2 "http://127.0.0.1:$CONTROLLERS_HEALTHZ_PORT/healthz" >/dev/null 2>&1; }
wait_until "the controller healthz port $CONTROLLERS_HEALTHZ_PORT to be free" 15 port_free ||
  die "something still serves the controller healthz port $CONTROLLERS_HEALTHZ_PORT"

# The slot must stay ours: an e2e run of someone else calling up.sh would restart the cluster's
# controller-manager, and two controllers would then share (and skew) the measurement.
slot_still_ours() {
  if alive controllers || [ "$(controllers_impl)" != none ]; then
    die "the cluster's controller-manager was restarted during the benchmark (by an up.sh run?);" \
        "two controllers would share the work, so the results are void"
  fi
}

# ---------------------------------------------------------------- process figures
# cpu_ticks PID: utime + stime of PID in clock ticks (fields 14 and 15 of /proc/PID/stat,
# counted after the parenthesised command name, which may contain spaces).
cpu_ticks() {
  local stat f
  read -r stat < "/proc/$1/stat"
  read -ra f <<< "${stat##*) }"
  echo $((f[11] + f[12]))
}
# status_kib PID FIELD: a kB field of /proc/PID/status (VmRSS, VmHWM).
status_kib() {
  local k v _
  while read -r k v _; do [ "$k" = "$2:" ] && { echo "$v"; return; }; done < "/proc/$1/status"
  echo 0
}
# cluster_ticks: "NAME TICKS" for every process lib.sh started (its pid files: the API server,
# etcd, the scheduler, kwok, the webhook, the benchmarked controller-manager, ...).
cluster_ticks() {
  local f pid
  for f in "$PIDS"/*.pid; do
    pid=$(cat "$f" 2>/dev/null) || continue
    [ -r "/proc/$pid/stat" ] && echo "$(basename "$f" .pid) $(cpu_ticks "$pid" 2>/dev/null || echo 0)"
  done
  return 0
}
# machine_ticks: "BUSY IDLE" clock ticks of all CPUs since boot (/proc/stat; iowait counts as idle).
machine_ticks() {
  local _ user nice system idle iowait irq softirq steal
  read -r _ user nice system idle iowait irq softirq steal _ < /proc/stat
  echo "$((user + nice + system + irq + softirq + steal)) $((idle + iowait))"
}
# cluster_cpu_json BEFORE AFTER MACHINE_BEFORE MACHINE_AFTER: each process's CPU seconds between
# two cluster_ticks snapshots (processes in both), the machine's busy and idle CPU seconds, and the
# busy share. The benchmarked controller-manager is named "controller-manager".
cluster_cpu_json() {
  local name t0 t1 b0 i0 b1 i1
  read -r b0 i0 <<< "$3"
  read -r b1 i1 <<< "$4"
  while read -r name t1; do
    t0=$(awk -v n="$name" '$1 == n { print $2 }' "$1")
    [ -n "$t0" ] && jq -n --arg n "${name/#bench-controllers-*/controller-manager}" \
      --argjson s "$(((t1 - t0) * 100 / CLK_TCK))" '{($n): ($s / 100)}'
  done < "$2" | jq -s --argjson busy $(((b1 - b0) * 100 / CLK_TCK)) --argjson idle $(((i1 - i0) * 100 / CLK_TCK)) \
    '{cluster_cpu_s: (add // {}), machine_busy_s: ($busy / 100), machine_idle_s: ($idle / 100),
      machine_busy_pct: (if $busy + $idle > 0 then ($busy * 1000 / ($busy + $idle) | round / 10) else null end)}'
}
# sample PID FILE: every 0.2 s appends "unix_seconds cpu_ticks rss_kib" until PID ends.
sample() {
  echo "# unix_s cpu_ticks(1/$CLK_TCK s) rss_kib" > "$2"
  while [ -r "/proc/$1/stat" ]; do
    echo "$EPOCHREALTIME $(cpu_ticks "$1" 2>/dev/null) $(status_kib "$1" VmRSS 2>/dev/null)" >> "$2" || break
    sleep 0.2
  done
}

{
  echo "date: $(date -Is)"
  echo "commit: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
  echo "kernel: $(uname -r)"
  echo "rounds: $ROUNDS"
  echo "jobs: $JOBS x $TASKS tasks = $PODS pods; controllers: --kube-api-qps=$QPS --kube-api-burst=$BURST --worker-threads=$WORKERS -v=$VERBOSITY"
  echo "vcbench: $CONCURRENCY concurrent creates; $NODES nodes x $PODS_PER_NODE pods; cluster webhook: $(webhook_impl)"
  for impl in $IMPLS; do echo "$impl: $(bin_of "$impl") (identity $(identity_of "$impl"))"; done
  echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/conditions.txt"

# ---------------------------------------------------------------- runs
failed=false
# run_impl IMPL ROUND: one measurement; its files are $out/IMPL-rROUND*.
run_impl() {
  local impl=$1 run=$1-r$2 ns=vcbench-$1-$stamp-r$2 pid cpu0 cpu1 machine0 hwm rc=0
  slot_still_ours
  controller=bench-controllers-$impl
  : > "$LOGS/$controller.log"
  start "$controller" "$(bin_of "$impl")" \
    --kubeconfig="$STATE_DIR/$(identity_of "$impl").kubeconfig" \
    --scheduler-name=volcano --leader-elect=false --worker-threads="$WORKERS" \
    --kube-api-qps="$QPS" --kube-api-burst="$BURST" \
    --enable-healthz=true --healthz-address="127.0.0.1:$CONTROLLERS_HEALTHZ_PORT" \
    --enable-metrics=true --listen-address="127.0.0.1:$CONTROLLERS_METRICS_PORT" \
    --logtostderr -v="$VERBOSITY"
  pid=$(cat "$PIDS/$controller.pid")
  if ! wait_until "$controller healthz" 60 curl -fsS --max-time 2 "http://127.0.0.1:$CONTROLLERS_HEALTHZ_PORT/healthz"; then
    tail -n 30 "$LOGS/$controller.log" >&2
    die "$controller did not come up (log: $LOGS/$controller.log)"
  fi
  # lib.sh's start execs the command in the recorded PID: that is the process to measure.
  [ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$(bin_of "$impl")")" ] ||
    die "pid $pid is $(readlink "/proc/$pid/exe"), not $(bin_of "$impl")"
  wait_until "queue $QUEUE to be Open" 60 \
    bash -c '[ "$("$@")" = Open ]' _ "$K8S_BIN/kubectl" --kubeconfig="$ADMIN_KUBECONFIG" \
    get queue "$QUEUE" -o 'jsonpath={.status.state}' || die "queue $QUEUE is not Open"

  sample "$pid" "$out/$run-samples.tsv" &
  sampler_pid=$!
  log "$impl (round $2/$ROUNDS): $JOBS jobs x $TASKS tasks in namespace $ns"
  cpu0=$(cpu_ticks "$pid")
  cluster_ticks > "$out/$run-cluster-ticks0.txt"
  machine0=$(machine_ticks)
  # In the background so that Ctrl-C (a trapped signal) interrupts the wait at once.
  vcbench jobs --namespace="$ns" --jobs="$JOBS" --tasks="$TASKS" --queue="$QUEUE" \
    --placement="$PLACEMENT" --concurrency="$CONCURRENCY" --timeout="${TIMEOUT}s" --controller-pid="$pid" \
    > "$out/$run.json" 2> >(tee "$out/$run-vcbench.log" | sed "s/^/  [$impl] /" >&2) &
  vcbench_pid=$!
  wait "$vcbench_pid" || rc=$?
  vcbench_pid=
  cluster_ticks > "$out/$run-cluster-ticks1.txt"
  cluster_cpu_json "$out/$run-cluster-ticks0.txt" "$out/$run-cluster-ticks1.txt" "$machine0" "$(machine_ticks)" \
    > "$out/$run-cluster-cpu.json"
  if kill -0 "$pid" 2>/dev/null; then
    cpu1=$(cpu_ticks "$pid")
    hwm=$(status_kib "$pid" VmHWM)
  else
    failed=true
    log "error: $impl controller-manager (pid $pid) died; see $LOGS/$controller.log"
    cpu1=$cpu0 hwm=0
  fi
  kill -TERM "$sampler_pid" 2>/dev/null || true
  wait "$sampler_pid" 2>/dev/null || true
  sampler_pid=
  if [ "$rc" -ne 0 ]; then
    failed=true
    log "error: the $impl measurement failed (exit $rc): $(jq -r '.error // "no result"' "$out/$run.json" 2>/dev/null)"
    tail -n 20 "$LOGS/$controller.log" >&2
  fi
  jq -n --argjson ticks $((cpu1 - cpu0)) --argjson hz "$CLK_TCK" --argjson hwm "$hwm" \
    '{cpu_s: ($ticks / $hz), peak_rss_kib: $hwm}' > "$out/$run-proc.json"
  slot_still_ours
  vcbench delete-namespace --namespace="$ns" --timeout=300s || die "could not delete namespace $ns"
  stop "$controller"
  controller=
}

for round in $(seq "$ROUNDS"); do
  for impl in $(round_order "$round" $IMPLS); do run_impl "$impl" "$round"; done
done

slot_still_ours
ns=vcbench-ceiling-$stamp
log "ceiling: $PODS pods at qps $QPS, burst $BURST in namespace $ns"
rc=0
vcbench pods --namespace="$ns" --pods="$PODS" --qps="$QPS" --burst="$BURST" \
  --placement="$PLACEMENT" --concurrency="$CONCURRENCY" --timeout="${TIMEOUT}s" \
  > "$out/ceiling.json" 2> >(tee "$out/ceiling-vcbench.log" | sed "s/^/  [ceiling] /" >&2) &
vcbench_pid=$!
wait "$vcbench_pid" || rc=$?
vcbench_pid=
if [ "$rc" -ne 0 ]; then
  failed=true
  log "error: the ceiling measurement failed (exit $rc): $(jq -r '.error // "no result"' "$out/ceiling.json" 2>/dev/null)"
fi
vcbench delete-namespace --namespace="$ns" --timeout=300s || die "could not delete namespace $ns"
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"

# ---------------------------------------------------------------- report
# results.json: {runs: [{impl, round, vcbench's result + cpu_s + peak_rss_mib}],
# impls: {<impl>: the median of each figure over its rounds, or the first error}, ceiling: {...}}
# result_of FILE: the JSON object in FILE, or an error object if vcbench left none.
result_of() { jq -ce 'objects' "$1" 2>/dev/null || echo '{"error": "vcbench left no result"}'; }
{
  for round in $(seq "$ROUNDS"); do
    for impl in $IMPLS; do
      result_of "$out/$impl-r$round.json" |
        jq -c --arg impl "$impl" --argjson round "$round" --slurpfile proc "$out/$impl-r$round-proc.json" \
          --argjson cluster "$(jq -ce 'objects' "$out/$impl-r$round-cluster-cpu.json" 2>/dev/null || echo '{}')" \
          '. + $cluster + {impl: $impl, round: $round, cpu_s: ($proc[0].cpu_s * 100 | round / 100),
                peak_rss_mib: (if $proc[0].peak_rss_kib > 0
                               then ($proc[0].peak_rss_kib / 1024 * 10 | round / 10)
                               else null end)}'
    done
  done
} | jq -s --argjson ceiling "$(result_of "$out/ceiling.json")" "$JQ_MEDIAN"'
  def figures: "creates_done_s", "all_pods_s", "all_running_s", "pods_per_s",
               "job_running_p50_s", "job_running_p99_s", "peak_rss_mib", "cpu_s", "machine_busy_pct";
  {runs: .,
   impls: (group_by(.impl) | map({key: .[0].impl, value:
     (if any(.[]; .error) then (first(.[] | select(.error)) | {error})
      else . as $runs | reduce figures as $f ({};
        .[$f] = ([$runs[][$f] | numbers] | median | if . then (. * 1000 | round / 1000) else . end))
        | .cluster_cpu_s = ([$runs[].cluster_cpu_s // {} | keys[]] | unique | map({key: ., value:
            ([$runs[].cluster_cpu_s[.] | numbers] | median)}) | from_entries)
      end)}) | from_entries),
   ceiling: $ceiling}' > "$out/results.json"

# value PATH: a field of results.json, "n/a" when missing or null.
value() { jq -r "($1) // \"n/a\"" "$out/results.json"; }
# metric IMPL|ceiling FIELD: a figure for ratios and targets, "n/a" if that measurement failed.
metric() {
  local path=.ceiling
  [ "$1" = ceiling ] || path=".impls.\"$1\""
  jq -r "$path | if .error then \"n/a\" else (.$2 // \"n/a\") end" "$out/results.json"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "n/a" || b == "n/a" || b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }

report=$out/results.md
{
  echo "## vc-controller-manager: ours vs Volcano v1.15 ($JOBS jobs x $TASKS tasks, qps $QPS, burst $BURST, $WORKERS workers)"
  echo
  echo "| impl | all created s | time to all pods s | time to all Running s | pods/s | job create→Running p50 s | p99 s | peak RSS MiB | CPU s | result |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  # row LABEL PATH: one line of the table for the result at PATH of results.json.
  row() {
    echo "| $1 | $(value "$2.creates_done_s") | $(value "$2.all_pods_s") | $(value "$2.all_running_s") | $(value "$2.pods_per_s") |" \
         "$(value "$2.job_running_p50_s") | $(value "$2.job_running_p99_s") | $(value "$2.peak_rss_mib") |" \
         "$(value "$2.cpu_s") | $(jq -r "$2 | if .error then \"FAILED: \" + (.error | .[:120]) else \"ok\" end" "$out/results.json") |"
  }
  for impl in $IMPLS; do
    if [ "$ROUNDS" -eq 1 ]; then
      row "$impl" ".impls.\"$impl\""
    else
      for round in $(seq "$ROUNDS"); do
        row "$impl, round $round" "(.runs[] | select(.impl == \"$impl\" and .round == $round))"
      done
      row "**$impl, median**" ".impls.\"$impl\""
    fi
  done
  echo "| ceiling: plain pods, same client limits | $(value .ceiling.creates_done_s) | $(value .ceiling.all_pods_s) | | $(metric ceiling pods_per_s) | | | | |" \
       "$(jq -r '.ceiling | if .error then "FAILED: " + (.error | .[:120]) else "ok" end' "$out/results.json") |"
  if [[ " $IMPLS " == *" ours "* && " $IMPLS " == *" reference "* ]]; then
    echo
    if [ "$ROUNDS" -gt 1 ]; then echo "Ratios of the medians over $ROUNDS rounds:"; echo; fi
    echo "| pods/s ours/reference | peak RSS ours/reference | CPU s ours/reference | pods/s ours/ceiling |"
    echo "|---:|---:|---:|---:|"
    echo "| $(ratio "$(metric ours pods_per_s)" "$(metric reference pods_per_s)") |" \
         "$(ratio "$(metric ours peak_rss_mib)" "$(metric reference peak_rss_mib)") |" \
         "$(ratio "$(metric ours cpu_s)" "$(metric reference cpu_s)") |" \
         "$(ratio "$(metric ours pods_per_s)" "$(metric ceiling pods_per_s)") |"
  fi
  if [[ " $IMPLS " == *" reference "* ]]; then
    echo
    echo "reference/ceiling pods/s: $(ratio "$(metric reference pods_per_s)" "$(metric ceiling pods_per_s)")"
  fi
  echo
  echo "Where the machine's CPU went during each measurement (CPU s per process, medians over rounds):"
  echo
  # One column per implementation; processes sorted by their largest figure.
  jq -r --arg impls "$IMPLS" '. as $root | ($impls | split(" ") | map(select(. != ""))) as $names
    | [.impls[$names[]].cluster_cpu_s // {}] as $cols
    | ($cols | map(keys[]) | unique) as $procs
    | "| process | \($names | join(" | ")) |",
      "|---|\($names | map("---:") | join("|"))|",
      ($procs | sort_by([$cols[][.] // 0] | max) | reverse[]
        | . as $p | "| \($p) | \($cols | map(.[$p] // "n/a" | tostring) | join(" | ")) |"),
      "| all processes above | \($cols | map(add // 0 | . * 100 | round / 100 | tostring) | join(" | ")) |",
      "| all CPUs busy % | \($names | map($root.impls[.].machine_busy_pct // "n/a" | tostring) | join(" | ")) |"' "$out/results.json"
  echo
  echo "Times are seconds from the first create, seen through watches ('all created': the last"
  echo "create request returned, jobs for the impls, pods for the ceiling). pods/s = pods / time to all"
  echo "pods. CPU s is the controller's user+system time from the start of the job creation to the"
  echo "moment every job was Running; peak RSS its VmHWM (start-up included). The ceiling creates the"
  echo "same pods (same spec and nodes, no owner) from one client limited to qps $QPS / burst $BURST"
  echo "with $CONCURRENCY creates in flight, while no controller-manager runs."
  echo
  echo '```'
  cat "$out/conditions.txt"
  echo '```'
} > "$report"
cat "$report"

# ---------------------------------------------------------------- targets
missed=()
below() { awk -v r="$1" -v t="$2" 'BEGIN { exit !(r == "n/a" || r < t) }'; }
above() { awk -v r="$1" -v t="$2" 'BEGIN { exit !(r == "n/a" || r > t) }'; }
if [[ " $IMPLS " == *" ours "* ]]; then
  r=$(ratio "$(metric ours pods_per_s)" "$(metric ceiling pods_per_s)")
  below "$r" "$TARGET_CEILING_RATIO" && missed+=("pods/s ours/ceiling = $r (target >= $TARGET_CEILING_RATIO)")
  if [[ " $IMPLS " == *" reference "* ]]; then
    r=$(ratio "$(metric ours pods_per_s)" "$(metric reference pods_per_s)")
    below "$r" "$TARGET_PODS_RATIO" && missed+=("pods/s ours/reference = $r (target >= $TARGET_PODS_RATIO)")
    r=$(ratio "$(metric ours peak_rss_mib)" "$(metric reference peak_rss_mib)")
    above "$r" "$TARGET_RSS_RATIO" && missed+=("peak RSS ours/reference = $r (target <= $TARGET_RSS_RATIO)")
    r=$(ratio "$(metric ours cpu_s)" "$(metric reference cpu_s)")
    above "$r" "$TARGET_CPU_RATIO" && missed+=("CPU s ours/reference = $r (target <= $TARGET_CPU_RATIO)")
  fi
fi
{
  echo
  if [ ${#missed[@]} -eq 0 ]; then
    [[ " $IMPLS " == *" ours "* ]] && echo "All targets met." || echo "No targets: ours was not run."
  else
    for m in "${missed[@]}"; do echo "TARGET MISSED: $m"; done
  fi
} | tee -a "$report"
echo
echo "results: $out (results.md, results.json, <impl>-r<round>.json, ceiling.json, <impl>-r<round>-samples.tsv);" \
     "controller logs: $LOGS/bench-controllers-*.log"
$failed && exit 1
exit 0
