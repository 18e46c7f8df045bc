#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Cook & Shinar's Table 3 for the CUDA motor kernels (docs/GLIDING.md "Kernel switches"), on
# the GPU machine:
#   tools/docs/gliding_table3.sh CELLFORGE_SIM OUTDIR [RESOLUTION ...]
# RESOLUTION is N x n as in the case names (default: all six, 64x16 .. 256x32). Runs the default
# build and every switch at each resolution (CUDA), and the hybrid placement (CPU backend), 5
# repeats each, into OUTDIR/gliding-table3-*.json, then prints the table
# (tools/docs/gliding_table3.py).
set -euo pipefail
usage="usage: $0 CELLFORGE_SIM OUTDIR [RESOLUTION ...]"
SIM=$(realpath "${1:?$usage}")
OUT=$(mkdir -p "${2:?$usage}" && realpath "$2")
shift 2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
resolutions=("$@")
[ ${#resolutions[@]} -gt 0 ] || resolutions=(64x16 64x32 128x16 128x32 256x16 256x32)
suffixes=("" -f64 -fastmath -bounds -segments -strided -lanes -threads64 -threads128 -threads256
          -threads512 -threads1024 -v1)
cuda=() hybrid=()
for r in "${resolutions[@]}"; do
    for s in "${suffixes[@]}"; do cuda+=(--case "fig6-$r$s"); done
    hybrid+=(--case "fig6-$r-hybrid")
done
"$SIM" bench gliding --backend cuda "${cuda[@]}" --repeats 5 \
    --json "$OUT/gliding-table3-cuda.json" > "$OUT/gliding-table3-cuda.log" 2>&1
"$SIM" bench gliding --backend cpu "${hybrid[@]}" --repeats 3 \
    --json "$OUT/gliding-table3-hybrid.json" > "$OUT/gliding-table3-hybrid.log" 2>&1
python3 "$ROOT/tools/docs/gliding_table3.py" "$OUT/gliding-table3-cuda.json" \
    "$OUT/gliding-table3-hybrid.json"
