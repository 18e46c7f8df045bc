#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `mpirun -n 3 cellforge-sim sweep`: a manager rank and two workers give the serial sweep's
# summary.csv (every column but `wall [s]`, the only one that is timing) and run folders
# (series.csv byte for byte); a failed run is a failed row and exit 3 as in serial; a
# worker that fails outside a run stops the sweep naming its rank and host (exit 3, no
# hang), one that dies ends the job through mpirun; signals to the ranks stop cleanly
# (exit 130, finished runs kept, the missing ones named); bad input, the manager's or a
# worker's, is refused once with exit 2, writing nothing; `-n 1` is the serial path.
#   usage: sweep_ranks.sh path/to/cellforge-sim path/to/assets/scenarios path/to/mpirun
set -u
sim="$1"
scenarios="$2"
mpirun="$3"
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

ranks() {  # ranks N ARGS...: cellforge-sim ARGS on N ranks, bounded so a hang fails
  local n="$1"
  shift
  timeout 120 "$mpirun" --oversubscribe -n "$n" "$sim" "$@"
}

children() {  # the processes whose parent is $1 (from /proc: no procps needed)
  local status key value
  for status in /proc/[0-9]*/status; do
    while read -r key value; do
      if [ "$key" = PPid: ]; then
        [ "$value" = "$1" ] && basename "$(dirname "$status")"
        break
      fi
    done <"$status" 2>/dev/null
  done
}

# The summary without the wall-time column (found by its header, not its position), read
# as CSV (a failed run's status is quoted when it holds a comma).
without_wall() {
  python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
w = rows[0].index("wall [s]")
csv.writer(sys.stdout, lineterminator="\n").writerows([r[:w] + r[w + 1:] for r in rows])
' "$1"
}

# 3 x 2 = 6 runs of the default (brownian) scenario, a few steps each.
grid=(sweep "$scenarios/default.toml" --backend cpu --steps 20 --set system.box=10
  --vary system.count=100:200:3 --vary dynamics.dt=1e-4:1e-3:2 --log dynamics.dt)

out=$("$sim" "${grid[@]}" --out "$work/serial" 2>&1)
code=$?
check serial-exit-0 $code "exit $code: $out"
out=$(ranks 3 "${grid[@]}" --out "$work/ranks" 2>&1)
code=$?
check ranks3-exit-0 $code "exit $code: $out"
grep -q "6 runs on 2 worker ranks" <<<"$out"
check ranks3-says-workers $? "$out"
rows=$(tail -n +2 "$work/ranks/summary.csv" | wc -l)
check ranks3-six-rows $([ "$rows" -eq 6 ]; echo $?) "got $rows"
diff <(without_wall "$work/serial/summary.csv") <(without_wall "$work/ranks/summary.csv") >"$work/d"
check ranks3-summary-is-serial $? "$(cat "$work/d")"
# The wall column (the fifth) holds a number in every row.
walls=$(awk -F, 'NR > 1 && $5 ~ /^[0-9.e+-]+$/' "$work/ranks/summary.csv" | wc -l)
check ranks3-wall-column $([ "$walls" -eq 6 ]; echo $?) "$(head -2 "$work/ranks/summary.csv")"
same=0
for r in 1 2 3 4 5 6; do
  d="$work/ranks/run-000$r"
  [ -s "$d/run.json" ] && grep -q '"status": "completed"' "$d/run.json" &&
    cmp -s "$work/serial/run-000$r/series.csv" "$d/series.csv" && same=$((same + 1))
done
check ranks3-run-folders-as-serial $([ "$same" -eq 6 ]; echo $?) "$same of 6 alike"

# -n 1: the serial path (no manager line, the same summary).
out=$(ranks 1 "${grid[@]}" --out "$work/one" 2>&1)
code=$?
check ranks1-exit-0 $code "exit $code: $out"
! grep -q "worker ranks" <<<"$out"
check ranks1-is-serial $? "$out"
diff <(without_wall "$work/serial/summary.csv") <(without_wall "$work/one/summary.csv") >"$work/d"
check ranks1-summary-is-serial $? "$(cat "$work/d")"

# A run that fails (sweep.sh's: an element moves too far): a failed row, the next run ok,
# exit 3 on every rank, so mpirun's too.
failing=(sweep "$scenarios/epidermis-movement.toml" --backend cpu --steps 40 --set init.cells=4
  --set mechanics.neighbor_method=center --set time.dt=1 --vary mechanics.intra_u0=50:0.5:2)
"$sim" "${failing[@]}" --out "$work/fail-serial" >/dev/null 2>&1
out=$(ranks 3 "${failing[@]}" --out "$work/fail-ranks" 2>&1)
code=$?
check failed-run-exit-3 $([ $code -eq 3 ]; echo $?) "exit $code: $out"
sed -n 2p "$work/fail-ranks/summary.csv" | grep -qE '^1,50,"?failed: .*moved more than'
check failed-run-row $? "$(sed -n 2p "$work/fail-ranks/summary.csv")"
diff <(without_wall "$work/fail-serial/summary.csv") <(without_wall "$work/fail-ranks/summary.csv") \
  >"$work/d"
check failed-run-summary-is-serial $? "$(cat "$work/d")"

