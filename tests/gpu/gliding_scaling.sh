#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The gliding assay over 1, 2 and 4 GPUs of one host (docs/SCALING.md, "The gliding assay"):
# the S1 Fig. 6 ring lattice at S1's six resolutions (Cook & Shinar, ScalA'17, Table 4 and
# Fig. 5), its bound motors split by rows of anchors, one GPU per rank: `cellforge-sim bench
# gliding --set ... --steps N` under mpirun. Time per outer step and per stage (the slowest
# rank's), and the scaling efficiency T1 / (N TN) of the motor and force stages against the
# same binary on one GPU, measured in the same call. JSON per run in OUT, a table last.
#   usage: tests/gpu/gliding_scaling.sh CELLFORGE_SIM OUT [GPUS...]   (default GPUS: 1 2 4)
#   RESOLUTIONS="64x16 ... 256x32" (default: all six); MPI_TOO=1 also measures the force's sum
#   through MPI and host memory (CELLFORGE_NCCL=0) at 256^2 x 32^2.
set -euo pipefail
sim=$1 out=$2
shift 2
gpus=("$@")
[ ${#gpus[@]} -eq 0 ] && gpus=(1 2 4)
resolutions=(${RESOLUTIONS:-64x16 64x32 128x16 128x32 256x16 256x32})
mkdir -p "$out"
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
run() {  # run NAME RANKS [ENV...] -- ARGS...: one measurement
  local name=$1 n=$2
  shift 2
  local env=()
  while [ "$1" != "--" ]; do env+=(-x "$1"); shift; done
  shift
  "${mpi[@]}" "${env[@]}" -n "$n" "$sim" bench gliding --backend cuda "$@" --repeats 5 \
    --json "$out/$name-$n.json" > "$out/$name-$n.log" 2>&1 ||
    { echo "$name on $n ranks failed:"; tail -5 "$out/$name-$n.log"; }
  return 0
}
for r in "${resolutions[@]}"; do
  n=${r%x*} inner=${r#*x}
  # 20 outer steps per repeat as the one-GPU benchmark (sim/models/gliding/gliding_bench.cpp);
  # the motors burnt in for 1/koff at reset.
  args=(--set grid.n=$n --set grid.ninner=$inner --set motors.burn_in=0.5 --steps 20)
  for g in "${gpus[@]}"; do
    run "fig6-$r" "$g" -- "${args[@]}"
    if [ -n "${MPI_TOO:-}" ] && [ "$g" -gt 1 ] && [ "$r" = 256x32 ]; then
      run "fig6-$r-mpi" "$g" CELLFORGE_NCCL=0 -- "${args[@]}"
    fi
  done
done
python3 - "$out" <<'EOF'
import glob, json, os, re, sys
out = sys.argv[1]
runs = {}
for path in glob.glob(os.path.join(out, "*.json")):
    m = re.match(r"(.*)-(\d+)\.json$", os.path.basename(path))
    runs[(m.group(1), int(m.group(2)))] = json.load(open(path))
def key(name):
    n, inner = re.match(r"fig6-(\d+)x(\d+)", name).groups()
    return (int(n), int(inner), name)
print(f"{'case':<18}{'GPUs':>5}{'ms/step':>10}{'filaments':>10}{'motors':>9}{'force':>8}"
      f"{'fluid':>8}{'speed-up':>9}{'eff motors':>11}{'eff force':>10}  sum")
for name in sorted({k[0] for k in runs}, key=key):
    base = runs.get((name.replace("-mpi", ""), 1))
    for n in sorted(k[1] for k in runs if k[0] == name):
        r = runs[(name, n)]
        ms = 1e3 * r["median_s"] / r["steps_per_repeat"]
        st = r.get("stages_ms", {})
        row = f"{name:<18}{n:>5}{ms:>10.3f}"
        for s in ("filaments", "motors", "force", "fluid"):
            row += f"{st.get(s, float('nan')):>{10 if s == 'filaments' else 9 if s == 'motors' else 8}.3f}"
        if base:
            b = base.get("stages_ms", {})
            bms = 1e3 * base["median_s"] / base["steps_per_repeat"]
            eff = lambda s: 100 * b[s] / (n * st[s]) if st.get(s) else float("nan")
            row += f"{bms / ms:>8.2f}x{eff('motors'):>10.1f}%{eff('force'):>9.1f}%"
        row += "  " + (r["halo_transport"] if n > 1 else "none")
        print(row)
print("device:", runs[next(iter(runs))]["rank_devices"][0])
EOF
