#!/usr/bin/env bash
# eagle's GPU check, run from its bundle (bash cmake/setup/eagle.sh gpu-bundle packs it as run.sh):
# no build, no network; the executables load the bundle's libraries, and its C library too where the
# machine's is older than the one they were built against.
#
#   bash run.sh OUT_DIR [--budget SECONDS] [--simulate-seconds S] [--bench-sizes N,N,...]
#                       [--tests-filter GTEST_FILTER]
#
# Four parts, in order, each timed, cut at its share of the budget (default 330 s) and skipped with
# a line when less is left than it needs:
#   tests      the device's test suite and the pure one (eagle_policy_tests), at most 150 s
#   demo       eagle-demo: launches by K for steps = auto, on the default execution space, 30 s
#   simulate   eagle-simulate --model for --simulate-seconds (default 60), and 30 s more
#   benchmark  eagle-bench-gpu at --bench-sizes (default 100000,1000000,10000000): what is left
# Writes at most 8 files into OUT_DIR, each under 16 MiB: summary.txt, run.log, eagle-demo.svg,
# eagle-simulate.json, eagle-simulate.svg, eagle-bench-gpu.json, eagle-bench-gpu.svg.
# Exits 1 when a part that ran failed, 0 otherwise (skipped parts are named in the summary).
set -uo pipefail

usage() { sed -n '5,6p' "${BASH_SOURCE[0]}" | sed 's/^# *//'; }
[[ ${1:-} == --help || ${1:-} == -h ]] && { usage; exit 0; }
[[ $# -ge 1 && ${1:0:1} != - ]] || { usage >&2; exit 2; }
out=$1
shift
budget=330 simulate_seconds=60 bench_sizes=100000,1000000,10000000 tests_filter='*'
while (($#)); do
  case $1 in
    --budget) budget=${2:?--budget needs seconds} ;;
    --simulate-seconds) simulate_seconds=${2:?--simulate-seconds needs seconds} ;;
    --bench-sizes) bench_sizes=${2:?--bench-sizes needs a list} ;;
    --tests-filter) tests_filter=${2:?--tests-filter needs a gtest filter} ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift 2
done
for number in "$budget" "$simulate_seconds"; do
  [[ $number =~ ^[0-9]+$ ]] || { echo "run.sh: '$number' is not a whole number of seconds" >&2; exit 2; }
done

bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$out/run.log summary=$work/summary
: >"$log"
: >"$summary"
start=$SECONDS
failed=0

# An executable of the bundle with the bundle's libraries: through the machine's loader where it
# can (a test that starts itself again as a child needs that), else through the bundle's own.
export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# EAGLE_BUNDLE_OWN_LOADER=1 takes the bundle's loader regardless (to check it on any machine).
loader=
if [[ ${EAGLE_BUNDLE_OWN_LOADER:-0} == 1 ]] || ! "$bundle/bin/eagle_policy_tests" --gtest_list_tests >/dev/null 2>&1; then
  loader=$(ls "$bundle"/lib/glibc/ld-linux-* | head -n1)
fi
bundled() {
  local exe=$1
  shift
  if [[ -z $loader ]]; then
    "$bundle/bin/$exe" "$@"
  else
    "$loader" --library-path "$bundle/lib/glibc:$LD_LIBRARY_PATH" "$bundle/bin/$exe" "$@"
  fi
}

say() { echo "$*" | tee -a "$summary"; }

# part NAME NEEDS CAP COMMAND...: runs COMMAND (output to run.log) for at most CAP seconds and what
# the budget leaves, when at least NEEDS seconds are left.
part() {
  local name=$1 needs=$2 cap=$3 left took rc
  shift 3
  left=$((budget - (SECONDS - start)))
  if ((left < needs)); then
    say "$name: skipped: ${left} s of the ${budget} s budget left, it needs ${needs} s"
    return 0
  fi
  ((cap > left)) && cap=$left
  echo "=== $name (at most $cap s): $*" >>"$log"
  echo "$name: running, at most $cap s (its output goes to run.log)"
  local began=$SECONDS
  timeout --kill-after=10 "$cap" bash -c '"$@"' part "$@" >>"$log" 2>&1  # "$@" may name a function
  rc=$?
  took=$((SECONDS - began))
  if ((rc == 124 || rc == 137)); then
    say "$name: cut at $cap s (its share of the budget)"
    failed=1
  elif ((rc != 0)); then
    say "$name: FAILED (exit $rc, $took s; see run.log)"
    failed=1
  else
    say "$name: passed in $took s"
  fi
}

