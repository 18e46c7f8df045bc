#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every model's CUDA step, small enough to finish under NVIDIA's compute-sanitizer: short
# `cellforge-sim run`s of bundled scenarios (each model family, each lattice layout and
# geometry, two cardiac models) under racecheck and memcheck, nine at a time. The test
# suite under the sanitizers (tests/gpu/sanitize.sh) covers more paths but its long
# statistical cases do not finish under racecheck; these runs reach every kernel of every
# step. A table last; exit 0 when all are clean.
#   usage: tests/gpu/sanitize_runs.sh BUILD_DIR [SECONDS_PER_RUN]
set -uo pipefail
sim=$(realpath "$1")/sim/cli/cellforge-sim
limit=${2:-240}
out="${OUT:-$PWD/gpu-out}/sanitize-runs"
mkdir -p "$out"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
cat >"$out/jobs.txt" <<'J'
brownian|default --set system.count=2000 --set system.box=10 --steps 20
spheres|welcome --set init.count=60 --set init.radius=60 --steps 60
epidermis|epidermis-network --set init.cells=20 --steps 20
lattice-bimolecular|lattice-bimolecular --steps 40
lattice-conversion|lattice-conversion-cell --set lattice.nx=16 --set lattice.ny=16 --set lattice.nz=16 --steps 20
lattice-obstructed|lattice-obstructed --set lattice.nx=32 --set lattice.ny=32 --set lattice.nz=32 --steps 10
gliding|gliding-single-ring --set grid.n=32 --set grid.ninner=8 --steps 6
cardiac-aliev-panfilov|cardiac-aliev-panfilov --set tissue.nx=24 --set tissue.ny=24 --steps 100
cardiac-niederer|cardiac-niederer --steps 20
J
one() {
  local tool=$1 name=${2%%|*} args=${2#*|}
  local log="$out/$tool-$name.log"
  # shellcheck disable=SC2086  # args is a list of words
  timeout "$limit" "$cs" --tool "$tool" --report-api-errors no --error-exitcode 99 \
    "$sim" run $args --backend cuda --out "$out/out-$tool-$name" >"$log" 2>&1
  local rc=$?
  printf '%-10s %-24s rc=%-4s %s\n' "$tool" "$name" "$rc" \
    "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)" >"$log.row"
}
export -f one
export cs sim out limit
for tool in racecheck memcheck; do
  while read -r job; do printf '%s\n%s\n' "$tool" "$job"; done <"$out/jobs.txt"
done | xargs -P 9 -d '\n' -n 2 bash -c 'one "$0" "$1"'
echo "================ compute-sanitizer on short runs ================"
status=0
for row in "$out"/*.row; do
  cat "$row"
  grep -qE "rc=0 .*(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)" "$row" || status=1
done
tar -czf "$out.logs.tgz" -C "$(dirname "$out")" "$(basename "$out")" 2>/dev/null
exit $status
