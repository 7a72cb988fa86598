# The machinery every case of bench/controller/run.sh shares (sourced by run.sh after its
# variables): the cluster checks, the benchmark nodes and queue, taking and restoring the
# cluster's controller-manager slot, the cleanup, sampling a process's CPU and RSS, one
# measurement of one implementation, and the results.json and table helpers.
#
# A case C (jobs, cronjob, jobflow; in case-C.sh) defines:
#   C_describe            what one measurement does, for the progress log
#   C_before_launch       (optional) runs just before vcbench is launched
#   C_vcbench NS PID      runs vcbench for one measurement in namespace NS against the
#                         controller-manager PID; its JSON result goes to stdout
#   C_after_measure NS RUN (optional) runs after a successful measurement, before its namespace
#                         is deleted (the controller-manager $controller still runs), e.g. the
#                         scale case's cold start
#   C_after_rounds        (optional) runs after every round, e.g. the jobs case's ceiling
#   C_report              writes the case's results.json and results.md and checks its targets
# Its files are $out/$(prefix_of C)*: no prefix for jobs (as before there were cases), C- else.

prefix_of() { [ "$1" = jobs ] && echo "" || echo "$1-"; }
bin_of() { case $1 in ours) echo "$CONTROLLERS_BIN" ;; reference) echo "$REFERENCE_BIN" ;; esac; }
# Each implementation runs under its own identity, as in the cluster (rbac.sh).
identity_of() { case $1 in ours) echo vc-cpp-controllers ;; reference) echo volcano-controllers ;; esac; }
webhook_impl() { cat "$STATE_DIR/impl-webhook" 2>/dev/null || echo none; }
controllers_impl() { cat "$STATE_DIR/impl-controllers" 2>/dev/null || echo none; }

# ---------------------------------------------------------------- the cluster must be up
cluster_down() {
  die "the local cluster is not up ($*). This benchmark uses the running shared cluster and" \
      "never starts or stops it: run 'make cluster-up' first"
}
check_cluster() {
  local c
  alive kube-apiserver || cluster_down "kube-apiserver is not running"
  kubectl_ get --raw /readyz >/dev/null 2>&1 || cluster_down "kube-apiserver /readyz fails"
  for c in scheduler kwok kube-controller-manager; do alive "$c" || cluster_down "$c is not running"; done
  if [ "$(webhook_impl)" != none ]; then alive webhook || cluster_down "the webhook is not running"; fi
}

build_vcbench() {
  log "building vcbench"
  (cd "$repo/e2e/tests" && GOTOOLCHAIN=local GOFLAGS=-buildvcs=false go build -o "$VCBENCH" ./cmd/vcbench) ||
    die "could not build vcbench (e2e/tests/cmd/vcbench)"
}
vcbench() { "$VCBENCH" "$1" --kubeconfig="$ADMIN_KUBECONFIG" "${@:2}"; }
# delete_namespace NS: NS and everything in it gone, within the measurement's timeout (a namespace
# of 10,000 jobs takes minutes here); status 1 if not.
delete_namespace() { vcbench delete-namespace --namespace="$1" --timeout="${TIMEOUT}s"; }

# ---------------------------------------------------------------- cleanup
previous=
previous_webhook=  # the cluster's webhook before a case swapped it (the scale case), if it did
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
  perf_stop
  if [ -n "$controller" ]; then stop "$controller"; fi
  if $slot_taken; then
    log "restoring the cluster's controller-manager: $previous"
    [ -z "$previous_webhook" ] || log "restoring the cluster's webhook: $previous_webhook"
    if ! IMPL_WEBHOOK=${previous_webhook:-$(webhook_impl)} IMPL_CONTROLLERS=$previous "$cluster_dir/up.sh" >>"$out/cluster-up.log" 2>&1; then
      tail -n 20 "$out/cluster-up.log" >&2
      log "error: could not restore the controller-manager; run: IMPL_CONTROLLERS=$previous e2e/cluster/up.sh"
      rc=1
    fi
  fi
  for ns in $(kubectl_ get namespace -l "$PLACEMENT" -o name 2>/dev/null | sed 's|^namespace/||'); do
    delete_namespace "$ns" 2>>"$out/cleanup.log" ||
      { log "error: namespace $ns not deleted (see $out/cleanup.log)"; rc=1; }
  done
  kubectl_ delete queue "$QUEUE" --ignore-not-found >/dev/null 2>&1 ||
    { log "error: could not delete queue $QUEUE"; rc=1; }
  bench_identities_delete
  if $created_nodes; then
    kubectl_ delete node -l "$PLACEMENT" --ignore-not-found >/dev/null ||
      { log "error: could not delete the benchmark nodes (-l $PLACEMENT)"; rc=1; }
  fi
  exit "$rc"
}
install_cleanup() {
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# ---------------------------------------------------------------- leftovers, nodes, queue
remove_leftovers() {
  local impl ns
  for impl in ours reference; do stop "bench-controllers-$impl"; done  # of an interrupted run
  for ns in $(kubectl_ get namespace -l "$PLACEMENT" -o name | sed 's|^namespace/||'); do
    log "deleting namespace $ns left by an earlier run"
    delete_namespace "$ns" || die "could not delete namespace $ns"
  done
}

create_nodes() {
  local i
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
}

create_queue() {
  kubectl_ apply -f - >/dev/null <<YAML || die "could not create queue $QUEUE"
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: $QUEUE}
spec: {weight: 1}
YAML
}

