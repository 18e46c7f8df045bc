#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Obstructed and in-vivo diffusion on the lattice (Roberts et al. 2009, Fig. 4 and Fig. 5):
#   tools/docs/lattice_crowding.sh CELLFORGE_SIM OUTDIR [--backend cuda|cpu] [--size full|reduced]
#                                  [--replot]
# (--replot: analyse and draw the runs already in OUTDIR, run nothing.)
#
# Fig. 4: tracers of in-vitro D0 = 100 nm^2/us among hard-sphere obstacles of radius 1, 2, 5,
# 10, 20, 50 and 100 nm at 10, 20 and 30 % of the volume; D(t)/D0 = MSD(t) / (6 D0 t) against
# t. Each radius gets its own lattice spacing lambda = max(1 nm, r / R) (R = 2 sites reduced,
# 4 full), so an obstacle spans a few sites and the periodic box of L^3 sites holds hundreds
# of them; tau = lambda^2 / (4 D0) keeps q = D0 tau / lambda^2 = 0.25 (the paper's case 1).
# 1 nm is the finest spacing used (the paper's finest, its Fig. 3; a site already smaller than
# the proteins it holds), so 1 and 2 nm obstacles span only 1 and 2 sites. Fig. 5: the in-vivo classes (obstacles.shape = invivo, 30 %) at
# lambda = 2 nm (reduced) or 1 nm (full), replicates with different seeds, against free
# diffusion at the same spacing.
#
# Writes OUTDIR/runs/* (every run's series.csv, run.json and log; the end-of-run checkpoints,
# up to 600 MB each at full size, are deleted), OUTDIR/curves/*.csv (t_us, d_ratio = D/D0, per
# case), OUTDIR/lattice-crowding-SIZE.csv (per radius and fraction: spacing, obstructed share,
# D/D0 at the first step and the end, long-time D/D0 from the MSD slope over the second half,
# crossover time), OUTDIR/lattice-invivo-SIZE.csv (per replicate and free) and
# OUTDIR/lattice-crowding-SIZE.txt (the numbers docs/LATTICE.md quotes); draws, with
# plot_svg.py, into docs/images/figures/: lattice-crowding-10-reduced.svg,
# lattice-crowding-20-reduced.svg, lattice-crowding-30-reduced.svg and
# lattice-invivo-reduced.svg (--size full: lattice-crowding-10-full.svg,
# lattice-crowding-20-full.svg, lattice-crowding-30-full.svg, lattice-invivo-full.svg), and
# copies the two summary CSVs there (lattice-crowding-reduced.csv, lattice-invivo-reduced.csv;
# --size full: lattice-crowding-full.csv, lattice-invivo-full.csv).
# Cost, in site updates (sites x steps): reduced 5.0e8, about 3 minutes on two shared CPU cores
# (2026-11-28, 2.9e6 site updates per second with the runs' start-up); full 8.2e11, about 1.5
# minutes of stepping on one H100 at ~1e10 site updates per second (docs/reference/performance-history.md) plus
# 52 process starts with their obstacle placement and checkpoint (~1 s each): 3-4 minutes.
set -euo pipefail

