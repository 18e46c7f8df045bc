#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Strong and weak scaling of the distributed cardiac tissue on the GPUs of one host
# (docs/SCALING.md): `cellforge-sim bench cardiac --set ... --steps N` under mpirun on 1, 2
# and 4 ranks, one GPU each; JSON per run in OUT, a table last.
#   usage: tests/gpu/scaling.sh CELLFORGE_SIM OUT [GPUS...]   (default GPUS: 1 2 4)
set -euo pipefail
sim=$1 out=$2
shift 2
gpus=("${@:-1 2 4}")
[ $# -eq 0 ] && gpus=(1 2 4)
mkdir -p "$out"
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
# TP06 with the N-version benchmark's tissue (D along and across x, mm^2/ms) at dx 0.1 mm.
tp06=(--set model.bundled=tentusscher_2006 --set model.precision=float --set time.dt=0.01
      --set tissue.dx=0.1 --set tissue.diffusion_long=0.0952983725
      --set tissue.diffusion_trans=0.0125758411 --set tissue.fibre_axis=x
      --set protocol.region=corner --set protocol.region_size=1.5
      --set protocol.amplitude=-35.714285714 --set protocol.duration=2 --set protocol.beats=1
      --set protocol.cycle_length=0 --set protocol.start=0)
run() {  # run NAME RANKS ARGS...: one measurement (halos through NCCL where it is installed)
  local name=$1 n=$2
  shift 2
  "${mpi[@]}" -n "$n" "$sim" bench cardiac --backend cuda "$@" --json "$out/$name-$n.json" \
    > "$out/$name-$n.log" 2>&1 || { echo "$name on $n ranks failed:"; tail -5 "$out/$name-$n.log"; }
  # The same through MPI (pinned host buffers), for the comparison.
  [ "$n" -gt 1 ] && "${mpi[@]}" -x CELLFORGE_NCCL=0 -n "$n" "$sim" bench cardiac --backend cuda "$@" \
    --json "$out/$name-mpi-$n.json" > "$out/$name-mpi-$n.log" 2>&1
  return 0
}
for n in "${gpus[@]}"; do
  # Strong: 800 x 250 x 250 = 5.0e7 nodes whatever the ranks.
  run strong "$n" "${tp06[@]}" --set tissue.nx=800 --set tissue.ny=250 --set tissue.nz=250 \
    --steps 20 --repeats 5
  # Weak: 200 x 250 x 250 = 1.25e7 nodes per rank.
  run weak "$n" "${tp06[@]}" --set tissue.nx=$((200 * n)) --set tissue.ny=250 --set tissue.nz=250 \
    --steps 20 --repeats 5
  # The N-version benchmark at dx 0.05 mm, dt 0.0025 ms: 401 x 141 x 61 = 3.45e6 nodes.
  run nversion "$n" "${tp06[@]}" --set tissue.dx=0.05 --set time.dt=0.0025 --set tissue.nx=401 \
    --set tissue.ny=141 --set tissue.nz=61 --steps 200 --repeats 5
done
python3 - "$out" "${gpus[@]}" <<'PY'
import json, sys, os
out, gpus = sys.argv[1], [int(g) for g in sys.argv[2:]]
print(f"{'case':12} {'ranks':>5} {'nodes':>12} {'ms/step':>9} {'Gnode-steps/s':>14} {'efficiency':>10} {'MPI wait':>9}  halos")
for case in ("strong", "strong-mpi", "weak", "weak-mpi", "nversion", "nversion-mpi"):
    base = None
    for n in gpus:
        p = os.path.join(out, f"{case}-{n}.json")
        if n == 1 and case.endswith("-mpi"):
            p = os.path.join(out, f"{case[:-4]}-1.json")
        if not os.path.exists(p):
            print(f"{case:12} {n:5} (failed)"); continue
        d = json.load(open(p))
        ms = 1e3 * d["median_s"] / d["steps_per_repeat"]
        if base is None: base = (n, ms)
        if case.startswith("weak"): eff = base[1] / ms
        else: eff = base[1] * base[0] / (ms * n)
        print(f"{case:12} {n:5} {d['entities']:12d} {ms:9.3f} {d['entity_steps_per_s']/1e9:14.3f} {100*eff:9.1f}% {100*d['halo_wait_share']:8.1f}%  {d.get('halo_transport', '')}")
PY
