# Shared by bench/controller/run.sh and bench/webhook/run.sh for BENCH_ROUNDS and their ratios
# (sourced).

# round_order ROUND IMPL...: the implementations in the order ROUND runs them: as given in odd
# rounds, reversed in even ones, so that a cluster slowing down over the run weighs on both alike.
round_order() {
  local round=$1
  shift
  if ((round % 2)); then echo "$*"; else printf '%s\n' "$@" | tac | tr '\n' ' '; fi
}

# A jq definition to put before a program: `median` of an array of numbers, null when empty.
JQ_MEDIAN='def median: sort | if length == 0 then null
                     elif length % 2 == 1 then .[(length - 1) / 2]
                     else (.[length / 2 - 1] + .[length / 2]) / 2 end;'

# ratio A B [DECIMALS]: A / B with DECIMALS decimals (default 2), or n/a when either is n/a or B
# is zero.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (a == "n/a" || b == "n/a" || b + 0 == 0) print "n/a"; else printf "%.*f", d, a / b }'; }