usage() {
    echo "usage: $0 CELLFORGE_SIM OUTDIR [--backend cuda|cpu] [--size full|reduced] [--replot]" >&2
    exit 2
}
[[ $# -ge 2 ]] || usage
SIM=$(realpath "$1")
OUT=$(mkdir -p "$2" && realpath "$2")
shift 2
BACKEND=cpu
SIZE=reduced
REPLOT=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --replot) REPLOT=1; shift ;;
        --backend) [[ $# -ge 2 ]] || usage; BACKEND=$2; shift 2 ;;
        --size) [[ $# -ge 2 ]] || usage; SIZE=$2; shift 2 ;;
        *) usage ;;
    esac
done
[[ $BACKEND == cpu || $BACKEND == cuda ]] || usage
[[ $SIZE == full || $SIZE == reduced ]] || usage
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
FIG=$ROOT/docs/images/figures
PLOT=(python3 "$HERE/plot_svg.py")
mkdir -p "$FIG" "$OUT/runs" "$OUT/curves"
START=$SECONDS

if [[ $REPLOT -eq 0 ]]; then
# The cases, one scenario file each: OUTDIR/runs/NAME.toml, listed with their steps in
# OUTDIR/cases.txt. A case longer than 1000 steps runs twice with the same seed: its first 100
# steps with a series row every step (the short times of the log axis), then whole with 200
# rows; the runs are deterministic, so the first is the second's beginning.
python3 - "$OUT" "$SIZE" "$BACKEND" << 'EOF'
import os, sys
out, size, backend = sys.argv[1:4]
D0, Q = 100.0, 0.25  # nm^2/us; q = D0 tau / lambda^2
if size == "reduced":
    L, R, steps, tracers = 32, 2.0, 500, 8000
    vL, vlam, vsteps, vtracers, vreps = 40, 2.0, 500, 8000, 4
else:
    L, R, steps, tracers = 128, 4.0, 12000, 50000
    vL, vlam, vsteps, vtracers, vreps = 192, 1.0, 8000, 200000, 4
def toml(name, seed, n, lam, nsteps, every, ntr, extra):
    tau = Q * lam * lam / D0 * 1000.0  # ns
    text = f"""model = "lattice"
seed = {seed}
backend = "{backend}"
steps = {nsteps}
[output]
dir = "{name}"
snapshot_every = 0
series_every = {every}
checkpoint_every = 0
[parameters.lattice]
nx = {n}
ny = {n}
nz = {n}
lambda = {lam!r}
tau = {tau!r}
layout = "byte16"
{extra.get("lattice", "")}
[parameters.obstacles]
{extra.get("obstacles", "")}
[parameters.species]
count = 1
names = "tracer"
d1 = {D0}
n1 = {ntr}
[parameters.tracking]
per_species = {ntr}
"""
    with open(os.path.join(out, "runs", name + ".toml"), "w") as f:
        f.write(text)
cases = []
def add(name, seed, n, lam, nsteps, ntr, extra):
    if nsteps > 1000:
        toml(name + "-early", seed, n, lam, 100, 1, ntr, extra)
        cases.append(name + "-early")
        toml(name, seed, n, lam, nsteps, nsteps // 200, ntr, extra)
    else:
        toml(name, seed, n, lam, nsteps, 1, ntr, extra)
    cases.append(name)
seed = 100
for frac in (10, 20, 30):
    for r in (1, 2, 5, 10, 20, 50, 100):
        lam = max(1.0, r / R)
        seed += 1
        add(f"r{r}-f{frac}", seed, L, lam, steps, tracers,
            {"lattice": f"obstacle_fraction = {frac / 100}",
             "obstacles": f'shape = "spheres"\nradius = {float(r)}'})
for k in range(vreps):
    add(f"invivo-{k + 1}", 500 + k, vL, vlam, vsteps, vtracers,
        {"lattice": "obstacle_fraction = 0.3", "obstacles": 'shape = "invivo"'})
add("free", 600, vL, vlam, vsteps, vtracers, {})
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(cases) + "\n")
EOF

n=0
total=$(wc -l < "$OUT/cases.txt")
while read -r name; do
    n=$((n + 1))
    printf 'lattice_crowding.sh: run %d/%d %s (%d s)\n' "$n" "$total" "$name" $((SECONDS - START))
    rm -rf "${OUT:?}/runs/$name"
    if ! "$SIM" run "$OUT/runs/$name.toml" --backend "$BACKEND" --out "$OUT/runs/$name" \
        > "$OUT/runs/$name.log" 2>&1; then
        echo "lattice_crowding.sh: run '$name' failed; its log:" >&2
        tail -n 30 "$OUT/runs/$name.log" >&2
        exit 1
    fi
    rm -f "$OUT/runs/$name/checkpoint.cfchk"
done < "$OUT/cases.txt"
fi
total=$(wc -l < "$OUT/cases.txt")

python3 "$HERE/lattice_crowding_analysis.py" "$OUT" "$SIZE" "$BACKEND"
cp "$OUT/lattice-crowding-$SIZE.csv" "$OUT/lattice-invivo-$SIZE.csv" "$FIG/"

for frac in 10 20 30; do
    # Maxwell's continuum estimate for point tracers among impermeable spheres (also the
    # Hashin-Shtrikman upper bound): D/D0 = 1 / (1 + phi / 2).
    maxwell=$(python3 -c "print(1 / (1 + $frac / 200))")
    args=()
    for r in 1 2 5 10 20 50 100; do
        args+=(--line "$OUT/curves/r$r-f$frac.csv" t_us d_ratio "r = $r nm")
    done
    "${PLOT[@]}" --out "$FIG/lattice-crowding-$frac-$SIZE.svg" \
        --title "Lattice: D(t)/D0 among hard spheres, $frac % of the volume ($SIZE, $BACKEND)" \
        --xlabel "time t [µs] (log scale)" --ylabel "D(t) / D0 = MSD / (6 D0 t)" --xlog \
        --ymin 0.3 --ymax 1.0 --legend br "${args[@]}" \
        --hline "$maxwell" "continuum (Maxwell): 1 / (1 + φ/2)"
done
"${PLOT[@]}" --out "$FIG/lattice-invivo-$SIZE.svg" \
    --title "Lattice: in-vivo crowders (30 %) against free diffusion ($SIZE, $BACKEND)" \
    --xlabel "time t [µs] (log scale)" --ylabel "D(t) / D0 = MSD / (6 D0 t)" --xlog \
    --ymin 0.3 --ymax 1.05 --legend bl \
    --line "$OUT/curves/free.csv" t_us d_ratio "free diffusion" \
    --line "$OUT/curves/invivo-mean.csv" t_us d_ratio "in vivo, mean of replicates" \
    --hline "$(cat "$OUT/invivo.plateau")" "in vivo, long-time D/D0"
echo "lattice_crowding.sh: $SIZE on $BACKEND, $total runs, $((SECONDS - START)) s; figures in $FIG"
