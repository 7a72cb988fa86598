#!/usr/bin/env bash
# `make bench-webhook`: our vc-webhook-manager against Volcano's, same AdmissionReviews, same core.
#
# Both servers run with the cluster webhook's flags (e2e/cluster/up.sh) on their own ports, each
# pinned to one core (BENCH_SERVER_CORE, default 1) so they get equal CPU (Go sizes GOMAXPROCS
# from the affinity). vc-webhook-load runs on the other core (BENCH_LOAD_CORE, default 0) and
# drives one server at a time: for each concurrency, first Volcano's, then ours, so a change in
# background load hits both alike. It reports reviews/s, latency percentiles, and the server's
# CPU seconds and peak RSS over the measured window.
#
# Uses the shared local cluster (its API server, the queue "default", the webhook configurations
# that Volcano's webhook-manager insists on finding at start-up); starts it if it is not up and
# then stops it at the end. Never touches the cluster's own webhook.
#
# Environment:
#   BUILD_DIR          build tree (default: the repo's build/)
#   WEBHOOK_BIN        ours (default $BUILD_DIR/webhook/vc-webhook-manager)
#   REFERENCE_BIN      Volcano's (default: the cluster's Volcano build)
#   LOAD_BIN           the load generator (default $BUILD_DIR/bench/vc-webhook-load)
#   BENCH_DURATION     measured seconds per run (default 10); BENCH_WARMUP (default 2)
#   BENCH_CONCURRENCY  default "1 8 64"; BENCH_IMPLS default "reference ours"
#   BENCH_ROUNDS       measurements of each implementation at each concurrency (default 1).
#                      Even rounds run the implementations in reverse order; from 2 rounds on the
#                      table adds each figure's median (errors: the sum), which the ratios and
#                      targets then use. Each round starts fresh servers. Run to run, a cell
#                      varies by about 15 % on this VM.
#   BENCH_VERBOSITY    the servers' -v (default 3, as in the cluster)
#   BENCH_OURS_FLAGS   extra flags for ours only, e.g. "--webhook-threads=1" (default none)
#   BENCH_LOAD_BUSY_POLL_US  microseconds the load generator keeps polling for an answer before it
#                      sleeps (default 10000; 0: sleep at once). With one request in flight a
#                      sleeping client adds the wake-up of its own core to every round trip, the
#                      same for both servers; polling (on the load generator's own core, never
#                      the server's) takes that constant out of the measurement. The default
#                      window is ten times Volcano's p99 at concurrency 1 (about 1 ms), so its
#                      slower answers are not charged a wake-up either. 0 gives the figures of
#                      the sleeping client, for comparison.
#   BENCH_NICE         nice value for both servers and the load generator (default 0). On a
#                      machine shared with builds, -10 keeps other processes from taking much
#                      of the pinned cores (see "others on server core %" in the table).
#
# The review's own CPU, without TLS, HTTP and the socket: build/webhook/vc_webhook_app_bench (part
# of `make bench`). On this shared VM run-to-run CPU varies by up to 2x; for a change to the codec
# or an admit rule, compare instruction counts instead, which do not depend on load:
#   valgrind --tool=callgrind --toggle-collect='*Router::serve*' \
#     build/webhook/vc_webhook_app_bench --benchmark_filter=iterations   # 300 reviews of each kind
#
# Output: a markdown table on stdout, saved with the raw JSON lines under
# .state/bench/webhook-<timestamp>/. Exit status 1 if any review failed (wrong answer, transport
# error) or a server died; missed performance targets are reported as "TARGET MISSED" lines only.
set -euo pipefail
source "$(dirname "$0")/../../e2e/cluster/lib.sh"
source "$(dirname "$0")/../rounds.sh"

DURATION=${BENCH_DURATION:-10}
WARMUP=${BENCH_WARMUP:-2}
CONCURRENCIES=${BENCH_CONCURRENCY:-"1 8 64"}
IMPLS=${BENCH_IMPLS:-"reference ours"}
ROUNDS=${BENCH_ROUNDS:-1}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive integer (got '$ROUNDS')"
VERBOSITY=${BENCH_VERBOSITY:-3}
read -ra OURS_FLAGS <<< "${BENCH_OURS_FLAGS:-}"
NICE=${BENCH_NICE:-0}
LOAD_BUSY_POLL_US=${BENCH_LOAD_BUSY_POLL_US:-10000}
[[ $LOAD_BUSY_POLL_US =~ ^[0-9]+$ ]] ||
  die "BENCH_LOAD_BUSY_POLL_US must be a non-negative integer (got '$LOAD_BUSY_POLL_US')"
