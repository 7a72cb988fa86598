# The jobs case of bench/controller/run.sh (sourced; the interface is in common.sh): BENCH_JOBS
# Volcano Jobs of BENCH_TASKS tasks at once, the time until every pod exists and every job is
# Running, and the ceiling: the same pods created directly by a client with the same limits.

# Targets: pods/s >= 1.5x Volcano's and >= 90 % of the ceiling (and common.sh's RSS and CPU, and
# api-work.sh's writes per job and API server CPU).
TARGET_PODS_RATIO=1.5
TARGET_CEILING_RATIO=0.9

jobs_pods() { echo $((JOBS * TASKS)); }
jobs_conditions() {
  echo "jobs: $JOBS x $TASKS tasks = $(jobs_pods) pods; controllers: --kube-api-qps=$QPS --kube-api-burst=$BURST --worker-threads=$WORKERS -v=$VERBOSITY${CONTROLLER_FLAGS[*]+ ${CONTROLLER_FLAGS[*]}}"
}
jobs_describe() { echo "$JOBS jobs x $TASKS tasks"; }
jobs_vcbench() {
  vcbench jobs --namespace="$1" --jobs="$JOBS" --tasks="$TASKS" --queue="$QUEUE" \
    --placement="$PLACEMENT" --concurrency="$CONCURRENCY" --timeout="${TIMEOUT}s" --controller-pid="$2"
}

# jobs_after_rounds: the ceiling, while no controller-manager runs.
jobs_after_rounds() {
  local ns=vcbench-ceiling-$stamp rc=0
  slot_still_ours
  log "ceiling: $(jobs_pods) pods at qps $QPS, burst $BURST in namespace $ns"
  vcbench pods --namespace="$ns" --pods="$(jobs_pods)" --qps="$QPS" --burst="$BURST" \
    --placement="$PLACEMENT" --concurrency="$CONCURRENCY" --timeout="${TIMEOUT}s" \
    > "$out/ceiling.json" 2> >(tee "$out/ceiling-vcbench.log" | sed "s/^/  [ceiling] /" >&2) &
  vcbench_pid=$!
  wait "$vcbench_pid" || rc=$?
  vcbench_pid=
  if [ "$rc" -ne 0 ]; then
    failed=true
    log "error: the ceiling measurement failed (exit $rc): $(jq -r '.error // "no result"' "$out/ceiling.json" 2>/dev/null)"
  fi
  delete_namespace "$ns" || die "could not delete namespace $ns"
}

jobs_report() {
  local r
  collect_results jobs '["creates_done_s", "all_pods_s", "all_running_s", "pods_per_s",
    "job_running_p50_s", "job_running_p99_s", "peak_rss_mib", "cpu_s", "machine_busy_pct"]' \
    "$(result_of "$out/ceiling.json")"
  {
    echo "## vc-controller-manager: ours vs Volcano v1.15 ($JOBS jobs x $TASKS tasks, qps $QPS, burst $BURST, $WORKERS workers)"
    echo
    echo "| impl | all created s | time to all pods s | time to all Running s | pods/s | job create→Running p50 s | p99 s | peak RSS MiB | CPU s | result |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    table_rows creates_done_s all_pods_s all_running_s pods_per_s job_running_p50_s job_running_p99_s \
      peak_rss_mib cpu_s
    echo "| ceiling: plain pods, same client limits | $(value .ceiling.creates_done_s) | $(value .ceiling.all_pods_s) | | $(metric ceiling pods_per_s) | | | | |" \
         "$(result_cell .ceiling) |"
    ratio_table pods/s:pods_per_s "peak RSS:peak_rss_mib" "CPU s:cpu_s" pods/s:pods_per_s:ceiling
    if [[ " $IMPLS " == *" reference "* ]]; then
      echo
      echo "reference/ceiling pods/s: $(ratio "$(metric reference pods_per_s)" "$(metric ceiling pods_per_s)")"
    fi
    echo
    cluster_cpu_table
    echo
    api_work_table "$JOBS" "$TASKS"
    echo
    echo "Times are seconds from the first create, seen through watches ('all created': the last"
    echo "create request returned, jobs for the impls, pods for the ceiling). pods/s = pods / time to all"
    echo "pods. CPU s is the controller's user+system time from the start of the job creation to the"
    echo "moment every job was Running; peak RSS its VmHWM (start-up included). The ceiling creates the"
    echo "same pods (same spec and nodes, no owner) from one client limited to qps $QPS / burst $BURST"
    echo "with $CONCURRENCY creates in flight, while no controller-manager runs."
    conditions_block
  } > "$report"
  cat "$report"

  if [[ " $IMPLS " == *" ours "* ]]; then
    r=$(ratio "$(metric ours pods_per_s)" "$(metric ceiling pods_per_s)")
    below "$r" "$TARGET_CEILING_RATIO" && missed+=("pods/s ours/ceiling = $r (target >= $TARGET_CEILING_RATIO)")
    if [[ " $IMPLS " == *" reference "* ]]; then
      r=$(ratio "$(metric ours pods_per_s)" "$(metric reference pods_per_s)")
      below "$r" "$TARGET_PODS_RATIO" && missed+=("pods/s ours/reference = $r (target >= $TARGET_PODS_RATIO)")
      check_rss_and_cpu
    fi
  fi
  print_targets
  echo
  echo "results: $out (results.md, results.json, <impl>-r<round>.json, ceiling.json, <impl>-r<round>-samples.tsv);" \
       "controller logs: $LOGS/bench-controllers-*.log"
}
