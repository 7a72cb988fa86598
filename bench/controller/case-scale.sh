# The scale cases of bench/controller/run.sh (`make bench-scale`; sourced, the interface is in
# common.sh), modelled on Volcano's tuning guide: BENCH_SCALE_JOBS one-pod Jobs and
# BENCH_SCALE_BIG_JOBS ten-pod Jobs, created by BENCH_CONCURRENCY clients at once with the
# admission webhook in the path (timeoutSeconds 10, e2e/cluster/webhooks.sh). Each implementation
# runs with its own webhook AND its own controller-manager: the cluster's webhook is swapped for
# the measurement and restored at the end.
#
#   scale-tenth  a tenth of that load (1,000 + 100 jobs by default), for the growth
#   scale        the full load; then, with every job and pod still there, the controller-manager
#                is restarted and one more Job created at once (vcbench probe): its cold start is
#                the time from the process start until that Job's PodGroup appears, which needs
#                its caches synced and its first write.
#
# The growth table compares per-job CPU at both sizes (the target: within 1.2x).

SCALE_BIG_TASKS=10
# Targets (issue: 10,000 jobs): zero failed creates; time to all Running <= 0.8 of Volcano's;
# cold start <= 1/2; per-job CPU at full size within 1.2x of the tenth (and common.sh's RSS and CPU).
TARGET_SCALE_RUNNING_RATIO=0.8
TARGET_COLD_START_RATIO=0.5
TARGET_GROWTH=1.2

# scale_divisor CASE: 10 for scale-tenth, 1 for scale.
scale_divisor() { [ "$1" = scale-tenth ] && echo 10 || echo 1; }
scale_jobs() { echo $((SCALE_JOBS / $(scale_divisor "$1"))); }
scale_big_jobs() { echo $((SCALE_BIG_JOBS / $(scale_divisor "$1"))); }
scale_pods_of() { echo $(($(scale_jobs "$1") + $(scale_big_jobs "$1") * SCALE_BIG_TASKS)); }

# scale_use_webhook IMPL: a fresh webhook of IMPL in the cluster's webhook slot (a new process for
# every measurement, so its peak RSS is that measurement's).
scale_use_webhook() {
  [ -n "$previous_webhook" ] || previous_webhook=$(webhook_impl)
  stop webhook
  echo none > "$STATE_DIR/impl-webhook"
  IMPL_WEBHOOK=$1 IMPL_CONTROLLERS=none "$cluster_dir/up.sh" >>"$out/cluster-up.log" 2>&1 ||
    { tail -n 20 "$out/cluster-up.log" >&2; die "could not start the $1 webhook"; }
  alive webhook || die "the $1 webhook is not running after up.sh"
}

# scale_run_jobs CASE NS PID: the jobs of CASE; adds the webhook's peak RSS to the result.
scale_run_jobs() {
  local case_=$1 rc=0 result
  result=$(vcbench jobs --namespace="$2" --jobs="$(scale_jobs "$case_")" --tasks=1 \
    --big-jobs="$(scale_big_jobs "$case_")" --big-tasks="$SCALE_BIG_TASKS" --queue="$QUEUE" \
    --placement="$PLACEMENT" --concurrency="$CONCURRENCY" --timeout="${TIMEOUT}s" \
    --controller-pid="$3") || rc=$?
  local wh_kib=0
  alive webhook && wh_kib=$(status_kib "$(cat "$PIDS/webhook.pid")" VmHWM)
  jq -c --argjson kib "$wh_kib" '. + {webhook_peak_rss_mib: (if $kib > 0 then ($kib / 1024 * 10 | round / 10) else null end)}' \
    <<<"${result:-"{\"error\": \"vcbench left no result\"}"}"
  return "$rc"
}

