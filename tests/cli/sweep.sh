#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `cellforge-sim sweep` end to end: the folders and summary of a 2 x 2 grid of the default
# (brownian) scenario, a failed run that does not stop the sweep, and bad axes refused with
# exit 2 before anything is written.
#   usage: sweep.sh path/to/cellforge-sim path/to/assets/scenarios
set -u
sim="$1"
scenarios="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0

check() {  # check NAME CONDITION-STATUS [details]
  if [ "$2" -eq 0 ]; then
    echo "ok   $1"
    passes=$((passes + 1))
  else
    echo "FAIL $1 ${3:-}"
    failures=$((failures + 1))
  fi
}

# 2 x 2: count 100, 200 (slowest) x dt 1e-4, 1e-3 (geometric, so the same two ends).
out=$("$sim" sweep "$scenarios/default.toml" --steps 20 --set system.box=10 \
  --vary system.count=100:200:2 --vary dynamics.dt=1e-4:1e-3:2 --log dynamics.dt \
  --out "$work/s1" 2>&1)
code=$?
check sweep-exit-0 $code "exit $code: $out"
n=$(find "$work/s1" -maxdepth 1 -name 'run-*' -type d | wc -l)
check four-run-folders $([ "$n" -eq 4 ]; echo $?) "found $n"
for r in 1 2 3 4; do
  d="$work/s1/run-000$r"
  [ -s "$d/run.json" ] && [ -s "$d/series.csv" ] && grep -q '"status": "completed"' "$d/run.json"
  check "run-000$r-output" $? "(run.json, series.csv)"
done
summary="$work/s1/summary.csv"
rows=$(tail -n +2 "$summary" | wc -l)
check summary-four-rows $([ "$rows" -eq 4 ]; echo $?) "got $rows"
head -1 "$summary" | grep -q '^run,system.count \[1\],dynamics.dt \[s\],status,wall \[s\],'
check summary-header $? "$(head -1 "$summary")"
want=$'1,100,1e-04,ok\n2,100,0.001,ok\n3,200,1e-04,ok\n4,200,0.001,ok'  # as `params` writes
got=$(tail -n +2 "$summary" | cut -d, -f1-4)
check summary-varied-values $([ "$got" = "$want" ]; echo $?) "got: $got"
# The run folders hold what the summary says: run 3 ran with 200 particles and dt 1e-4.
grep -q '"count": 200,\?$' "$work/s1/run-0003/run.json" &&
  grep -q '"dt": 0.0001,\?$' "$work/s1/run-0003/run.json"
check run-3-parameters $? "$(grep -E '"(count|dt)"' "$work/s1/run-0003/run.json")"
# Every metric in the summary equals the last row of that run's series.csv (same header).
mismatch=0
metrics=$(head -1 "$summary" | cut -d, -f6-)
IFS=, read -ra names <<<"$metrics"
for r in 1 2 3 4; do
  series="$work/s1/run-000$r/series.csv"
  srow=$(tail -1 "$series")
  IFS=, read -ra sh <<<"$(head -1 "$series")"
  IFS=, read -ra sv <<<"$srow"
  IFS=, read -ra mv <<<"$(sed -n "$((r + 1))p" "$summary" | cut -d, -f6-)"
  for i in "${!names[@]}"; do
    for j in "${!sh[@]}"; do
      if [ "${sh[$j]}" = "${names[$i]}" ] && [ "${sv[$j]}" != "${mv[$i]}" ]; then
        mismatch=$((mismatch + 1))
        echo "    run $r ${names[$i]}: summary ${mv[$i]}, series ${sv[$j]}"
      fi
    done
  done
done
check summary-metrics-are-last-series-row $([ "$mismatch" -eq 0 ] && [ "${#names[@]}" -gt 0 ]; echo $?) \
  "${#names[@]} metric columns, $mismatch mismatches"

# A run that fails (as in exit_codes.sh: an element moves too far) does not stop the sweep:
# run 1 fails, run 2 still runs, and the sweep exits 3 with both in the summary.
out=$("$sim" sweep "$scenarios/epidermis-movement.toml" --backend cpu --steps 40 \
  --set init.cells=4 --set mechanics.neighbor_method=center --set time.dt=1 \
  --vary mechanics.intra_u0=50:0.5:2 --out "$work/s4" 2>&1)
code=$?
check failed-run-exit-3 $([ $code -eq 3 ]; echo $?) "exit $code: $out"
sed -n 2p "$work/s4/summary.csv" | grep -qE '^1,50,"?failed: .*moved more than'
check failed-run-row $? "$(sed -n 2p "$work/s4/summary.csv")"
sed -n 3p "$work/s4/summary.csv" | grep -q '^2,0.5,ok,'
check next-run-ok $? "$(sed -n 3p "$work/s4/summary.csv")"
grep -q '"status": "failed"' "$work/s4/run-0001/run.json"
check failed-run-json $?

# Bad input: exit 2, the message names the key or the value, and nothing is written.
out=$("$sim" sweep "$scenarios/default.toml" --vary system.cont=1:2:2 --out "$work/s2" 2>&1)
code=$?
check bad-key-exit-2 $([ $code -eq 2 ]; echo $?) "exit $code"
grep -q "unknown parameter 'system.cont' (did you mean 'system.count'?)" <<<"$out"
check bad-key-message $? "$out"
check bad-key-nothing-written $([ ! -e "$work/s2" ]; echo $?)

out=$("$sim" sweep "$scenarios/default.toml" --vary system.count=100:200:2 \
  --vary dynamics.dt=1e-3:5:3 --out "$work/s3" 2>&1)
code=$?
check out-of-range-exit-2 $([ $code -eq 2 ]; echo $?) "exit $code"
grep -q "parameter 'dynamics.dt' = 5 is out of range: allowed \[1e-07, 1\] s" <<<"$out"
check out-of-range-message $? "$out"
check out-of-range-nothing-written $([ ! -e "$work/s3" ]; echo $?)

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
