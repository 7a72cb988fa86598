# The cronjob case of bench/controller/run.sh (sourced; the interface is in common.sh):
# BENCH_CRONJOBS CronJobs "* * * * *" (Allow, history 1, a one-pod Job that kwok ends after 1 s),
# created at second 30 of a minute; vcbench cronjobs then follows their Jobs over
# BENCH_CRON_MINUTES scheduled minutes plus BENCH_CRON_GRACE seconds: runs created per minute,
# missed runs, and each run's lateness (the watch first delivering its Job minus its minute).

# Targets: every due run created, lateness p99 <= 1 s and <= Volcano's (and common.sh's RSS and CPU).
TARGET_LATENESS_P99_S=1
TARGET_LATENESS_RATIO=1
# Creates start this many seconds before the window's first minute.
CRON_LEAD_S=30

# Pods: each CronJob keeps one finished Job (history 1) beside the running one; one more for
# runs that overlap.
cronjob_pods() { echo $((CRONJOBS * 3)); }
cronjob_conditions() {
  echo "cronjob: $CRONJOBS CronJobs every minute, $CRON_MINUTES minutes measured + ${CRON_GRACE}s; controllers: --kube-api-qps=$QPS --kube-api-burst=$BURST --worker-threads=$WORKERS -v=$VERBOSITY${CONTROLLER_FLAGS[*]+ ${CONTROLLER_FLAGS[*]}}"
}
cronjob_describe() { echo "$CRONJOBS CronJobs, $CRON_MINUTES minutes"; }

# cronjob_before_launch: wait for second 60 - CRON_LEAD_S of the minute, so that every create has
# ended well before the first scheduled minute and every run of the window is due for every
# CronJob. It also makes the CPU window (launch to the end of the grace) the same in every run.
cronjob_before_launch() {
  local delay
  delay=$(awk -v now="$EPOCHREALTIME" -v at=$((60 - CRON_LEAD_S)) \
    'BEGIN { s = now - int(now / 60) * 60; w = at - s; if (w < 0) w += 60; printf "%.3f", w }')
  log "waiting ${delay}s for second $((60 - CRON_LEAD_S)) of the minute"
  sleep "$delay"
}
cronjob_vcbench() {
  vcbench cronjobs --namespace="$1" --cronjobs="$CRONJOBS" --minutes="$CRON_MINUTES" --grace="${CRON_GRACE}s" \
    --queue="$QUEUE" --placement="$PLACEMENT" --concurrency="$CONCURRENCY" --timeout="${TIMEOUT}s" \
    --controller-pid="$2"
}

# cronjob_minutes_table: created/expected runs and lateness p99 of each minute, per round.
cronjob_minutes_table() {
  jq -r --argjson minutes "$CRON_MINUTES" '
    "| impl, round | \([range(1; $minutes + 1) | "minute \(.)"] | join(" | ")) |",
    "|---|\([range($minutes) | "---:"] | join("|"))|",
    (.runs | sort_by(.impl, .round)[] | select(.per_minute)
      | "| \(.impl), round \(.round) | \(.per_minute | map("\(.created)/\(.expected), p99 \(if .lateness_p99_s then "\(.lateness_p99_s) s" else "n/a" end)") | join(" | ")) |")' \
    "$results"
}

cronjob_report() {
  local r
  collect_results cronjob '["creates_done_s", "expected_runs", "created_runs", "missed_runs",
    "lateness_p50_s", "lateness_p99_s", "lateness_max_s", "stamp_lateness_p99_s", "jobs_completed",
    "peak_rss_mib", "cpu_s", "machine_busy_pct"]'
  {
    echo "## vc-controller-manager, CronJobs: ours vs Volcano v1.15 ($CRONJOBS CronJobs every minute, $CRON_MINUTES minutes, qps $QPS, burst $BURST)"
    echo
    echo "| impl | all created s | runs due | runs created | missed | lateness p50 s | p99 s | max s | p99 by creationTimestamp s | Jobs completed | peak RSS MiB | CPU s | result |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    table_rows creates_done_s expected_runs created_runs missed_runs lateness_p50_s lateness_p99_s \
      lateness_max_s stamp_lateness_p99_s jobs_completed peak_rss_mib cpu_s
    ratio_table "lateness p99:lateness_p99_s" "peak RSS:peak_rss_mib" "CPU s:cpu_s"
    echo
    echo "Runs per scheduled minute (created/due, lateness p99):"
    echo
    cronjob_minutes_table
    echo
    cluster_cpu_table
    echo
    echo "The CronJobs are created from second $((60 - CRON_LEAD_S)) of a minute on; the window is the next"
    echo "$CRON_MINUTES scheduled minutes and ${CRON_GRACE} s after the last. A run is due in a minute when its"
    echo "CronJob was created before it; one whose Job has not appeared by the end of the window is"
    echo "missed. Lateness: the moment vcbench's watch first delivered the run's Job minus the scheduled"
    echo "minute (read from the Job's name, <cronjob>-<Unix minutes>), in ms; the creationTimestamp column"
    echo "uses the Job's creationTimestamp, which has whole seconds. CPU s is the controller's"
    echo "user+system time from the launch of vcbench (second $((60 - CRON_LEAD_S))) to the end of the window;"
    echo "peak RSS its VmHWM (start-up included). Both include the Job controller's work for the runs'"
    echo "Jobs and pods."
    conditions_block
  } > "$report"
  cat "$report"

  if [[ " $IMPLS " == *" ours "* ]]; then
    r=$(metric ours missed_runs)
    above "$r" 0 && missed+=("runs missed by ours = $r (target 0)")
    r=$(metric ours lateness_p99_s)
    above "$r" "$TARGET_LATENESS_P99_S" && missed+=("lateness p99 of ours = $r s (target <= $TARGET_LATENESS_P99_S s)")
    if [[ " $IMPLS " == *" reference "* ]]; then
      r=$(ratio "$(metric ours lateness_p99_s)" "$(metric reference lateness_p99_s)")
      above "$r" "$TARGET_LATENESS_RATIO" &&
        missed+=("lateness p99 ours/reference = $r (target <= $TARGET_LATENESS_RATIO)")
      check_rss_and_cpu
    fi
  fi
  print_targets
  echo
  echo "results: $out (cronjob-results.md, cronjob-results.json, cronjob-<impl>-r<round>.json," \
       "cronjob-<impl>-r<round>-samples.tsv); controller logs: $LOGS/bench-controllers-*.log"
}