# scale_cold_start NS RUN: restart the controller-manager with every object of the measurement
# still there and time its first act on a new Job; the figures join RUN's result.
scale_cold_start() {
  local ns=$1 run=$2 t0 pid probe cold
  log "$impl: cold start with $(scale_jobs scale) + $(scale_big_jobs scale) jobs and their pods present"
  stop "$controller"
  : > "$LOGS/$controller-cold.log"
  t0=$EPOCHREALTIME
  start_controller "$impl"
  pid=$(cat "$PIDS/$controller.pid")
  probe=$(vcbench probe --namespace="$ns" --job="probe-$impl" --queue="$QUEUE" --placement="$PLACEMENT" \
    --timeout=300s 2> >(sed "s/^/  [$impl cold start] /" >&2)) ||
    log "error: the $impl cold start probe failed: $(jq -r '.error // "no result"' <<<"${probe:-{\}}" 2>/dev/null)"
  [ -n "$probe" ] || probe='{"error": "vcbench probe left no result"}'
  cold=$(jq -c --argjson t0 "$t0" --argjson ticks "$(cpu_ticks "$pid" 2>/dev/null || echo 0)" --argjson hz "$CLK_TCK" \
    --argjson rss "$(status_kib "$pid" VmRSS 2>/dev/null || echo 0)" \
    '{cold_start_s: (if .podgroup_unix_ms then ((.podgroup_unix_ms / 1000 - $t0) * 100 | round / 100) else null end),
      cold_start_cpu_s: ($ticks / $hz), cold_start_rss_mib: ($rss / 1024 * 10 | round / 10),
      cold_start_error: .error}' <<<"$probe") || cold='{"cold_start_error": "no probe result"}'
  jq -c --argjson cold "$cold" '. + $cold' "$out/$run.json" > "$out/$run.json.tmp" && mv "$out/$run.json.tmp" "$out/$run.json"
}

scale_pods() { scale_pods_of scale; }
scale_conditions() {
  echo "scale: $(scale_jobs scale) jobs x 1 pod + $(scale_big_jobs scale) jobs x $SCALE_BIG_TASKS pods = $(scale_pods) pods, and a tenth of it; $CONCURRENCY concurrent creates through each implementation's own webhook; controllers: --kube-api-qps=$QPS --kube-api-burst=$BURST --worker-threads=$WORKERS -v=$VERBOSITY${CONTROLLER_FLAGS[*]+ ${CONTROLLER_FLAGS[*]}}"
}
scale-tenth_pods() { scale_pods_of scale-tenth; }
scale-tenth_conditions() { :; }

for c in scale-tenth scale; do
  eval "
