#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# cellforge-sim's promises to scripts: exit codes and messages that name the file, line
# and column or the parameter and its range; a failed run keeps its last checkpoint.
#   usage: exit_codes.sh path/to/cellforge-sim path/to/assets/scenarios
set -u
sim="$1"
scenarios="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0

# expect NAME CODE PATTERN -- command...: the exit code and a pattern in stderr+stdout.
expect() {
  local name="$1" code="$2" pattern="$3"
  shift 4
  local out
  out=$("$@" 2>&1)
  local got=$?
  if [ "$got" -ne "$code" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $got (want $code), output:"
    echo "$out" | sed 's/^/    /' | head -5
    failures=$((failures + 1))
  else
    echo "ok   $name"
    passes=$((passes + 1))
  fi
}

printf 'model = "brownian"\nseed = = 3\n' >"$work/bad.toml"
expect malformed-scenario 2 "bad.toml:2:8:" -- "$sim" run "$work/bad.toml" --out "$work/o1"

printf 'model = "brownian"\n[parameters.system]\ncount = 10\nbox = 32.0\nsteps = 5\n' >"$work/unknown.toml"
expect unknown-key 2 "unknown.toml:5:1: unknown key 'steps' in \[parameters.system\]" -- \
  "$sim" run "$work/unknown.toml" --out "$work/o2"

expect out-of-range-set 2 "parameter 'dynamics.dt' = 5 is out of range: allowed \[1e-07, 1\] s" -- \
  "$sim" run "$scenarios/default.toml" --set dynamics.dt=5 --out "$work/o3"

expect unknown-parameter 2 "did you mean 'dynamics.dt'" -- \
  "$sim" run "$scenarios/default.toml" --set dynamics.dtt=1 --out "$work/o4"

expect nan-parameter 2 "epidermis|time.dt" -- \
  "$sim" run "$scenarios/epidermis-movement.toml" --set time.dt=nan --out "$work/o5"

expect missing-file 2 "cannot open scenario file" -- "$sim" run "$work/none.toml"

expect unknown-model 2 "unknown model 'nope'" -- "$sim" params nope

expect ok-run 0 "completed 20 steps" -- \
  "$sim" run "$scenarios/default.toml" --steps 20 --set system.count=500 --set system.box=10 \
  --out "$work/o6"
grep -q '"status": "completed"' "$work/o6/run.json" || { echo "FAIL ok-run: run.json status"; failures=$((failures + 1)); }

# A run that fails (an element moves too far in half a step) exits 3, names the step and
# the cell, records "failed" in run.json and keeps the last good checkpoint.
expect failed-run 3 "cell [0-9]+ .*step [0-9]+" -- \
  "$sim" run "$scenarios/epidermis-movement.toml" --backend cpu --steps 40 \
  --set init.cells=4 --set mechanics.neighbor_method=center --out "$work/o7" \
  --set time.dt=1 --set mechanics.intra_u0=50
grep -q '"status": "failed"' "$work/o7/run.json" || { echo "FAIL failed-run: run.json status"; failures=$((failures + 1)); }

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
