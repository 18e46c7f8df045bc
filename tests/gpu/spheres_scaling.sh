#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Scaling of `spheres` over the GPUs of one host (docs/SPHERES.md, "Spheres over ranks"):
# `cellforge-sim bench spheres --backend cuda --set ... --steps N` under mpirun on 1, 2 and
# 4 ranks, one GPU each; JSON and log per run in OUT, a table last.
#   usage: tests/gpu/spheres_scaling.sh CELLFORGE_SIM OUT [GPUS...]   (default GPUS: 1 2 4)
# Cases (about 5 minutes on 4 H100s, most of it the host making the initial populations):
#   circles-weak    the circles case (sim/models/spheres/spheres_bench.cpp) at 2.5e7 agents
#                   per GPU: 1 agent/um^3, D = rc = 2 um, frozen, growth off (1e8 on 4)
#   bench-a-strong  benchmark A's lattice (spacing 20, D 30, growth on) at 256^3 = 1.68e7
#                   cells whatever the ranks
#   spheroid-weak   the growing spheroid (spheroid-10k scaled) at 1e6 cells per GPU
# Memory: 2.5e7 agents take ~8 GB of an 80 GB card (capacity 2 N); each rank makes the whole
# initial population on the host first (~6 GB at 1e8).
# Smaller runs (a smoke test, or CPU ranks): CIRCLES_PER_GPU, A_AXIS, SPHEROID_PER_GPU and
# BACKEND (default cuda) in the environment.
set -euo pipefail
sim=$1 out=$2
shift 2
gpus=("$@")
[ $# -eq 0 ] && gpus=(1 2 4)
mkdir -p "$out"
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
run() {  # run NAME RANKS ARGS...: one measurement, at most 150 s
  local name=$1 n=$2
  shift 2
  timeout 150 "${mpi[@]}" -n "$n" "$sim" bench spheres --backend "${BACKEND:-cuda}" "$@" \
    --json "$out/$name-$n.json" > "$out/$name-$n.log" 2>&1 ||
    { echo "$name on $n ranks failed:"; tail -5 "$out/$name-$n.log"; }
  return 0
}
box() {  # box COUNT: the edge of a cube of COUNT agents at 1 agent/um^3
  python3 -c "print(f'{($1) ** (1 / 3):.6f}')"
}
for n in "${gpus[@]}"; do
  count=$((${CIRCLES_PER_GPU:-25000000} * n))
  run circles-weak "$n" --set init.layout=random --set init.count=$count \
    --set init.box="$(box $count)" --set init.diameter=2 --set mechanics.max_displacement=0 \
    --set growth.enabled=false --set domain.margin=0 --steps 10 --repeats 3
  run bench-a-strong "$n" --set init.layout=lattice --set init.cells_per_axis=${A_AXIS:-256} \
    --steps 10 --repeats 3
  cells=$((${SPHEROID_PER_GPU:-1000000} * n))
  radius=$(python3 -c "print(f'{383 * ($cells / 1e4) ** (1 / 3):.3f}')")
  run spheroid-weak "$n" --set init.layout=ball --set init.count=$cells \
    --set init.radius="$radius" --set init.age_spread=1 --set growth.rate=3000 \
    --set domain.margin=200 --steps 10 --repeats 3
done
python3 - "$out" "${gpus[@]}" <<'PY'
import json, sys, os
out, gpus = sys.argv[1], [int(g) for g in sys.argv[2:]]
print(f"{'case':16} {'ranks':>5} {'agents':>11} {'ms/step':>9} {'G agent-steps/s':>15} {'efficiency':>10} {'MPI wait':>9}")
for case in ("circles-weak", "bench-a-strong", "spheroid-weak"):
    base = None
    for n in gpus:
        p = os.path.join(out, f"{case}-{n}.json")
        if not os.path.exists(p):
            if os.path.exists(p.replace(".json", ".log")): print(f"{case:16} {n:5} (failed)")
            continue
        d = json.load(open(p))
        ms = 1e3 * d["median_s"] / d["steps_per_repeat"]
        if base is None: base = (n, ms)
        # Weak: the same time per step is 100 %; strong: n times faster is 100 %.
        eff = base[1] / ms if "weak" in case else base[1] * base[0] / (ms * n)
        print(f"{case:16} {n:5} {d['entities']:11d} {ms:9.3f} {d['entity_steps_per_s']/1e9:15.3f} {100*eff:9.1f}% {100*d['halo_wait_share']:8.1f}%")
PY
