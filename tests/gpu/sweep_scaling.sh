#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A sweep of 8 runs (the N-version slab at dx 0.1 mm, TP06, 150 ms; the stimulus amplitude
# varied) on one GPU (`sweep --gpus 0`, no MPI) and over MPI ranks (`mpirun -n 5`: a manager
# and four workers, one GPU each), wall time of each and their summaries (docs/SCALING.md).
#   usage: tests/gpu/sweep_scaling.sh CELLFORGE_SIM SCENARIOS_DIR OUT
set -euo pipefail
sim=$1 scenarios=$2 out=$3
mkdir -p "$out"
# No snapshots: the sweep's cost is the runs' steps, not HDF5.
sed 's/^snapshot_every = .*/snapshot_every = 0/' "$scenarios/cardiac-niederer.toml" > "$out/niederer.toml"
args=(sweep "$out/niederer.toml" --backend cuda --steps 15000 --set tissue.dx=0.1
      --set tissue.nx=201 --set tissue.ny=71 --set tissue.nz=31 --set time.dt=0.01
      --vary protocol.amplitude=-40:-30:8)
t0=$(date +%s.%N)
"$sim" "${args[@]}" --gpus 0 --out "$out/one" > "$out/one.log" 2>&1
t1=$(date +%s.%N)
mpirun --allow-run-as-root --oversubscribe --bind-to none -n 5 "$sim" "${args[@]}" --out "$out/four" \
  > "$out/four.log" 2>&1
t2=$(date +%s.%N)
python3 - "$t0" "$t1" "$t2" "$out" <<'PY'
import sys, csv
t0, t1, t2, out = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
one, four = t1 - t0, t2 - t1
rows = lambda p: [r for r in csv.reader(open(p))]
a, b = rows(f"{out}/one/summary.csv"), rows(f"{out}/four/summary.csv")
wall = [i for i, h in enumerate(a[0]) if h.startswith("wall")]
same = all([c for i, c in enumerate(x) if i not in wall] == [c for i, c in enumerate(y) if i not in wall] for x, y in zip(a, b))
print(f"8 runs on 1 GPU (sweep --gpus 0): {one:.1f} s; on 4 GPUs (mpirun -n 5): {four:.1f} s; speed-up {one / four:.2f}x; summaries equal but wall time: {same}")
PY
