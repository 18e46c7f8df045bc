#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The epidermis growth test's fit, on the GPU machine (docs/EPIDERMIS.md, "The growth test,
# calibrated"). Full-model runs of 130,000 steps from the scenario epidermis-full.toml at the
# Fig. 3 density (domain 0.6 sqrt(cells)), spread over every GPU, RUNS_PER_GPU at a time:
#   tests/gpu/epidermis_growth.sh CELLFORGE_SIM OUTDIR JOB...
# A JOB is CELLS:BOUNDARY:RULE[:VALUE]: BOUNDARY is periodic or noboundary, RULE lowest
# (VALUE = growth.fraction), absolute (VALUE = growth.threshold) or lateral; e.g.
#   1000:noboundary:lowest:0.68  100:periodic:lateral  100:periodic:absolute:160
# STEPS, EVERY (snapshot interval), BACKEND and RUNS_PER_GPU change the defaults.
# Prints one line per job (final cells, layers, ...) and writes OUTDIR/growth.csv.
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 CELLFORGE_SIM OUTDIR JOB..." >&2; exit 2; }
SIM=$(realpath "$1")
OUT=$(mkdir -p "$2" && realpath "$2")
shift 2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GPUS=$( (nvidia-smi -L 2>/dev/null || true) | wc -l)
(( GPUS > 0 )) || GPUS=1
BACKEND=${BACKEND:-cuda}
PER=${RUNS_PER_GPU:-3}
STEPS=${STEPS:-130000}
EVERY=${EVERY:-0}

pids=() k=0
for job in "$@"; do
    IFS=: read -r cells boundary rule value <<< "$job"
    size=$(python3 -c "import math; print(round(0.6 * math.sqrt($cells), 6))")
    args=(--set "init.cells=$cells" --set "domain.size_x=$size" --set "domain.size_y=$size"
          --set "domain.periodic=$([[ $boundary == periodic ]] && echo true || echo false)"
          --set "growth.rule=$rule")
    case $rule in
        lowest) args+=(--set "growth.fraction=$value") ;;
        absolute) args+=(--set "growth.threshold=$value") ;;
        lateral) ;;
        *) echo "unknown rule '$rule' in job '$job'" >&2; exit 2 ;;
    esac
    name=${job//:/_}
    CUDA_VISIBLE_DEVICES=$((k % GPUS)) "$SIM" run "$ROOT/assets/scenarios/epidermis-full.toml" \
        --backend "$BACKEND" --steps "$STEPS" --every "$EVERY" --out "$OUT/$name" "${args[@]}" \
        > "$OUT/$name.log" 2>&1 &
    pids+=($!)
    k=$((k + 1))
    if (( ${#pids[@]} >= GPUS * PER )); then wait "${pids[0]}" || true; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || true; done

python3 - "$OUT" "$@" << 'PY'
import csv, os, sys
out, jobs = sys.argv[1], sys.argv[2:]
paper = {(100, "periodic"): 535, (128, "noboundary"): 623, (250, "noboundary"): 1159,
         (500, "noboundary"): 2377, (1000, "noboundary"): 4735, (128, "periodic"): 582,
         (250, "periodic"): 1059, (500, "periodic"): 2286, (1000, "periodic"): 4585}
cols = ["cells [1]", "layers [1]", "column_layers [1]", "adherent_cells [1]",
        "detached_cells [1]", "off_membrane_fraction [1]", "max_height [L]"]
rows = []
for job in jobs:
    name = job.replace(":", "_")
    path = os.path.join(out, name, "series.csv")
    if not os.path.exists(path):
        print(f"{job:32s} FAILED (see {name}.log)")
        continue
    last = list(csv.DictReader(open(path)))[-1]
    cells, boundary = int(job.split(":")[0]), job.split(":")[1]
    ref = paper.get((cells, boundary))
    final = float(last["cells [1]"])
    resid = f"{100 * (final / ref - 1):+.1f} %" if ref else "-"
    rows.append([job, last["step"]] + [last[c] for c in cols] + [ref or "", resid])
    print(f"{job:32s} step {last['step']:>6s} cells {final:6.0f} paper {ref or '-':>5} "
          f"({resid}) layers {float(last['layers [1]']):.0f} "
          f"column_layers {float(last['column_layers [1]']):.2f} "
          f"detached {float(last['detached_cells [1]']):.0f} "
          f"off_membrane {float(last['off_membrane_fraction [1]']):.2f}")
with open(os.path.join(out, "growth.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["job", "step"] + cols + ["paper_cells", "residual"])
    w.writerows(rows)
PY
