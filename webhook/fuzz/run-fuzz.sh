#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, build-fuzz) and runs each one for a bounded time on a
# copy of the seed corpus, after replaying every file in regressions/. The targets are the
# webhook's (webhook/fuzz, one corpus, dictionary and regressions/ for all) and those over the
# API server's encodings (common/fuzz, each with its own corpus/NAME/, NAME.dict and
# regressions/NAME/).
#
#   webhook/fuzz/run-fuzz.sh [SECONDS]      (default 300 per fuzzer)
#
# Exits non-zero on any crash, leak, timeout, out-of-memory or regression failure, printing the
# path of the input that caused it. The committed corpus is never modified: new inputs go to a
# work directory that is removed after a clean run and kept after a failure.
#
# Environment: FUZZ_CXX (default clang++-14), FUZZ_BUILD_DIR (default <repo>/build-fuzz),
# FUZZ_JOBS (build parallelism, default 2), FUZZ_MAX_LEN (default 8192).
set -euo pipefail

seconds=${1:-300}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: $0 [SECONDS]" >&2
  exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
cxx=${FUZZ_CXX:-clang++-14}
max_len=${FUZZ_MAX_LEN:-8192}

# ---- build ---------------------------------------------------------------------------------
# Configure once; afterwards ninja re-runs cmake by itself when a CMakeLists.txt changes.
# Tests and benchmarks are off: only the fuzz targets are built.
if [[ ! -f $build/build.ninja ]] || ! grep -q '^VC_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "== configuring $build with $cxx"
  mkdir -p "$build"
  CXX=$cxx cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DVC_FUZZ=ON -DVC_BUILD_TESTS=OFF -DVC_BUILD_BENCH=OFF >"$build/fuzz-configure.log" 2>&1 || {
    cat "$build/fuzz-configure.log" >&2
    exit 1
  }
fi

# Each fuzzer's directory; its own corpus, dictionary and regressions when it has them, else
# the directory's shared ones.
fuzzers=()
declare -A fuzz_dir
for src in "$here"/*_fuzz.cpp "$root"/common/fuzz/*_fuzz.cpp; do
  [[ -e $src ]] || continue
  name=$(basename "$src" .cpp)
  fuzzers+=("$name")
  fuzz_dir[$name]=$(dirname "$src")
done
own_or_shared() {  # own_or_shared DIR/OWN DIR/SHARED: the first that exists
  if [[ -e $1 ]]; then echo "$1"; else echo "$2"; fi
}
echo "== building ${fuzzers[*]}"
start=$SECONDS
cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target "${fuzzers[@]}"
echo "== build took $((SECONDS - start)) s"

# ---- run -----------------------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
limits=(-rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10)

work=$(mktemp -d "${TMPDIR:-/tmp}/vc-fuzz.XXXXXX")
failed=0

# A failure keeps the work directory and names what to look at.
report_failure() {
  local what=$1 log=$2
  failed=1
  echo "!! $what failed; last lines of $log:"
  tail -n 60 "$log"
  local artifact
  for artifact in "$work"/artifacts/*; do
    [[ -e $artifact ]] && echo "!! failing input: $artifact"
  done
}

for fuzzer in "${fuzzers[@]}"; do
  bin=$(find "$build" -type f -name "$fuzzer" -perm -u+x | head -n 1)
  if [[ -z $bin ]]; then
    echo "!! $fuzzer was not built" >&2
    exit 1
  fi
  mkdir -p "$work/artifacts" "$work/$fuzzer/corpus"
  dir=${fuzz_dir[$fuzzer]}
  corpus=$(own_or_shared "$dir/corpus/$fuzzer" "$dir/corpus")
  dict=$(own_or_shared "$dir/$fuzzer.dict" "$dir/json.dict")
  dict_flag=()
  [[ -f $dict ]] && dict_flag=(-dict="$dict")

  # Regressions: every saved input must run clean.
  # (files only: a directory given to a fuzzer would be fuzzed, not replayed)
  regressions=()
  for input in "$(own_or_shared "$dir/regressions/$fuzzer" "$dir/regressions")"/*; do
    [[ -f $input ]] && regressions+=("$input")
  done
  if ((${#regressions[@]})); then
    echo "== $fuzzer: replaying ${#regressions[@]} regression input(s)"
    log=$work/$fuzzer/regressions.log
    if ! "$bin" "${limits[@]}" "${regressions[@]}" >"$log" 2>&1; then
      report_failure "$fuzzer regression replay" "$log"
      continue
    fi
  fi

  cp "$corpus"/* "$work/$fuzzer/corpus/"
  echo "== $fuzzer: fuzzing for $seconds s (corpus $(ls "$corpus" | wc -l) seeds)"
  log=$work/$fuzzer/fuzz.log
  status=0
  "$bin" "${limits[@]}" -max_total_time="$seconds" -max_len="$max_len" \
    "${dict_flag[@]}" -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    "$work/$fuzzer/corpus" >"$log" 2>&1 || status=$?

  # The last status line carries cov:, ft: and exec/s; the final stats the totals.
  grep -E '^#[0-9]+' "$log" | tail -n 1 | sed "s/^/== $fuzzer: /"
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
    "$log" | sed "s/^/== $fuzzer: /"
  if ((status != 0)) || compgen -G "$work/artifacts/*" >/dev/null; then
    report_failure "$fuzzer (exit $status)" "$log"
  fi
done

if ((failed)); then
  echo "!! fuzzing found a problem; work directory kept: $work"
  echo "!! reproduce with: <build>/{webhook,common}/<fuzzer> <failing input>; minimise with -minimize_crash=1 -runs=10000"
  exit 1
fi
rm -rf "$work"
echo "== fuzzing clean"