${c}_describe() { echo \"\$(scale_jobs $c) jobs x 1 pod + \$(scale_big_jobs $c) jobs x $SCALE_BIG_TASKS pods, webhook \$impl\"; }
${c}_before_launch() { scale_use_webhook \"\$impl\"; }
${c}_vcbench() { scale_run_jobs $c \"\$1\" \"\$2\"; }
${c}_report() { scale_write_report $c; }
"
done
scale_after_measure() { scale_cold_start "$@"; }

SCALE_FIGURES='["creates_done_s", "create_failures", "all_pods_s", "all_running_s", "pods_per_s",
  "job_running_p99_s", "peak_rss_mib", "cpu_s", "webhook_peak_rss_mib", "cold_start_s",
  "cold_start_cpu_s", "cold_start_rss_mib", "machine_busy_pct"]'

scale_write_report() {
  local case_=$1 r
  collect_results "$case_" "$SCALE_FIGURES"
  # The webhook's and the API server's CPU from the per-process figures, as columns of their own.
  jq -c 'def split_cpu: . + {webhook_cpu_s: (.cluster_cpu_s.webhook // null),
                             apiserver_cpu_s: (.cluster_cpu_s["kube-apiserver"] // null)};
         .runs |= map(split_cpu) | .impls |= with_entries(.value |= (if .error then . else split_cpu end))' \
    "$results" > "$results.tmp" && mv "$results.tmp" "$results"
  {
    echo "## Scale: ours vs Volcano v1.15, $(scale_jobs "$case_") jobs x 1 pod + $(scale_big_jobs "$case_") jobs x $SCALE_BIG_TASKS pods, $CONCURRENCY clients, webhook in the path"
    echo
    echo "| impl | all created s | failed creates | time to all pods s | time to all Running s | job create→Running p99 s | controller CPU s | controller peak RSS MiB | webhook CPU s | webhook peak RSS MiB | kube-apiserver CPU s | cold start s | result |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    table_rows creates_done_s create_failures all_pods_s all_running_s job_running_p99_s cpu_s peak_rss_mib \
      webhook_cpu_s webhook_peak_rss_mib apiserver_cpu_s cold_start_s
    ratio_table "time to all Running:all_running_s" "controller CPU:cpu_s" "controller RSS:peak_rss_mib" \
      "webhook CPU:webhook_cpu_s" "kube-apiserver CPU:apiserver_cpu_s" "cold start:cold_start_s"
    echo
    cluster_cpu_table
    if [ "$case_" = scale ]; then
      echo
      scale_growth_table
    fi
    echo
    echo "Times are seconds from the first create, seen through watches. CPU s are user+system from the"
    echo "start of the creates until every job was Running; peak RSS is VmHWM (start-up included). Each"
    echo "implementation ran with its own webhook (a fresh process per measurement). Cold start: the"
    echo "controller-manager restarted with every job and pod of the full load present, from the process"
    echo "start until the PodGroup of a Job created at that moment appeared."
    conditions_block
  } > "$report"
  cat "$report"

  if [[ " $IMPLS " == *" ours "* ]]; then
    r=$(metric ours create_failures)
    [ "$r" = 0 ] || missed+=("failed creates (ours, $case_) = $r (target 0)")
    # The ratios' targets are for the full load; the tenth is there for the growth.
    if both_impls && [ "$case_" = scale ]; then
      r=$(ratio "$(metric ours all_running_s)" "$(metric reference all_running_s)")
      above "$r" "$TARGET_SCALE_RUNNING_RATIO" && missed+=("time to all Running ours/reference ($case_) = $r (target <= $TARGET_SCALE_RUNNING_RATIO)")
      check_rss_and_cpu
      r=$(ratio "$(metric ours cold_start_s)" "$(metric reference cold_start_s)")
      above "$r" "$TARGET_COLD_START_RATIO" && missed+=("cold start ours/reference = $r (target <= $TARGET_COLD_START_RATIO)")
    fi
    if [ "$case_" = scale ]; then
      r=$(scale_growth ours)
      above "$r" "$TARGET_GROWTH" && missed+=("per-job CPU growth 1/10 -> full (ours) = $r (target <= $TARGET_GROWTH)")
    fi
  fi
  print_targets
  echo
  echo "results: $out (scale-results.md, scale-tenth-results.md, *-r<round>.json, *-samples.tsv); controller logs: $LOGS/bench-controllers-*.log"
}

# scale_per_job FILE IMPL FIELD: FIELD of IMPL in FILE per job (ms), or n/a.
scale_per_job() {
  jq -r --arg i "$2" --arg f "$3" '(.impls[$i] // {}) as $m
    | ($m[$f] // null) as $v | ([.runs[] | select(.impl == $i) | .jobs] | first) as $n
    | if $v == null or $n == null or $n == 0 then "n/a" else ($v * 1000 / $n * 100 | round / 100) end' "$1"
}
# scale_growth IMPL: controller CPU per job at full size over that at a tenth.
scale_growth() {
  ratio "$(scale_per_job "$out/scale-results.json" "$1" cpu_s)" "$(scale_per_job "$out/scale-tenth-results.json" "$1" cpu_s)"
}

# scale_growth_rows: the growth figures as TSV rows (impl, jobs, figures), both sizes.
scale_growth_rows() {
  local impl c f
  for impl in $IMPLS; do
    for c in scale-tenth scale; do
      f=$out/$c-results.json
      [ -f "$f" ] || continue
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$impl" \
        "$(jq -r --arg i "$impl" '[.runs[] | select(.impl == $i) | .jobs] | first // "n/a"' "$f")" \
        "$(jq -r --arg i "$impl" '.impls[$i].all_running_s // "n/a"' "$f")" \
        "$(scale_per_job "$f" "$impl" cpu_s)" "$(scale_per_job "$f" "$impl" webhook_cpu_s)" \
        "$(scale_per_job "$f" "$impl" apiserver_cpu_s)" \
        "$(jq -r --arg i "$impl" '.impls[$i].peak_rss_mib // "n/a"' "$f")" \
        "$(jq -r --arg i "$impl" '.impls[$i].webhook_peak_rss_mib // "n/a"' "$f")"
    done
  done
}

# scale_growth_table: the growth as a table, and as scale-growth.tsv and scale-growth.png next to
# the results.
scale_growth_table() {
  local impl tsv=$out/scale-growth.tsv
  {
    printf 'impl\tjobs\ttime to all Running s\tcontroller CPU ms/job\twebhook CPU ms/job\tkube-apiserver CPU ms/job\tcontroller peak RSS MiB\twebhook peak RSS MiB\n'
    scale_growth_rows
  } > "$tsv"
  echo "Growth from a tenth to the full load (per job: CPU ms of the controller, the webhook and the API server):"
  echo
  echo "| impl | jobs | time to all Running s | controller CPU ms/job | webhook CPU ms/job | kube-apiserver CPU ms/job | controller peak RSS MiB | webhook peak RSS MiB |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$tsv" | sed 's/\t/ | /g; s/^/| /; s/$/ |/'
  for impl in $IMPLS; do
    echo "| $impl: growth of controller CPU per job | | | $(scale_growth "$impl") | | | | |"
  done
  if "$VCBENCH" plot --in="$tsv" --out="$out/scale-growth.png" \
       --title="ours vs Volcano v1.15: growth from $(scale_jobs scale-tenth)+$(scale_big_jobs scale-tenth) to $(scale_jobs scale)+$(scale_big_jobs scale) jobs" 2>&1; then
    echo
    echo "Plot: $out/scale-growth.png"
  fi
}
