#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `mpirun -n N cellforge-sim run` (one cardiac simulation split over N CPU ranks, N = 2, 3,
# 4): series.csv, whose metrics are computed from the whole grid, is byte for byte that of
# one rank without mpirun; the snapshots are one .xmf over per-rank pieces; a checkpoint
# written on 3 ranks restarts on 3 to the same bytes as an uninterrupted run, and is
# refused on 2 naming the count; SIGTERM to the ranks stops them all at one step with a
# checkpoint (exit 130) from which the run completes identically; a state that blows up
# fails on every rank with one message (exit 3); a model that does not split is refused
# (exit 2); run.json names the ranks.
#   usage: run_ranks.sh path/to/cellforge-sim path/to/mpirun
set -u
sim="$1"
mpirun="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check NAME STATUS [details]
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1 ${3:-}"; failures=$((failures + 1)); fi
}
ranks() {  # ranks N ARGS...: cellforge-sim on N ranks, bounded so that a hang fails
  local n="$1"
  shift
  timeout 180 "$mpirun" --oversubscribe -n "$n" "$sim" "$@"
}
# A sheet split along y (its longest axis), a wave crossing every slab boundary, traces.
base=(run cardiac-aliev-panfilov --set tissue.nx=30 --set tissue.ny=48
      --set "trace.points=a 1 1 0; b 3 5.9 0; c 6 11 0")
args=("${base[@]}" --steps 600 --every 300)

"$sim" "${args[@]}" --out "$work/one" > "$work/one.log" 2>&1
check "one rank runs" $? "$(tail -3 "$work/one.log")"
for n in 2 3 4; do
  ranks "$n" "${args[@]}" --out "$work/r$n" > "$work/r$n.log" 2>&1
  check "$n ranks run" $? "$(tail -5 "$work/r$n.log")"
  cmp -s "$work/one/series.csv" "$work/r$n/series.csv"
  check "$n ranks: series.csv is one rank's, byte for byte" $?
  [ "$(ls "$work/r$n"/snapshots/*.h5 | wc -l)" -eq $((3 * n)) ]
  check "$n ranks: 3 snapshots in $n pieces each" $?
  grep -q "cardiac_000000300.r000$((n - 1)).h5" "$work/r$n/cardiac.xmf"
  check "$n ranks: the .xmf names every rank's piece" $?
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['ranks']; sys.exit(r['count'] != $n)" \
    "$work/r$n/run.json"
  check "$n ranks: run.json records the ranks" $?
done

# Checkpoint on 3 ranks at step 300, then continue to 600.
ranks 3 "${base[@]}" --steps 300 --every 300 --out "$work/half" > "$work/half.log" 2>&1
check "3 ranks: first half" $?
ranks 3 "${args[@]}" --out "$work/half" --resume "$work/half/checkpoint.cfchk" > "$work/resume.log" 2>&1
check "3 ranks: resumed from the per-rank checkpoint" $? "$(tail -3 "$work/resume.log")"
cmp -s "$work/one/series.csv" "$work/half/series.csv"
check "the resumed run's series equals the uninterrupted one" $?
ranks 2 "${args[@]}" --out "$work/wrong" --resume "$work/half/checkpoint.cfchk" > "$work/wrong.log" 2>&1
status=$?
[ $status -eq 2 ] && grep -q "written by 3 ranks" "$work/wrong.log"
check "a 3-rank checkpoint on 2 ranks is refused naming the count (exit 2)" $? "status $status: $(cat "$work/wrong.log" | head -3)"

# SIGTERM to every rank mid-run: all stop at one step, checkpoint, exit 130; then finish.
long=("${base[@]}" --steps 200000 --every 0)
( ranks 3 "${long[@]}" --out "$work/stop" > "$work/stop.log" 2>&1; echo $? > "$work/stop.status" ) &
for _ in $(seq 1 100); do
  [ -f "$work/stop/series.csv" ] && [ "$(wc -l < "$work/stop/series.csv")" -gt 3 ] && break
  sleep 0.2
done
# The ranks only (their command line starts with the program), as a batch system signals.
pkill -TERM -f "^[^ ]*cellforge-sim run cardiac-aliev-panfilov .*--steps 200000" 2>/dev/null
wait
status=$(cat "$work/stop.status")
[ "$status" -eq 130 ]
check "SIGTERM: the ranks stop (status $status)" $? "$(tail -3 "$work/stop.log")"
[ "$(ls "$work"/stop/checkpoint.rank000?-of-0003.cfchk 2>/dev/null | wc -l)" -eq 3 ]
check "SIGTERM: every rank wrote its checkpoint" $?
grep -q "interrupted at step" "$work/stop.log"
check "SIGTERM: rank 0 says where it stopped" $? "$(tail -3 "$work/stop.log")"
ranks 3 "${base[@]}" --steps "$(grep -o 'interrupted at step [0-9]*' "$work/stop.log" | grep -o '[0-9]*$')" \
  --every 0 --out "$work/stopref" > "$work/stopref.log" 2>&1
cmp -s <(cut -d, -f1-8 "$work/stop/series.csv") <(cut -d, -f1-8 "$work/stopref/series.csv")
check "SIGTERM: the series up to the stop is that of a run of as many steps" $?

# A state that blows up: every rank fails alike, one message, exit 3.
cfm="$work/blowup.cfm"
printf 'model blowup\n[c]\nstate V = 1 bind potential\ndot(V) = V * V\n' > "$cfm"
ranks 3 run cardiac-aliev-panfilov --steps 100 --set "model.file=$cfm" --set tissue.nx=6 \
  --set tissue.ny=1 --out "$work/blow" > "$work/blow.log" 2>&1
status=$?
[ $status -eq 3 ] && [ "$(grep -c "is infinite\|is NaN" "$work/blow.log")" -eq 1 ]
check "a blow-up fails on every rank with one message (exit 3)" $? "status $status: $(head -5 "$work/blow.log")"

# A model that does not split over ranks is refused, once, as bad input.
ranks 2 run spheres-tumour --steps 10 --out "$work/spheres" > "$work/spheres.log" 2>&1 ||
  ranks 2 run default --steps 10 --out "$work/spheres" > "$work/spheres.log" 2>&1
status=$?
[ $status -eq 2 ] && [ "$(grep -c "does not run on several ranks" "$work/spheres.log")" -eq 1 ]
check "a model that does not split is refused once (exit 2)" $? "status $status: $(head -3 "$work/spheres.log")"

[ $failures -eq 0 ] && echo "all passed" || echo "$failures failed"
exit $((failures > 0))