# A worker that fails outside a run (injected: rank 2 throws when handed its first run):
# the sweep stops, naming the rank and its host, exit 3, the summary written.
# The host as MPI names it: Open MPI drops the domain unless told to keep it.
host="($(hostname -s)|$(hostname))"
out=$(CELLFORGE_FAULTS=sweep-worker-error=2 ranks 3 "${grid[@]}" --out "$work/rank-error" 2>&1)
code=$?
check rank-error-exit-3 $([ $code -eq 3 ]; echo $?) "exit $code: $out"
grep -qE "cellforge-sim: error: rank 2 on $host: fault injected by CELLFORGE_FAULTS" <<<"$out"
check rank-error-names-rank-and-host $? "$out (host $host)"
grep -q "the sweep stopped; missing: " <<<"$out"
check rank-error-names-missing $? "$out"
rows=$(tail -n +2 "$work/rank-error/summary.csv" | wc -l)
check rank-error-summary $([ "$rows" -eq 6 ]; echo $?) "got $rows rows"

# A worker that dies (injected: rank 2 aborts): mpirun ends the job, naming the rank and
# its node, non-zero and without a hang; the summary on disk is a whole one.
out=$(CELLFORGE_FAULTS=sweep-worker-abort=2 ranks 3 "${grid[@]}" --out "$work/rank-dies" 2>&1)
code=$?
check rank-dies-exit-nonzero $([ $code -ne 0 ] && [ $code -ne 124 ]; echo $?) "exit $code: $out"
grep -qE "process rank 2 .* on node $host exited on signal" <<<"$out"
check rank-dies-named $? "$out"
rows=$(tail -n +2 "$work/rank-dies/summary.csv" | wc -l)
check rank-dies-summary $([ "$rows" -eq 6 ]; echo $?) "got $rows rows"

# Signals to the ranks (as a batch system sends them; mpirun itself answers Ctrl-C with
# SIGTERM to every rank): runs long enough to be in flight stop at a step boundary with
# their checkpoint, the summary says so, every rank exits 130.
long=(sweep "$scenarios/default.toml" --backend cpu --steps 100000000 --set system.box=10
  --vary system.count=100:200:3)
"$mpirun" --oversubscribe -n 3 "$sim" "${long[@]}" --out "$work/stop" >"$work/stop.out" 2>&1 &
job=$!
for _ in $(seq 100); do  # until both workers have a run
  [ "$(find "$work/stop" -name scenario.toml 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.1
done
sleep 1
kill -TERM $(children "$job")
wait "$job"
code=$?
check stop-exit-130 $([ $code -eq 130 ]; echo $?) "exit $code: $(cat "$work/stop.out")"
grep -q "cellforge-sim: interrupted; missing: run-0001, run-0002, run-0003" "$work/stop.out"
check stop-names-missing $? "$(cat "$work/stop.out")"
stopped=$(grep -c ',interrupted at step [0-9]*,' "$work/stop/summary.csv")
check stop-summary-rows $([ "$stopped" -eq 2 ] && grep -q '^3,200,not run,' "$work/stop/summary.csv"
  echo $?) "$(cat "$work/stop/summary.csv")"
n=$(grep -l '"status": "interrupted"' "$work"/stop/run-000*/run.json 2>/dev/null | wc -l)
check stop-runs-checkpointed $([ "$n" -eq 2 ] && [ -s "$work/stop/run-0001/checkpoint.cfchk" ]
  echo $?) "$n run.json interrupted"

# A signal to one worker alone (rank 2, found by its environment) stops the whole sweep:
# the manager tells the other worker to stop its run, which it does as on Ctrl-C.
"$mpirun" --oversubscribe -n 3 "$sim" "${long[@]}" --out "$work/stop2" >"$work/stop2.out" 2>&1 &
job=$!
for _ in $(seq 100); do
  [ "$(find "$work/stop2" -name scenario.toml 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.1
done
sleep 1
for pid in $(children "$job"); do
  tr '\0' '\n' <"/proc/$pid/environ" | grep -qx OMPI_COMM_WORLD_RANK=2 && kill -TERM "$pid"
done
wait "$job"
code=$?
check stop-one-exit-130 $([ $code -eq 130 ]; echo $?) "exit $code: $(cat "$work/stop2.out")"
stopped=$(grep -c ',interrupted at step [0-9]*,' "$work/stop2/summary.csv")
check stop-one-stops-both $([ "$stopped" -eq 2 ]; echo $?) "$(cat "$work/stop2/summary.csv")"

# Bad input: said once (by rank 0), exit 2, nothing written.
out=$(ranks 3 sweep "$scenarios/default.toml" --vary system.cont=1:2:2 --out "$work/bad" 2>&1)
code=$?
check bad-input-exit-2 $([ $code -eq 2 ]; echo $?) "exit $code"
said=$(grep -c "unknown parameter 'system.cont'" <<<"$out")
check bad-input-said-once $([ "$said" -eq 1 ]; echo $?) "$out"
check bad-input-nothing-written $([ ! -e "$work/bad" ]; echo $?)
# What only a worker refuses (here its own command line: mpirun's MPMD form) is said by
# rank 0, naming the worker's rank and host; nothing is written.
out=$(timeout 120 "$mpirun" --oversubscribe -n 1 "$sim" "${grid[@]}" --out "$work/worker-bad" : \
  -n 2 "$sim" sweep "$scenarios/default.toml" --vary system.cont=1:2:2 --out "$work/worker-bad" 2>&1)
code=$?
check worker-bad-input-exit-2 $([ $code -eq 2 ]; echo $?) "exit $code: $out"
grep -qE "^cellforge-sim: error: rank 1 on $host: unknown parameter 'system.cont'" <<<"$out"
check worker-bad-input-names-rank $? "$out"
check worker-bad-input-nothing-written $([ ! -e "$work/worker-bad" ]; echo $?)
out=$(ranks 3 "${grid[@]}" --jobs 2 --out "$work/jobs" 2>&1)
code=$?
check jobs-refused $([ $code -eq 2 ] && grep -q -- "--jobs is for one process" <<<"$out"; echo $?) \
  "exit $code: $out"

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
