#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The spheres force kernels' roofline (docs/SPHERES.md), on the GPU machine:
#   tools/docs/spheres_roofline.sh CELLFORGE_SIM OUTDIR
# Profiles the thread-per-cell (v2) and voxel (v3) force kernels of the circles and benchmark
# A cases with Nsight Compute (one launch each, the metrics tools/roofline.py reads) into
# OUTDIR, then draws docs/images/figures/spheres-roofline.svg and prints its table. About a
# minute on an H200.
set -euo pipefail
usage="usage: $0 CELLFORGE_SIM OUTDIR"
SIM=$(realpath "${1:?$usage}")
OUT=$(mkdir -p "${2:?$usage}" && realpath "$2")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v ncu > /dev/null || { echo "spheres_roofline.sh: ncu (Nsight Compute) not found" >&2; exit 2; }
metrics=$(python3 "$ROOT/tools/roofline.py" --metrics)
profiles=()
for c in circles-1m circles-1m-voxel benchmark-a benchmark-a-voxel; do
    ncu --clock-control none --csv --page raw --print-units base \
        -k regex:"^(forceKernel|voxelForceKernel)" -c 1 --metrics "$metrics" \
        "$SIM" bench spheres --backend cuda --case "$c" --repeats 1 > "$OUT/$c.csv" 2> "$OUT/$c.err"
    profiles+=("$OUT/$c.csv")
done
labels=(--label "circles 1M, v2" --label "circles 1M, v3" --label "benchmark A, v2"
        --label "benchmark A, v3")
python3 "$ROOT/tools/roofline.py" "${profiles[@]}" "${labels[@]}" \
    --out "$ROOT/docs/images/figures/spheres-roofline.svg"