SERVER_CORE=${BENCH_SERVER_CORE:-1}
LOAD_CORE=${BENCH_LOAD_CORE:-0}
WEBHOOK_BIN=${WEBHOOK_BIN:-$BUILD_DIR/webhook/vc-webhook-manager}
REFERENCE_BIN=${REFERENCE_BIN:-$VOLCANO_BIN/vc-webhook-manager}
LOAD_BIN=${LOAD_BIN:-$BUILD_DIR/bench/vc-webhook-load}
REVIEWS=$repo/bench/webhook/reviews
# The same reviews for both, rotated per connection: a job as the API server sends it to the
# mutating webhook, the mutated job as it reaches the validating one, and a queue creation.
BODIES=(
  "$REVIEWS/job-create-mutate.json:/jobs/mutate:allowed"
  "$REVIEWS/job-create-validate.json:/jobs/validate:allowed"
  "$REVIEWS/queue-create-validate.json:/queues/validate:allowed"
)
# Targets: ours at least 5x Volcano's reviews/s and at most 1/6 of its CPU per review (both at
# every concurrency) on equal cores, p99 under 2 ms at
# concurrency 8, no errors.
TARGET_RATIO=5
TARGET_P99_US=2000
TARGET_P99_CONCURRENCY=8

# prio CMD...: runs CMD at nice $NICE. The kernel's autogroups put each session in its own
# scheduling group and nice only orders processes inside a group, so the group's nice
# (/proc/PID/autogroup) is set too. Use it in a new session only (setsid), or it would reprioritise
# the caller's whole session. The wrapper execs, keeping the PID.
prio=(bash -c '{ echo "$0" > /proc/$$/autogroup; } 2>/dev/null; exec nice -n "$0" "$@"' "$NICE")