# ---------------------------------------------------------------- the controller-manager slot
port_free() { ! curl -fsS --max-time 2 "http://127.0.0.1:$CONTROLLERS_HEALTHZ_PORT/healthz" >/dev/null 2>&1; }
take_slot() {
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
  wait_until "the controller healthz port $CONTROLLERS_HEALTHZ_PORT to be free" 15 port_free ||
    die "something still serves the controller healthz port $CONTROLLERS_HEALTHZ_PORT"
}

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

# ---------------------------------------------------------------- one measurement
failed=false
# start_controller IMPL: IMPL's controller-manager as $controller, with the flags both get.
start_controller() {
  start "$controller" "$(bin_of "$1")" \
    --kubeconfig="$(bench_kubeconfig "$1")" \
    --scheduler-name=volcano --leader-elect=false --worker-threads="$WORKERS" \
    --kube-api-qps="$QPS" --kube-api-burst="$BURST" \
    --enable-healthz=true --healthz-address="127.0.0.1:$CONTROLLERS_HEALTHZ_PORT" \
    --enable-metrics=true --listen-address="127.0.0.1:$CONTROLLERS_METRICS_PORT" \
    --logtostderr -v="$VERBOSITY" ${CONTROLLER_FLAGS[@]+"${CONTROLLER_FLAGS[@]}"}
}
# measure CASE IMPL ROUND: one measurement of CASE with IMPL; its files are
# $out/<prefix>IMPL-rROUND*. The controller's CPU seconds count from the launch of vcbench to its
# end (CASE_before_launch runs before), its peak RSS is VmHWM at the end; its API requests and
# bytes (api-work.sh) from the launch until it has been quiet for 3 s after vcbench's end.
measure() {
  local case_=$1 impl=$2 round=$3 run ns pid cpu0 cpu1 machine0 hwm started t0 t1 rc=0
  run=$(prefix_of "$case_")$impl-r$round
  ns=vcbench-$(prefix_of "$case_")$impl-$stamp-r$round
  slot_still_ours
  controller=bench-controllers-$impl
  : > "$LOGS/$controller.log"
  started=$(audit_now)
  start_controller "$impl"
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
  log "$impl (round $round/$ROUNDS): $("${case_}_describe") in namespace $ns"
  if declare -F "${case_}_before_launch" >/dev/null; then "${case_}_before_launch"; fi
  cpu0=$(cpu_ticks "$pid")
  t0=$(audit_now)
  socket_bytes "$pid" > "$out/$run-sockets0.txt"
  cluster_ticks > "$out/$run-cluster-ticks0.txt"
  machine0=$(machine_ticks)
  if $PERF; then
    perf_start "$run" controller "$pid"
    if alive webhook; then perf_start "$run" webhook "$(cat "$PIDS/webhook.pid")"; fi
  fi
  # In the background so that Ctrl-C (a trapped signal) interrupts the wait at once.
  "${case_}_vcbench" "$ns" "$pid" \
    > "$out/$run.json" 2> >(tee "$out/$run-vcbench.log" | sed "s/^/  [$impl] /" >&2) &
  vcbench_pid=$!
  wait "$vcbench_pid" || rc=$?
  vcbench_pid=
  perf_stop
  cluster_ticks > "$out/$run-cluster-ticks1.txt"
  cluster_cpu_json "$out/$run-cluster-ticks0.txt" "$out/$run-cluster-ticks1.txt" "$machine0" "$(machine_ticks)" \
    > "$out/$run-cluster-cpu.json"
  if kill -0 "$pid" 2>/dev/null; then
    cpu1=$(cpu_ticks "$pid")
    hwm=$(status_kib "$pid" VmHWM)
    wait_api_quiet "$impl"
    t1=$(audit_now)
    socket_bytes "$pid" > "$out/$run-sockets1.txt"
    api_work_json "$impl" "$started" "$t0" "$t1" "$out/$run-sockets0.txt" "$out/$run-sockets1.txt" \
      > "$out/$run-api.json"
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
  if [ "$rc" -eq 0 ] && declare -F "${case_}_after_measure" >/dev/null; then
    "${case_}_after_measure" "$ns" "$run"
  fi
  perf_reports
  slot_still_ours
  delete_namespace "$ns" || die "could not delete namespace $ns"
  stop "$controller"
  controller=
}

