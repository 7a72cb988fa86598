# The jobflow case of bench/controller/run.sh (sourced; the interface is in common.sh): five
# JobTemplates (one-pod Jobs that kwok ends after 1 s) and BENCH_FLOWS JobFlows created at once,
# each running the DAG a; b and c after a; d after b and c; e after d. vcbench jobflows measures
# the time until every flow is Succeed, and each flow's time from its create to Succeed.

JOBFLOW_STEPS=5

# Pods: every step's Job is kept (retain policy), so all of them exist at the end.
jobflow_pods() { echo $((FLOWS * JOBFLOW_STEPS)); }
jobflow_conditions() {
  echo "jobflow: $FLOWS JobFlows x $JOBFLOW_STEPS steps = $(jobflow_pods) Jobs; controllers: --kube-api-qps=$QPS --kube-api-burst=$BURST --worker-threads=$WORKERS -v=$VERBOSITY${CONTROLLER_FLAGS[*]+ ${CONTROLLER_FLAGS[*]}}"
}
jobflow_describe() { echo "$FLOWS JobFlows x $JOBFLOW_STEPS steps"; }
jobflow_vcbench() {
  vcbench jobflows --namespace="$1" --flows="$FLOWS" --queue="$QUEUE" --placement="$PLACEMENT" \
    --concurrency="$CONCURRENCY" --timeout="${TIMEOUT}s" --controller-pid="$2"
}

jobflow_report() {
  collect_results jobflow '["creates_done_s", "first_succeed_s", "all_succeed_s", "flow_succeed_p50_s",
    "flow_succeed_p99_s", "flows_succeeded", "peak_rss_mib", "cpu_s", "machine_busy_pct"]'
  {
    echo "## vc-controller-manager, JobFlows: ours vs Volcano v1.15 ($FLOWS flows x $JOBFLOW_STEPS steps, qps $QPS, burst $BURST)"
    echo
    echo "| impl | all created s | first flow Succeed s | all flows Succeed s | flow create→Succeed p50 s | p99 s | flows Succeed | peak RSS MiB | CPU s | result |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    table_rows creates_done_s first_succeed_s all_succeed_s flow_succeed_p50_s flow_succeed_p99_s \
      flows_succeeded peak_rss_mib cpu_s
    ratio_table "all Succeed:all_succeed_s" "flow p99:flow_succeed_p99_s" "peak RSS:peak_rss_mib" "CPU s:cpu_s"
    echo
    cluster_cpu_table
    echo
    echo "Times are seconds from the first JobFlow create (the JobTemplates exist by then), seen"
    echo "through a watch on the JobFlows; a flow's create→Succeed runs from its create request to the"
    echo "first event showing it Succeed. Each step's pod runs 1 s on kwok, so a flow's critical path"
    echo "(a, b or c, d, e) holds 4 s of pod time plus 4 rounds of Job creation, scheduling and"
    echo "completion. CPU s is the controller's user+system time from the start of the creation to the"
    echo "moment every flow was Succeed; peak RSS its VmHWM (start-up included). Both include the Job"
    echo "controller's work for the steps' Jobs and pods."
    conditions_block
  } > "$report"
  cat "$report"

  if [[ " $IMPLS " == *" ours "* && " $IMPLS " == *" reference "* ]]; then check_rss_and_cpu; fi
  print_targets
  echo
  echo "results: $out (jobflow-results.md, jobflow-results.json, jobflow-<impl>-r<round>.json," \
       "jobflow-<impl>-r<round>-samples.tsv); controller logs: $LOGS/bench-controllers-*.log"
}
