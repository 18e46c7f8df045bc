#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Strong and weak scaling of the distributed cardiac tissue and lattice on the GPUs of one
# host (docs/SCALING.md): `cellforge-sim bench MODEL --set ... --steps N` under mpirun on 1,
# 2 and 4 ranks, one GPU each; JSON per run in OUT, a table last.
#   usage: tests/gpu/scaling.sh CELLFORGE_SIM OUT [GPUS...]   (default GPUS: 1 2 4)
#   MODELS="cardiac lattice" (default) picks the models measured.
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
# The lattice diffusion benchmark's case (sim/models/lattice/lattice_bench.cpp, sweepCase):
# periodic, 2 species at 0.05 particles per site each, no tracking (no overflows at this
# occupancy: the common step, all on the GPUs). lattice_args LAYOUT N_MAX SITES
lattice_args() {
  echo --set lattice.layout=$1 --set lattice.n_max=$2 --set lattice.lambda=2 \
    --set lattice.tau=10 --set species.count=2 --set species.d1=100 --set species.d2=50 \
    --set species.n1=$(($3 / 20)) --set species.n2=$(($3 / 20)) --set tracking.per_species=0
}
run() {  # run MODEL NAME RANKS ARGS...: one measurement (halos through NCCL where installed)
  local model=$1 name=$2 n=$3
  shift 3
  "${mpi[@]}" -n "$n" "$sim" bench "$model" --backend cuda "$@" --json "$out/$name-$n.json" \
    > "$out/$name-$n.log" 2>&1 || { echo "$name on $n ranks failed:"; tail -5 "$out/$name-$n.log"; }
  # The same through MPI (pinned host buffers), for the comparison (NCCL_ONLY=1: not).
  [ "$n" -gt 1 ] && [ -z "${NCCL_ONLY:-}" ] && { "${mpi[@]}" -x CELLFORGE_NCCL=0 -n "$n" "$sim" bench "$model" --backend cuda \
    "$@" --json "$out/$name-mpi-$n.json" > "$out/$name-mpi-$n.log" 2>&1 ||
    { echo "$name-mpi on $n ranks failed:"; tail -5 "$out/$name-mpi-$n.log"; }; }
  return 0
}
models=" ${MODELS:-cardiac lattice} "
for n in "${gpus[@]}"; do
  if [[ $models == *" cardiac "* ]]; then
  # Strong: 800 x 250 x 250 = 5.0e7 nodes whatever the ranks.
  run cardiac strong "$n" "${tp06[@]}" --set tissue.nx=800 --set tissue.ny=250 --set tissue.nz=250 \
    --steps 20 --repeats 5
  # Weak: 200 x 250 x 250 = 1.25e7 nodes per rank.
  run cardiac weak "$n" "${tp06[@]}" --set tissue.nx=$((200 * n)) --set tissue.ny=250 --set tissue.nz=250 \
    --steps 20 --repeats 5
  # The N-version benchmark at dx 0.05 mm, dt 0.0025 ms: 401 x 141 x 61 = 3.45e6 nodes.
  run cardiac nversion "$n" "${tp06[@]}" --set tissue.dx=0.05 --set time.dt=0.0025 --set tissue.nx=401 \
    --set tissue.ny=141 --set tissue.nz=61 --steps 200 --repeats 5
  fi
  [[ $models == *" lattice "* ]] || continue
  # Lattice, strong: 512 x 512 x 1024 = 2.68e8 sites whatever the ranks (z-slabs of 1024 / n
  # planes), both layouts of the diffusion benchmark.
  big=$((512 * 512 * 1024))
  [ -n "${BYTE16_ONLY:-}" ] || run lattice lattice-strong "$n" $(lattice_args packed32 4 $big) --set lattice.nx=512 \
    --set lattice.ny=512 --set lattice.nz=1024 --steps 50 --repeats 5
  run lattice lattice-strong-byte16 "$n" $(lattice_args byte16 8 $big) --set lattice.nx=512 \
    --set lattice.ny=512 --set lattice.nz=1024 --steps 50 --repeats 5
  # Lattice, weak: 512 x 512 x 256 = 6.7e7 sites per rank.
  [ -n "${BYTE16_ONLY:-}" ] || run lattice lattice-weak "$n" $(lattice_args packed32 4 $((512 * 512 * 256 * n))) \
    --set lattice.nx=512 --set lattice.ny=512 --set lattice.nz=$((256 * n)) --steps 50 --repeats 5
  run lattice lattice-weak-byte16 "$n" $(lattice_args byte16 8 $((512 * 512 * 256 * n))) \
    --set lattice.nx=512 --set lattice.ny=512 --set lattice.nz=$((256 * n)) --steps 50 --repeats 5
done
python3 - "$out" "${gpus[@]}" <<'PY'
import json, sys, os
out, gpus = sys.argv[1], [int(g) for g in sys.argv[2:]]
print(f"{'case':24} {'ranks':>5} {'nodes/sites':>12} {'ms/step':>9} {'G entity-steps/s':>16} {'efficiency':>10} {'MPI wait':>9}  halos")
cases = ("strong", "weak", "nversion", "lattice-strong", "lattice-strong-byte16", "lattice-weak",
         "lattice-weak-byte16")
for case in [c + m for c in cases for m in ("", "-mpi")]:
    base = None
    for n in gpus:
        p = os.path.join(out, f"{case}-{n}.json")
        if n == 1 and case.endswith("-mpi"):
            p = os.path.join(out, f"{case[:-4]}-1.json")
        if not os.path.exists(p):
            if os.path.exists(p.replace(".json", ".log")): print(f"{case:24} {n:5} (failed)")
            continue
        d = json.load(open(p))
        ms = 1e3 * d["median_s"] / d["steps_per_repeat"]
        if base is None: base = (n, ms)
        if "weak" in case: eff = base[1] / ms
        else: eff = base[1] * base[0] / (ms * n)
        print(f"{case:24} {n:5} {d['entities']:12d} {ms:9.3f} {d['entity_steps_per_s']/1e9:16.3f} {100*eff:9.1f}% {100*d['halo_wait_share']:8.1f}%  {d.get('halo_transport', '')}")
PY