tests() {
  local exe rc=0
  for exe in $(cd "$bundle/bin" && ls eagle_tests_* eagle_policy_tests); do
    echo "--- $exe"
    bundled "$exe" --gtest_brief=1 "--gtest_filter=$tests_filter" || rc=1
  done
  return $rc
}

gpu=$( (nvidia-smi -L 2>/dev/null || true) | head -n1)
say "eagle GPU check: ${gpu:-no NVIDIA GPU listed: a dry run on the host}"
say "bundle: $(head -n1 "$bundle/MANIFEST.txt")"
say "budget: $budget s; host: $(nproc) cores; loader: ${loader:-the system one, its C library new enough}"
if ! bundled eagle_policy_tests --gtest_list_tests >/dev/null 2>>"$log"; then
  say "the bundle's executables do not start here (see run.log)"
  cp "$summary" "$out/summary.txt"
  exit 1
fi
export -f bundled tests
export bundle loader tests_filter
part tests 20 150 tests
part demo 5 30 bundled eagle-demo --out "$work"
part simulate $((simulate_seconds + 5)) $((simulate_seconds + 30)) \
  bundled eagle-simulate --budget "$simulate_seconds" --model --out "$work/eagle-simulate"
# The benchmark skips the rows that would start past its own budget (its JSON comes only at its end).
part benchmark 30 600 bundled eagle-bench-gpu "--sizes=$bench_sizes" "--svg=$work/eagle-bench-gpu.svg" \
  "--budget=$((budget - (SECONDS - start) - 20))" \
  --benchmark_repetitions=1 --benchmark_color=false "--benchmark_out=$work/eagle-bench-gpu.json" --benchmark_out_format=json

# The figures worth a glance, from the log.
{
  echo
  grep -E '^\[  (PASSED|FAILED)  \]|^--- ' "$log" | sed 's/^/  tests: /'
  grep -E 'launches|fastest' "$log" | grep -v -E '^(wrote|Benchmark) ' | head -n 12 | sed 's/^/  /'
  grep -E '^(launch/|lorenz(_fp32)?/[^ ]*/[0-9]+/real_time)' "$log" |
    awk '{printf "  benchmark: %-50s %10s %-3s", $1, $2, $3; if (NF >= 8) printf " %s launches, %s sample-steps/s", $(NF-1), $NF; print ""}'
  skipped_rows=$(grep -c "skipped: the run's --budget was spent" "$log")
  ((skipped_rows == 0)) || echo "  benchmark: $skipped_rows rows skipped, past the budget"
  echo "total: $((SECONDS - start)) s of the $budget s budget"
} | tee -a "$summary"

# At most 8 files back, each under 16 MiB: the log keeps its end.
cp "$work"/eagle-demo-launches-by-k.svg "$out/eagle-demo.svg" 2>/dev/null
for f in eagle-simulate.json eagle-bench-gpu.json eagle-bench-gpu.svg; do cp "$work/$f" "$out/" 2>/dev/null; done
cp "$work/eagle-simulate-times.svg" "$out/eagle-simulate.svg" 2>/dev/null
if (($(stat -c %s "$log") > 15 * 1048576)); then
  tail -c $((15 * 1048576)) "$log" >"$work/log" && mv "$work/log" "$log"
fi
cp "$summary" "$out/summary.txt"
files=$(find "$out" -maxdepth 1 -type f | wc -l)
echo "files in $out: $files (at most 8)" | tee -a "$out/summary.txt"
((files <= 8)) || exit 1
exit $failed