# run_case CASE: every round of CASE, then its report.
run_case() {
  local case_=$1 round impl
  for round in $(seq "$ROUNDS"); do
    for impl in $(round_order "$round" $IMPLS); do measure "$case_" "$impl" "$round"; done
  done
  if declare -F "${case_}_after_rounds" >/dev/null; then "${case_}_after_rounds"; fi
  if [ "$CASES" = "$case_" ]; then
    echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
  else
    echo "loadavg after $case_: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
  fi
  results=$out/$(prefix_of "$case_")results.json
  report=$out/$(prefix_of "$case_")results.md
  "${case_}_report"
}

# ---------------------------------------------------------------- results
# collect_results CASE FIGURES_JSON [CEILING_JSON]: $results = {runs: [{impl, round, vcbench's
# result + cluster CPU + API work (api-work.sh) + cpu_s + peak_rss_mib}], impls: {<impl>: the
# median of each figure in FIGURES_JSON (an array of names) and of the API work figures over its
# rounds, or the first error}, ceiling: CEILING_JSON (only when given)}.
# result_of FILE: the JSON object in FILE, or an error object if vcbench left none.
result_of() { jq -ce 'objects' "$1" 2>/dev/null || echo '{"error": "vcbench left no result"}'; }
collect_results() {
  local case_=$1 figures=$2 ceiling=${3:-null} round impl run
  {
    for round in $(seq "$ROUNDS"); do
      for impl in $IMPLS; do
        run=$out/$(prefix_of "$case_")$impl-r$round
        result_of "$run.json" |
          jq -c --arg impl "$impl" --argjson round "$round" --slurpfile proc "$run-proc.json" \
            --argjson cluster "$(jq -ce 'objects' "$run-cluster-cpu.json" 2>/dev/null || echo '{}')" \
            --argjson api "$(jq -ce 'objects' "$run-api.json" 2>/dev/null || echo '{}')" \
            '. + $cluster + $api + {impl: $impl, round: $round, cpu_s: ($proc[0].cpu_s * 100 | round / 100),
                  peak_rss_mib: (if $proc[0].peak_rss_kib > 0
                                 then ($proc[0].peak_rss_kib / 1024 * 10 | round / 10)
                                 else null end)}'
      done
    done
  } | jq -s --argjson figures "$figures" --argjson ceiling "$ceiling" \
      --argjson api_figures '["api_writes", "api_reads", "api_watches", "api_watches_in_window",
                              "api_received_mib", "api_sent_mib"]' "$JQ_MEDIAN"'
    {runs: .,
     impls: (group_by(.impl) | map({key: .[0].impl, value:
       (if any(.[]; .error) then (first(.[] | select(.error)) | {error})
        else . as $runs | reduce ($figures + $api_figures)[] as $f ({};
          .[$f] = ([$runs[][$f] | numbers] | median | if . then (. * 1000 | round / 1000) else . end))
          | reduce ("cluster_cpu_s", "api_requests") as $o (.; .[$o] = ([$runs[][$o] // {} | keys[]] | unique
              | map({key: ., value: ([$runs[][$o][.] | numbers] | median)}) | from_entries))
          | .api_audited = all($runs[]; .api_audited == true)
        end)}) | from_entries)}
    + (if $ceiling == null then {} else {ceiling: $ceiling} end)' > "$results"
}

# conditions_block: the run's conditions.txt as a fenced block, the end of every report.
conditions_block() {
  echo
  echo '```'
  cat "$out/conditions.txt"
  echo '```'
}

