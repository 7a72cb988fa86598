# Profiles of a measurement (sourced by run.sh after common.sh), when BENCH_PERF=1: perf records
# the controller-manager and the cluster's webhook from the launch of vcbench to its end, with
# DWARF call graphs (our binaries and Volcano's keep no frame pointers), and writes next to the
# results, per process:
#   <run>-perf-<proc>.data      the recording, for `perf report -i`
#   <run>-perf-<proc>-self.txt  functions by their own share of the samples (where the CPU went)
#   <run>-perf-<proc>-dso.txt   the same by library (the kernel, libcrypto, libc, the binary)
#   <run>-perf-<proc>-ours.txt  our own functions (vc::) with what they call folded in (which
#                               step of our code costs what; empty for Volcano's binaries)
# perf's sampling costs the profiled process some CPU itself: the CPU and time figures of a run
# with BENCH_PERF=1 are not comparable with one without, and run.sh says so in the conditions.

PERF_FREQ=${BENCH_PERF_FREQ:-99}
perf_pids=()   # perf record processes still running
perf_runs=()   # "<file prefix>" of each, for the reports

perf_check() {
  [[ $PERF_FREQ =~ ^[1-9][0-9]*$ ]] || die "BENCH_PERF_FREQ must be a positive integer (got '$PERF_FREQ')"
  command -v perf >/dev/null || die "BENCH_PERF=1 needs perf (Debian: linux-perf)"
  perf record -q -F "$PERF_FREQ" -o /dev/null -- true >/dev/null 2>&1 ||
    die "perf cannot record here (kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null), not root?)"
}

# perf_start RUN NAME PID: record PID into $out/RUN-perf-NAME.data until perf_stop.
perf_start() {
  local file=$out/$1-perf-$2
  perf record -q -F "$PERF_FREQ" --call-graph dwarf,16384 -p "$3" -o "$file.data" \
    2>"$file.log" &
  perf_pids+=("$!")
  perf_runs+=("$file")
}

# perf_stop: end every recording (SIGINT makes perf write its data and exit).
perf_stop() {
  local p
  for p in ${perf_pids[@]+"${perf_pids[@]}"}; do kill -INT "$p" 2>/dev/null || true; done
  for p in ${perf_pids[@]+"${perf_pids[@]}"}; do wait "$p" 2>/dev/null || true; done
  perf_pids=()
}

# perf_trim: perf's report as its sample count and its rows, largest share first, without
# padding and with symbols cut to 200 columns (Asio's and Beast's template names run to thousands).
perf_trim() {
  local report
  report=$(cat)
  grep -E '^# (Samples|Event count)' <<<"$report" || true
  grep -vE '^#|^[[:space:]]*$' <<<"$report" | cut -c1-200 | sed 's/[[:space:]]*$//' | sort -t% -k1,1 -rn
}

# perf_report FILE SUFFIX FILTER ARGS...: `perf report ARGS` of FILE.data through perf_trim and
# FILTER (a grep -E pattern) into FILE-SUFFIX.txt; a failure is a warning, not the run's end.
perf_report() {
  local file=$1 suffix=$2 filter=$3
  perf report -i "$file.data" --stdio -g none "${@:4}" 2>>"$file.log" | perf_trim |
    grep -E "$filter" > "$file-$suffix.txt" || log "warning: perf report ($suffix) failed for $file.data"
}

# perf_reports: the reports of every recording perf_stop ended (after the measurement's figures
# are taken: perf report itself takes CPU).
perf_reports() {
  local file
  for file in ${perf_runs[@]+"${perf_runs[@]}"}; do
    if [ ! -s "$file.data" ]; then
      log "warning: perf left no recording in $file.data (see $file.log)"
      continue
    fi
    perf_report "$file" self . --no-children --sort dso,symbol -F overhead,dso,sym --percent-limit 0.5
    perf_report "$file" dso . --no-children --sort dso
    # --no-inline: resolving inlined frames runs addr2line over every sample (many minutes for a
    # 10,000-job recording); the functions they were inlined into carry their cost.
    perf_report "$file" ours '^#|vc::' --children --no-inline --sort symbol --percent-limit 1
    log "profile: $file-self.txt"
  done
  perf_runs=()
}