port_of() { case $1 in ours) echo 28643 ;; reference) echo 28644 ;; esac; }
healthz_of() { case $1 in ours) echo 21271 ;; reference) echo 21272 ;; esac; }
bin_of() { case $1 in ours) echo "$WEBHOOK_BIN" ;; reference) echo "$REFERENCE_BIN" ;; esac; }
extra_flags_of() { [ "$1" = ours ] && [ ${#OURS_FLAGS[@]} -gt 0 ] && printf '%s\n' "${OURS_FLAGS[@]}"; true; }

for impl in $IMPLS; do
  case $impl in ours|reference) ;; *) die "BENCH_IMPLS: unknown implementation '$impl'" ;; esac
  [ -x "$(bin_of "$impl")" ] || die "$impl webhook binary $(bin_of "$impl") is missing (run make build)"
done
[ -x "$LOAD_BIN" ] || die "load generator $LOAD_BIN is missing (run make build)"
command -v jq >/dev/null || die "jq is required (make deps)"
command -v taskset >/dev/null || die "taskset is required (make deps)"
cores=$(nproc)
[ "$SERVER_CORE" -lt "$cores" ] && [ "$LOAD_CORE" -lt "$cores" ] ||
  die "cores $SERVER_CORE and $LOAD_CORE must exist (this machine has $cores)"
if [ "$SERVER_CORE" = "$LOAD_CORE" ] && [ "$LOAD_BUSY_POLL_US" -gt 0 ]; then
  die "the load generator polls (BENCH_LOAD_BUSY_POLL_US=$LOAD_BUSY_POLL_US) on the server's core" \
      "$SERVER_CORE and would take its CPU: use another BENCH_LOAD_CORE or BENCH_LOAD_BUSY_POLL_US=0"
fi

# ---------------------------------------------------------------- cleanup
started_cluster=false
servers=()
load_pid=
cleanup() {
  local rc=$? impl
  trap - EXIT INT TERM
  if [ -n "$load_pid" ]; then kill -TERM "$load_pid" 2>/dev/null || true; fi
  for impl in "${servers[@]}"; do stop "bench-$impl"; done
  if $started_cluster; then
    log "stopping the cluster this script started"
    "$cluster_dir/down.sh" || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- cluster
if ! alive kube-apiserver || ! kubectl_ get --raw /readyz >/dev/null 2>&1; then
  log "the local cluster is not up: starting it"
  started_cluster=true
  "$cluster_dir/up.sh"
fi
state=$(kubectl_ get queue default -o jsonpath='{.status.state}' 2>/dev/null) ||
  die "queue 'default' not found: the job reviews submit to it"
[ "$state" = Open ] || die "queue 'default' is '$state', not Open: job reviews would be denied"
IFS=, read -ra paths <<< "$WEBHOOK_PATHS"
for p in "${paths[@]}"; do
  kind=validatingwebhookconfiguration
  [[ $p == */mutate ]] && kind=mutatingwebhookconfiguration
  kubectl_ get "$kind" "volcano-admission-service${p//\//-}" >/dev/null 2>&1 ||
    die "$kind volcano-admission-service${p//\//-} is missing (cluster webhook IMPL none?);" \
        "Volcano's webhook-manager waits for it before it listens"
done

# ---------------------------------------------------------------- servers
start_server() {
  local impl=$1 port healthz name=bench-$1 extra
  port=$(port_of "$impl")
  mapfile -t extra < <(extra_flags_of "$impl")
  healthz=$(healthz_of "$impl")
  stop "$name"  # a leftover of an interrupted run
  : > "$LOGS/$name.log"
  start "$name" "${prio[@]}" taskset -c "$SERVER_CORE" "$(bin_of "$impl")" \
    --kubeconfig="$STATE_DIR/volcano-admission.kubeconfig" \
    --listen-address=127.0.0.1 --port="$port" \
    --tls-cert-file="$PKI/webhook.crt" --tls-private-key-file="$PKI/webhook.key" \
    --ca-cert-file="$PKI/ca.crt" --webhook-url="https://127.0.0.1:$port" --scheduler-name=volcano \
    --enabled-admission="$WEBHOOK_PATHS" \
    --enable-healthz=true --healthz-address="127.0.0.1:$healthz" --logtostderr -v="$VERBOSITY" \
    ${extra[@]+"${extra[@]}"}
  servers+=("$impl")
  if ! wait_until "$name to serve TLS on $port" 120 \
      curl -sS -o /dev/null --max-time 2 --cacert "$PKI/ca.crt" "https://127.0.0.1:$port/healthz"; then
    tail -n 30 "$LOGS/$name.log" >&2
    die "$name did not come up (log: $LOGS/$name.log)"
  fi
}

server_pid() { cat "$PIDS/bench-$1.pid"; }

for impl in $IMPLS; do start_server "$impl"; done

out=$STATE_DIR/bench/webhook-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
{
  echo "date: $(date -Is)"
  echo "commit: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $cores"
  echo "kernel: $(uname -r)"
  echo "duration: ${DURATION}s, warm-up: ${WARMUP}s, concurrency: $CONCURRENCIES, rounds: $ROUNDS"
  echo "server core: $SERVER_CORE, load generator core: $LOAD_CORE, server -v=$VERBOSITY, nice $NICE"
  for impl in $IMPLS; do
    echo "$impl: $(bin_of "$impl") $(extra_flags_of "$impl" | tr '\n' ' ')(round 1 pid $(server_pid "$impl"))"
  done
  echo "load: $LOAD_BIN (polls ${LOAD_BUSY_POLL_US}us before it sleeps)"
  echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/conditions.txt"

# ---------------------------------------------------------------- runs
failed=false
body_args=()
for b in "${BODIES[@]}"; do body_args+=(--body "$b"); done
for round in $(seq "$ROUNDS"); do
  if [ "$round" -gt 1 ]; then
    # Fresh servers for each round: a process keeps memory from its last round's 64 connections,
    # and the peak RSS of a round at concurrency 1 would show that instead of its own.
    for impl in "${servers[@]}"; do stop "bench-$impl"; done
    servers=()
    for impl in $IMPLS; do start_server "$impl"; done
  fi
  for c in $CONCURRENCIES; do
    for impl in $(round_order "$round" $IMPLS); do
      pid=$(server_pid "$impl")
      run=$impl-c$c-r$round
      log "$impl: concurrency $c, ${DURATION}s (+${WARMUP}s warm-up), round $round/$ROUNDS"
      # In the background so that Ctrl-C (a trapped signal) interrupts the wait at once.
      setsid -w "${prio[@]}" taskset -c "$LOAD_CORE" "$LOAD_BIN" --url "https://127.0.0.1:$(port_of "$impl")" \
        --cacert "$PKI/ca.crt" "${body_args[@]}" --concurrency "$c" --threads 1 \
        --busy-poll-us "$LOAD_BUSY_POLL_US" \
        --duration "$DURATION" --warmup "$WARMUP" --server-pid "$pid" --server-core "$SERVER_CORE" \
        > "$out/$run.json" 2> "$out/$run.err" < /dev/null &
      load_pid=$!
      rc=0
      wait "$load_pid" || rc=$?
      load_pid=
      if [ -s "$out/$run.err" ]; then sed "s/^/  [$impl c=$c r=$round] /" "$out/$run.err" >&2; fi
      if [ "$rc" -ne 0 ]; then
        failed=true
        [ -s "$out/$run.json" ] || die "the load generator failed (exit $rc) against $impl"
      fi
      kill -0 "$pid" 2>/dev/null || { failed=true; die "$impl server (pid $pid) died; see $LOGS/bench-$impl.log"; }
    done
  done
done
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
for impl in "${servers[@]}"; do stop "bench-$impl"; done
servers=()

# ---------------------------------------------------------------- report
# results.json: {runs: [{impl, concurrency, round, figures}], medians: [{impl, concurrency,
# figures}]}, where figures are what the table shows (null where not measured) and a median's
# errors are the sum over its rounds.
for f in "$out"/*-c*-r*.json; do
  b=$(basename "$f" .json)
  jq -c --arg impl "${b%%-c*}" --argjson round "${b##*-r}" '
    def r1: . * 10 | round / 10;
    (.server.cpu_s // null) as $cpu
    | {impl: $impl, concurrency, round: $round, rps: .reviews_per_s, p50_us, p99_us,
       errors: (.errors + .warmup_errors), cpu_s: $cpu,
       cpu_us_per_review: (if $cpu != null and .requests > 0 then ($cpu * 1e6 / .requests | r1) else null end),
       rss_mib: (if .server.peak_rss_kib then (.server.peak_rss_kib / 1024 | r1) else null end),
       client_pct: (.client_cpu_s / .duration_s * 100 | round),
       others_pct: (if .server.core_busy_s != null and $cpu != null and .server.core_elapsed_s > 0
                    then ([(.server.core_busy_s - $cpu) / .server.core_elapsed_s * 100, 0] | max | round)
                    else null end),
       wait_pct: (if .server.run_queue_wait_s != null
                  then (.server.run_queue_wait_s / .duration_s * 100 | round) else null end)}' "$f"
done | jq -s "$JQ_MEDIAN"'
  {runs: ., medians: (group_by([.impl, .concurrency]) | map(. as $rs
    | reduce ("rps", "p50_us", "p99_us", "cpu_s", "cpu_us_per_review", "rss_mib", "client_pct",
              "others_pct", "wait_pct") as $k
        ({impl: $rs[0].impl, concurrency: $rs[0].concurrency, errors: (map(.errors) | add)};
         .[$k] = ([$rs[][$k] | numbers] | median
                  | if . == null then . elif $k == "cpu_s" then (. * 100 | round / 100)
                    else (. * 10 | round / 10) end))))}' \
  > "$out/results.json"

# row IMPL C [ROUND]: one TSV row (impl c rps p50 p99 errors cpu_s cpu_us_per_review rss_mib
# client% others% wait%) of a round, or without ROUND of the medians ("n/a" where not measured).
row() {
  local sel=".medians[]"
  [ $# -ge 3 ] && sel=".runs[] | select(.round == $3)"
  jq -r --arg impl "$1" --argjson c "$2" "$sel"' | select(.impl == $impl and .concurrency == $c)
    | [.impl, .concurrency, .rps, .p50_us, .p99_us, .errors, .cpu_s, .cpu_us_per_review, .rss_mib,
       .client_pct, .others_pct, .wait_pct] | map(. // "n/a") | @tsv' "$out/results.json"
}

report=$out/table.md
{
  echo "## vc-webhook-manager: ours vs Volcano v1.15 (one core each, keep-alive TLS on loopback)"
  echo
  echo "| impl | concurrency | reviews/s | p50 us | p99 us | errors | CPU s | CPU us/review | peak RSS MiB | load gen CPU % | others on server core % | server waiting for CPU % |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  cells() { awk -F'\t' -v label="$1" '{ printf "| %s |", label; for (i = 2; i <= NF; i++) printf " %s |", $i; print "" }'; }
  for c in $CONCURRENCIES; do
    for impl in $IMPLS; do
      if [ "$ROUNDS" -eq 1 ]; then
        row "$impl" "$c" | cells "$impl"
      else
        for round in $(seq "$ROUNDS"); do row "$impl" "$c" "$round" | cells "$impl, round $round"; done
        row "$impl" "$c" | cells "**$impl, median**"
      fi
    done
  done
  if [[ " $IMPLS " == *" ours "* && " $IMPLS " == *" reference "* ]]; then
    echo
    if [ "$ROUNDS" -gt 1 ]; then echo "Ratios of the medians over $ROUNDS rounds:"; echo; fi
    echo "| concurrency | reviews/s ours/theirs | p99 ours/theirs | peak RSS ours/theirs | CPU per review ours/theirs |"
    echo "|---:|---:|---:|---:|---:|"
    for c in $CONCURRENCIES; do
      IFS=$'\t' read -r _ _ o_rps _ o_p99 _ _ o_cpr o_rss _ _ < <(row ours "$c")
      IFS=$'\t' read -r _ _ t_rps _ t_p99 _ _ t_cpr t_rss _ _ < <(row reference "$c")
      echo "| $c | $(ratio "$o_rps" "$t_rps") | $(ratio "$o_p99" "$t_p99") | $(ratio "$o_rss" "$t_rss") | $(ratio "$o_cpr" "$t_cpr") |"
    done
  fi
  echo
  echo "Reviews rotate over $(for b in "${BODIES[@]}"; do b=${b#"$REVIEWS/"}; printf '%s ' "${b%:*}"; done)."
  echo "CPU and peak RSS are the server's over the ${DURATION}s window. 'others on server core' is"
  echo "the share of that core other processes used, and 'server waiting for CPU' how long the"
  echo "server's threads were runnable but not running (summed over threads; other processes or its"
  echo "own threads had the core): both are noise in reviews/s and p99, not in CPU us/review."
  if [ "$LOAD_BUSY_POLL_US" -gt 0 ]; then
    echo "The load generator polls for answers (BENCH_LOAD_BUSY_POLL_US=$LOAD_BUSY_POLL_US), so its CPU"
    echo "is near 100 % whichever side was the limit; run with BENCH_LOAD_BUSY_POLL_US=0 to see that."
  else
    echo "'load gen CPU' near 100 % means the client, not the server, was the limit."
  fi
  echo
  echo '```'
  cat "$out/conditions.txt"
  echo '```'
} > "$report"
cat "$report"

# ---------------------------------------------------------------- targets
missed=()
for c in $CONCURRENCIES; do
  for impl in $IMPLS; do
    IFS=$'\t' read -r _ _ _ _ p99 errors _ < <(row "$impl" "$c")
    [ "$errors" = 0 ] || missed+=("$impl had $errors errors at concurrency $c")
    if [ "$impl" = ours ] && [ "$c" = "$TARGET_P99_CONCURRENCY" ] &&
       awk -v p="$p99" -v t="$TARGET_P99_US" 'BEGIN { exit !(p >= t) }'; then
      missed+=("ours p99 at concurrency $c is ${p99} us (target < $TARGET_P99_US us)")
    fi
  done
  if [[ " $IMPLS " == *" ours "* && " $IMPLS " == *" reference "* ]]; then
    IFS=$'\t' read -r _ _ o_rps _ _ _ _ o_cpu _ < <(row ours "$c")
    IFS=$'\t' read -r _ _ t_rps _ _ _ _ t_cpu _ < <(row reference "$c")
    r=$(ratio "$o_rps" "$t_rps")
    if [ "$r" = n/a ] || awk -v r="$r" -v t="$TARGET_RATIO" 'BEGIN { exit !(r < t) }'; then
      missed+=("reviews/s at concurrency $c: ours $o_rps vs Volcano $t_rps = ${r}x (target >= ${TARGET_RATIO}x)")
    fi
    # Four decimals: the target sits between 0.16 and 0.17.
    r=$(ratio "$o_cpu" "$t_cpu" 4)
    if [ "$r" = n/a ] || awk -v r="$r" 'BEGIN { exit !(r * 6 > 1) }'; then
      missed+=("CPU per review at concurrency $c: ours $o_cpu us vs Volcano $t_cpu us = $r (target <= 1/6)")
    fi
  fi
done
{
  echo
  if [ ${#missed[@]} -eq 0 ]; then
    echo "All targets met."
  else
    for m in "${missed[@]}"; do echo "TARGET MISSED: $m"; done
  fi
} | tee -a "$report"
echo
echo "results: $out (table.md, results.json, <impl>-c<N>-r<round>.json, conditions.txt); server logs: $LOGS/bench-*.log"
$failed && exit 1
exit 0