# value PATH: a field of $results, "n/a" when missing or null.
value() { jq -r "($1) // \"n/a\"" "$results"; }
# metric IMPL|ceiling FIELD: a figure for ratios and targets, "n/a" if that measurement failed.
metric() {
  local path=.ceiling
  [ "$1" = ceiling ] || path=".impls.\"$1\""
  jq -r "$path | if .error then \"n/a\" else (.$2 // \"n/a\") end" "$results"
}
# result_cell PATH: "ok", or "FAILED: " and the start of the error of the result at PATH.
result_cell() { jq -r "$1 | if .error then \"FAILED: \" + (.error | .[:120]) else \"ok\" end" "$results"; }
# table_row LABEL PATH FIGURE...: "| LABEL | figure... | result |" for the result at PATH.
table_row() {
  local label=$1 path=$2 f line
  shift 2
  line="| $label |"
  for f in "$@"; do line+=" $(value "$path.$f") |"; done
  echo "$line $(result_cell "$path") |"
}
# table_rows FIGURE...: the rows of every implementation: one, or from 2 rounds on one per round
# and the medians.
table_rows() {
  local impl round
  for impl in $IMPLS; do
    if [ "$ROUNDS" -eq 1 ]; then
      table_row "$impl" ".impls.\"$impl\"" "$@"
    else
      for round in $(seq "$ROUNDS"); do
        table_row "$impl, round $round" "(.runs[] | select(.impl == \"$impl\" and .round == $round))" "$@"
      done
      table_row "**$impl, median**" ".impls.\"$impl\"" "$@"
    fi
  done
}
both_impls() { [[ " $IMPLS " == *" ours "* && " $IMPLS " == *" reference "* ]]; }

# ratio_table LABEL:METRIC[:OTHER]...: when both implementations ran, a one-row table of ours'
# METRIC over OTHER's (default reference), headed "LABEL ours/OTHER"; medians from 2 rounds on.
ratio_table() {
  both_impls || return 0
  echo
  if [ "$ROUNDS" -gt 1 ]; then echo "Ratios of the medians over $ROUNDS rounds:"; echo; fi
  local head="|" rule="|" row="|" spec label name other
  for spec in "$@"; do
    IFS=: read -r label name other <<<"$spec"
    other=${other:-reference}
    head+=" $label ours/$other |"
    rule+="---:|"
    row+=" $(ratio "$(metric ours "$name")" "$(metric "$other" "$name")") |"
  done
  printf '%s\n' "$head" "$rule" "$row"
}

# cluster_cpu_table: where the machine's CPU went, one column per implementation; processes
# sorted by their largest figure.
cluster_cpu_table() {
  echo "Where the machine's CPU went during each measurement (CPU s per process, medians over rounds):"
  echo
  jq -r --arg impls "$IMPLS" '. as $root | ($impls | split(" ") | map(select(. != ""))) as $names
    | [.impls[$names[]].cluster_cpu_s // {}] as $cols
    | ($cols | map(keys[]) | unique) as $procs
    | "| process | \($names | join(" | ")) |",
      "|---|\($names | map("---:") | join("|"))|",
      ($procs | sort_by([$cols[][.] // 0] | max) | reverse[]
        | . as $p | "| \($p) | \($cols | map(.[$p] // "n/a" | tostring) | join(" | ")) |"),
      "| all processes above | \($cols | map(add // 0 | . * 100 | round / 100 | tostring) | join(" | ")) |",
      "| all CPUs busy % | \($names | map($root.impls[.].machine_busy_pct // "n/a" | tostring) | join(" | ")) |"' "$results"
}

# ---------------------------------------------------------------- targets
# Every case: RSS <= 1/5 of Volcano's, CPU seconds <= 1/3.
TARGET_RSS_RATIO=0.2
TARGET_CPU_RATIO=0.33
missed=()
below() { awk -v r="$1" -v t="$2" 'BEGIN { exit !(r == "n/a" || r < t) }'; }
above() { awk -v r="$1" -v t="$2" 'BEGIN { exit !(r == "n/a" || r > t) }'; }
# check_rss_and_cpu: the targets every case shares, into missed.
check_rss_and_cpu() {
  local r
  r=$(ratio "$(metric ours peak_rss_mib)" "$(metric reference peak_rss_mib)")
  above "$r" "$TARGET_RSS_RATIO" && missed+=("peak RSS ours/reference = $r (target <= $TARGET_RSS_RATIO)")
  r=$(ratio "$(metric ours cpu_s)" "$(metric reference cpu_s)")
  above "$r" "$TARGET_CPU_RATIO" && missed+=("CPU s ours/reference = $r (target <= $TARGET_CPU_RATIO)")
  return 0
}
# print_targets: the verdict on missed, appended to $report; empties missed for the next case.
print_targets() {
  local m
  {
    echo
    if [ ${#missed[@]} -eq 0 ]; then
      [[ " $IMPLS " == *" ours "* ]] && echo "All targets met." || echo "No targets: ours was not run."
    else
      for m in "${missed[@]}"; do echo "TARGET MISSED: $m"; done
    fi
  } | tee -a "$report"
  missed=()
}
