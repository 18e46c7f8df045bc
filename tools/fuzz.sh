#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every libFuzzer target of the `fuzz` preset (clang, ASan + UBSan) for RUNS executions
# each, starting from the committed seeds in fuzz/corpus/<target>/, two targets at a time. A
# crash, sanitizer report, leak, hang (-timeout) or untyped exception leaves its input in
# OUT/<target>/ (commit it under fuzz/regressions/<target>/ once fixed: the ctest
# <target>_regressions replays it in every build). Prints a table last.
#   usage: tools/fuzz.sh [RUNS] [OUT]        (defaults: 1000000, build/fuzz-out)
#   FUZZ_TARGETS="fuzz_mesh ..." runs only those; FUZZ_JOBS sets how many run at once.
#   FUZZ_WORKERS=N splits each target's RUNS over N libFuzzer workers sharing one corpus
#   (a machine with many cores); the table sums their executions.
#   FUZZ_BIN names the folder of the fuzz executables (another machine's copy).
#   FUZZ_SECONDS stops each target (each worker) after that many seconds, whatever RUNS says;
#   FUZZ_SEEDS=DIR starts from DIR/<target>/ (an earlier run's corpus) instead of fuzz/corpus.
#   build first: cmake --preset fuzz && cmake --build --preset fuzz
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-1000000}
out=$(realpath -m "${2:-$root/build/fuzz-out}")
bin=$(realpath -m "${FUZZ_BIN:-$root/build/fuzz/fuzz}")
jobs=${FUZZ_JOBS:-2}
workers=${FUZZ_WORKERS:-1}
mkdir -p "$out"
# Leaks inside third-party libraries (fuzz/lsan.supp says which and why) are not ours to fix.
export LSAN_OPTIONS=suppressions=$root/fuzz/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

max_len() {  # the largest input worth mutating, per format
  case $1 in
    fuzz_reactions) echo 1024 ;;
    fuzz_cellml|fuzz_checkpoint) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

run_one() {
  local t=$1
  local dir=$out/$t
  rm -rf "$dir" && mkdir -p "$dir/corpus"
  cp "${FUZZ_SEEDS:-$root/fuzz/corpus}/$t/"* "$dir/corpus/"
  local start=$SECONDS
  local flags=(-timeout=10 -rss_limit_mb=4096 -max_len="$(max_len "$t")" -print_final_stats=1
               -close_fd_mask=3 -artifact_prefix="$dir/")
  [[ -n ${FUZZ_SECONDS:-} ]] && flags+=(-max_total_time="$FUZZ_SECONDS")
  local rc
  if [[ $workers -gt 1 ]]; then
    # libFuzzer's -jobs runs each worker as its own process with these flags, writing
    # fuzz-<i>.log in the current folder; the workers merge what they find into one corpus.
    (cd "$dir" && "$bin/$t" -jobs="$workers" -workers="$workers" \
      -runs=$(( (runs + workers - 1) / workers )) "${flags[@]}" corpus >log.txt 2>&1)
    rc=$?  # (the parent copies each worker's log into log.txt as the worker ends)
    # A worker that failed says so in its log; -jobs itself exits 0 once all have ended.
    grep -qE '^==[0-9]+== ?ERROR|^SUMMARY: |deadly signal' "$dir"/fuzz-*.log && rc=1
  else
    "$bin/$t" -runs="$runs" "${flags[@]}" "$dir/corpus" >"$dir/log.txt" 2>&1
    rc=$?
  fi
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" |
          awk '{n += $1} END {print n + 0}')
  local findings
  findings=$(find "$dir" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' \
             -o -maxdepth 1 -name 'timeout-*' -o -maxdepth 1 -name 'oom-*' | wc -l)
  echo "$t ${execs:-0} $((SECONDS - start)) $(ls "$dir/corpus" | wc -l) $rc $findings" >"$dir/result"
}

targets=()
for t in "$bin"/fuzz_*; do [[ -x $t ]] && targets+=("$(basename "$t")"); done
if [[ -n ${FUZZ_TARGETS:-} ]]; then  # e.g. FUZZ_TARGETS="fuzz_mesh fuzz_sbml"
  read -r -a targets <<<"$FUZZ_TARGETS"
fi
[[ ${#targets[@]} -gt 0 ]] || { echo "fuzz: no targets in $bin (build the fuzz preset)" >&2; exit 2; }
for t in "${targets[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do sleep 1; done
  echo "fuzz: $t ($runs runs)"
  run_one "$t" &
done
wait

status=0
printf '\n%-22s %12s %8s %10s %8s %s\n' target executions seconds exec/s corpus result
for t in "${targets[@]}"; do
  read -r name execs secs corpus rc findings <"$out/$t/result"
  rate=$(( secs > 0 ? execs / secs : execs ))
  result=clean
  if [[ $rc -ne 0 || $findings -ne 0 ]]; then result="FAILED (exit $rc, $findings inputs in $out/$t)"; status=1; fi
  printf '%-22s %12s %8s %10s %8s %s\n' "$name" "$execs" "$secs" "$rate" "$corpus" "$result"
done
exit $status
