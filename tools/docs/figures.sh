#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Validation figures for the model pages, made from Cellforge's own runs:
#   tools/docs/figures.sh CELLFORGE_SIM OUTDIR
# Short CPU runs of the bundled scenarios (assets/scenarios/*.toml, shrunk with --set/--steps)
# go to OUTDIR; docs/images/figures/*.svg are drawn by tools/docs/plot_svg.py; the measured
# agreement of every figure is printed and kept in OUTDIR/agreement.txt (the captions in
# docs/*.md quote it). Every reference curve is computed here from the parameters the run
# actually used (its scenario.toml). Needs python3 (3.11: tomllib) and h5dump (Debian's
# hdf5-tools) for the two figures read from snapshots. The crowding figures (Roberts et al.
# 2009, Fig. 4 and 5) come from tools/docs/lattice_crowding.sh at its reduced size, into
# OUTDIR/lattice-crowding. About 5 minutes on two shared cores (Debian 12, 2026-11-28), 3 to 5
# of them the crowding runs (1.5 minutes without them, 2026-11-23).
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 CELLFORGE_SIM OUTDIR" >&2
    exit 2
fi
SIM=$(realpath "$1")
OUT=$(mkdir -p "$2" && realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export ROOT
SC=$ROOT/assets/scenarios
FIG=$ROOT/docs/images/figures
PLOT=(python3 "$HERE/plot_svg.py")
command -v h5dump > /dev/null || { echo "figures.sh: h5dump not found (apt-get install hdf5-tools)" >&2; exit 2; }
mkdir -p "$FIG"
: > "$OUT/agreement.txt"
START=$SECONDS

# run NAME SCENARIO ARGS...: one CPU run into OUTDIR/NAME; its log is shown when it fails.
run() {
    local name=$1 scenario=$2
    shift 2
    rm -rf "${OUT:?}/$name"
    if ! "$SIM" run "$SC/$scenario" --backend cpu --out "$OUT/$name" "$@" > "$OUT/$name.log" 2>&1; then
        echo "figures.sh: run '$name' ($scenario $*) failed; its log:" >&2
        tail -n 30 "$OUT/$name.log" >&2
        exit 1
    fi
}

# Shared Python: scenario parameters, series columns, snapshot datasets, the agreement log.
read -r -d '' PYLIB << 'EOF' || true
import csv, glob, math, os, struct, subprocess, sys, tempfile, tomllib
OUT = sys.argv[1]
def scenario(name):
    with open(os.path.join(OUT, name, "scenario.toml"), "rb") as f:
        return tomllib.load(f)
def param(name, group, key):
    return scenario(name)["parameters"][group][key]
def series(name):
    with open(os.path.join(OUT, name, "series.csv"), newline="") as f:
        rows = list(csv.reader(f))
    cols = {h: [float(r[i]) for r in rows[1:]] for i, h in enumerate(rows[0])}
    return cols
def write_csv(path, header, rows):
    with open(os.path.join(OUT, path), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
def h5read(path, dset, fmt):
    # h5dump writes the dataset's raw little-endian values; fmt is its struct code
    with tempfile.TemporaryDirectory() as d:
        binf = os.path.join(d, "x.bin")
        subprocess.run(["h5dump", "-d", dset, "-b", "LE", "-o", binf, path], check=True,
                       stdout=subprocess.DEVNULL)
        b = open(binf, "rb").read()
    return struct.unpack(f"<{len(b) // struct.calcsize(fmt)}{fmt}", b)
def agree(line):
    print(line)
    with open(os.path.join(OUT, "agreement.txt"), "a") as f:
        f.write(line + "\n")
EOF
py() { { printf '%s\n' "$PYLIB"; cat; } | python3 - "$OUT"; }

# ---------------------------------------------------------------- lattice
echo "== lattice: free diffusion (MSD = 6 D t)"
run lat-msd lattice-free-diffusion.toml --every 0 --set lattice.nx=32 --set lattice.ny=32 \
    --set lattice.nz=32 --set species.n1=4000 --set species.n2=4000 --set species.n3=4000 \
    --set tracking.per_species=4000
py << 'EOF'
s = series("lat-msd")
t = s["time [us]"]
rows, refs = [], []
for k in (1, 2, 3):
    D = param("lat-msd", "species", f"d{k}")  # nm^2/us
    msd = s[f"msd_s{k} [nm^2]"]
    # least squares through the origin, MSD = 6 D_fit t; and the last point
    dfit = sum(a * b for a, b in zip(t, msd)) / sum(a * a for a in t) / 6
    agree(f"lattice MSD D={D:g} nm^2/us: fitted D {dfit:.2f} ({100 * (dfit / D - 1):+.2f} %), "
          f"at t={t[-1]:.1f} us {100 * (msd[-1] / (6 * D * t[-1]) - 1):+.2f} %")
for i in range(1, len(t)):
    ds = [param("lat-msd", "species", f"d{k}") for k in (1, 2, 3)]
    # reference: the exact MSD of the lattice walk, 6 D t (docs/LATTICE.md)
    rows.append([t[i]] + [s[f"msd_s{k} [nm^2]"][i] for k in (1, 2, 3)] + [6 * d * t[i] for d in ds])
write_csv("lat-msd.csv", ["t", "m1", "m2", "m3", "r1", "r2", "r3"], rows)
EOF
"${PLOT[@]}" --out "$FIG/lattice-msd.svg" --title "Lattice: free diffusion, 32³ sites, 4000 tracked per species" \
    --xlabel "time t [µs]" --ylabel "mean squared displacement [nm²]" --xlog --ylog \
    --points "$OUT/lat-msd.csv" t m1 "D = 100 nm²/µs" --ref "$OUT/lat-msd.csv" t r1 "6 D t" \
    --points "$OUT/lat-msd.csv" t m2 "D = 50 nm²/µs" --ref "$OUT/lat-msd.csv" t r2 "6 D t" \
    --points "$OUT/lat-msd.csv" t m3 "D = 10 nm²/µs" --ref "$OUT/lat-msd.csv" t r3 "6 D t"

echo "== lattice: A + B <-> C against mass action and the master equation"
run lat-bim lattice-bimolecular.toml --steps 24000
py << 'EOF'
s = series("lat-bim")
sp, la, rx = (scenario("lat-bim")["parameters"][g] for g in ("species", "lattice", "reactions"))
# "A + B -> C @ kf; C -> A + B @ kr" with kf in /M/s, kr in /s
parts = [p.split("@") for p in rx["network"].split(";")]
kf, kr = float(parts[0][1]), float(parts[1][1])
NA = 6.02214076e23
V = la["nx"] * la["ny"] * la["nz"] * (la["lambda"] * 1e-8) ** 3  # litres (1 nm = 1e-8 dm)
k1 = kf / (NA * V)  # per molecule pair and second
A0, B0 = int(sp["n1"]), int(sp["n2"])
assert A0 == B0 and sp["n3"] == 0, "the reference below assumes A0 = B0 and no C at start"
# mass action: dC/dt = k1 (A0 - C)^2 - kr C, RK4 with 1 ms steps
ode, c, h = [], 0.0, 1e-3
f = lambda c: k1 * (A0 - c) ** 2 - kr * c
tend = s["time [us]"][-1] * 1e-6
for n in range(int(round(tend / h)) + 1):
    if n % 100 == 0:
        ode.append([n * h, c])
    a1 = f(c); a2 = f(c + h / 2 * a1); a3 = f(c + h / 2 * a2); a4 = f(c + h * a3)
    c += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
write_csv("lat-bim-ode.csv", ["t", "C"], ode)
# chemical master equation, stationary: a birth-death chain in C with birth k1 (A0-C)^2 and
# death kr C, so p(C+1)/p(C) = k1 (A0-C)^2 / (kr (C+1))
logp, lp = [0.0], 0.0
for n in range(A0):
    lp += math.log(k1 * (A0 - n) ** 2 / (kr * (n + 1)))
    logp.append(lp)
m = max(logp)
w = [math.exp(x - m) for x in logp]
Z = sum(w)
cme_mean = sum(n * x for n, x in enumerate(w)) / Z
cme_var = sum(n * n * x for n, x in enumerate(w)) / Z - cme_mean ** 2
t = [x * 1e-6 for x in s["time [us]"]]
C = s["count_C [1]"]
write_csv("lat-bim.csv", ["t", "C"], list(zip(t, C)))
late = [c for tt, c in zip(t, C) if tt >= 10.0]  # 10 s = ~15 relaxation times
mean = sum(late) / len(late)
var = sum((x - mean) ** 2 for x in late) / (len(late) - 1)
with open(os.path.join(OUT, "lat-bim.level"), "w") as f:
    f.write(f"{cme_mean}\n")
agree(f"lattice A+B<->C: <C> over t>=10 s {mean:.1f} (variance {var:.1f}); CME mean "
      f"{cme_mean:.2f} (variance {cme_var:.1f}); mass-action steady state {ode[-1][1]:.2f}")
EOF
"${PLOT[@]}" --out "$FIG/lattice-bimolecular.svg" --title "Lattice: A + B ⇌ C, 8³ sites of 125 nm (1 fl)" \
    --xlabel "time [s]" --ylabel "number of C molecules [1]" --legend br --black-refs \
    --line "$OUT/lat-bim.csv" t C "lattice (CPU)" \
    --ref "$OUT/lat-bim-ode.csv" t C "mass-action ODE" \
    --hline "$(cat "$OUT/lat-bim.level")" "master-equation mean"

echo "== lattice: obstructed and in-vivo diffusion (reduced size; --size full on a GPU)"
bash "$HERE/lattice_crowding.sh" "$SIM" "$OUT/lattice-crowding" --backend cpu --size reduced
cat "$OUT/lattice-crowding/lattice-crowding-reduced.txt" >> "$OUT/agreement.txt"

# ---------------------------------------------------------------- spheres
echo "== spheres: growth and division of benchmark A (16^3 cells)"
run sph spheres-benchmark-a.toml --steps 1000 --set init.cells_per_axis=16 --set time.dt=0.1
py << 'EOF'
s = series("sph")
p = scenario("sph")["parameters"]
D0, Dd, r, dt = p["init"]["diameter"], p["growth"]["division_diameter"], p["growth"]["rate"], p["time"]["dt"]
# every cell grows by r dt um^3 per step, so before any division
#   D(t) = (D0^3 + 6 r t / pi)^(1/3), and cells divide once V exceeds pi Dd^3 / 6:
#   t_div = pi (Dd^3 - D0^3) / (6 r)
tdiv = math.pi * (Dd ** 3 - D0 ** 3) / (6 * r)
t, d, n = s["time [h]"], s["mean_diameter [um]"], s["cells [1]"]
ref = [[x, (D0 ** 3 + 6 * r * x / math.pi) ** (1 / 3)] for x in t if x <= tdiv]
write_csv("sph-ref.csv", ["t", "D"], ref)
write_csv("sph.csv", ["t", "D"], list(zip(t, d)))
err = max(abs(a - b) for (x, b), a in zip(ref, d))
first = next(i for i, c in enumerate(n) if c > n[0])
with open(os.path.join(OUT, "sph.tdiv"), "w") as f:
    f.write(f"{tdiv}\n")
agree(f"spheres: max |D - D(t)| before division {err:.2e} um; predicted division at "
      f"t = {tdiv:.3f} h (step {tdiv / dt:.1f}); cells {n[0]:.0f} -> {n[first]:.0f} at step "
      f"{s['step'][first]:.0f}")
EOF
"${PLOT[@]}" --out "$FIG/spheres-growth.svg" --title "Spheres: benchmark A at 16³ cells, growth 300 µm³/h" \
    --xlabel "time [h]" --ylabel "mean cell diameter [µm]" --legend tl --black-refs \
    --points "$OUT/sph.csv" t D "CPU run" \
    --ref "$OUT/sph-ref.csv" t D "(D0³ + 6 r t / π)^(1/3)" \
    --vline "$(cat "$OUT/sph.tdiv")" "predicted division"

# ---------------------------------------------------------------- epidermis
echo "== epidermis: settling on the basement membrane"
run epi epidermis-movement.toml --every 0 --steps 30000 --set init.cells=1 \
    --set init.adhesive_per_cell=20
py << 'EOF'
s = series("epi")
m = scenario("epi")["parameters"]["mechanics"]
U0, xi1, W0, xi2 = m["intra_u0"], m["intra_xi1"], m["intra_w0"], m["intra_xi2"]
# The membrane law f(z) = V(z) z with V(z) = U0 e^{-z/xi1} - W0 e^{-z/xi2} (Table 1, the
# code's mapping) vanishes at z* = ln(U0/W0) / (1/xi1 - 1/xi2). Intracellular forces cancel
# in the sum over a cell, so its mean height obeys dz/dt = <f(z_i)>; the reference curve
# treats the cell as a point, dz/dt = f(z) (RK4).
zs = math.log(U0 / W0) / (1 / xi1 - 1 / xi2)
f = lambda z: (U0 * math.exp(-abs(z) / xi1) - W0 * math.exp(-abs(z) / xi2)) * z
t, z = s["time [T]"], s["mean_height [L]"]
ref, zz, h = [], z[0], 0.01
for n in range(int(round(t[-1] / h)) + 1):
    if n % 50 == 0:
        ref.append([n * h, zz])
    a1 = f(zz); a2 = f(zz + h / 2 * a1); a3 = f(zz + h / 2 * a2); a4 = f(zz + h * a3)
    zz += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
write_csv("epi.csv", ["t", "z"], list(zip(t, z)))
write_csv("epi-ref.csv", ["t", "z"], ref)
with open(os.path.join(OUT, "epi.zstar"), "w") as fz:
    fz.write(f"{zs}\n")
agree(f"epidermis: mean element height at t = {t[-1]:.0f}: {z[-1]:.5f}; z* = ln(U0/W0)/(1/xi1 - "
      f"1/xi2) = {zs:.5f} ({100 * (z[-1] / zs - 1):+.2f} %)")
EOF
"${PLOT[@]}" --out "$FIG/epidermis-membrane.svg" --title "Epidermis: one cell, 20 adhesive elements, settling" \
    --xlabel "time [model units]" --ylabel "mean element height z [model units]" --legend tr \
    --line "$OUT/epi.csv" t z "CPU run (cell mean)" \
    --ref "$OUT/epi-ref.csv" t z "point cell, dz/dt = V(z) z" \
    --hline "$(cat "$OUT/epi.zstar")" "z* = ln(U0/W0)/(1/ξ1 − 1/ξ2)"

# ---------------------------------------------------------------- gliding
echo "== gliding: free streaming of one ring"
G=(--set init.layout=single_ring --set init.ring_radius=0.15 --set init.ring_width=0.02
   --set init.kappa=4 --set init.background=0 --set filaments.Ur=0 --set filaments.Ut=0
   --set filaments.Dr=0.02 --set filaments.Dt=2e-4 --set filaments.Vsp=0.03125
   --set motors.enabled=false --set fluid.enabled=false --set time.dt_mode=fixed
   --set time.dt=0.05)
run gl64 gliding-single-ring.toml --steps 80 --every 10 "${G[@]}" --set grid.n=64
run gl128 gliding-single-ring.toml --steps 80 --every 10 "${G[@]}" --set grid.n=128
py << 'EOF'
rows = {}
for name in ("gl64", "gl128"):
    p = scenario(name)["parameters"]
    N, dt = p["grid"]["n"], p["time"]["dt"]
    fl = p["filaments"]
    pts = []
    for snap in sorted(glob.glob(os.path.join(OUT, name, "snapshots", "*.h5"))):
        step = int(os.path.basename(snap).split("_")[1].split(".")[0])
        c = h5read(snap, "/density", "d")  # c[iy * N + ix], cell centres on the unit square
        num = den = 0.0
        for iy in range(N):
            y = (iy + 0.5) / N - 0.5
            for ix in range(N):
                x = (ix + 0.5) / N - 0.5
                num += (x * x + y * y) * c[iy * N + ix]
                den += c[iy * N + ix]
        pts.append((step * dt, num / den))
    r0 = pts[0][1]
    rows[name] = [(t, r - r0) for t, r in pts]
V, Dr, Dt = fl["Vsp"], fl["Dr"], fl["Dt"]
# free streaming (no flow, no motors, no alignment): each filament glides at V along a
# direction that diffuses at Dr and diffuses itself at Dt, so
#   <r^2>(t) - <r^2>(0) = 4 Dt t + (2 V^2 / Dr^2) (Dr t - 1 + e^{-Dr t})
exact = lambda t: 4 * Dt * t + 2 * V * V / Dr ** 2 * (Dr * t - 1 + math.exp(-Dr * t))
write_csv("gl-ref.csv", ["t", "r2"], [[i * 0.05, exact(i * 0.05)] for i in range(81)])
for name in rows:
    write_csv(f"{name}.csv", ["t", "r2"], rows[name])
    t, d = rows[name][-1]
    agree(f"gliding free streaming {name[2:]}^2 x 16^2: delta <r^2>(t={t:g}) = {d:.6f}, exact "
          f"{exact(t):.6f} ({100 * (d / exact(t) - 1):+.1f} %)")
EOF
"${PLOT[@]}" --out "$FIG/gliding-free-streaming.svg" --title "Gliding: free streaming of one ring (no motors, no flow)" \
    --xlabel "time [T]" --ylabel "Δ⟨r²⟩ [L²]" --legend tl --black-refs \
    --points "$OUT/gl64.csv" t r2 "64² × 16²" \
    --points "$OUT/gl128.csv" t r2 "128² × 16²" \
    --ref "$OUT/gl-ref.csv" t r2 "exact: 4Dₜt + (2V²/Dᵣ²)(Dᵣt − 1 + e^(−Dᵣt))"

# ---------------------------------------------------------------- cardiac
echo "== cardiac: single-cell action potentials"
CELL=(--every 0 --set tissue.nx=1 --set tissue.ny=1 --set protocol.start=10)
run tp cardiac-aliev-panfilov.toml "${CELL[@]}" --set model.bundled=tentusscher_2006 \
    --set time.dt=0.005 --steps 100000 --set protocol.amplitude=-52 --set protocol.duration=1
run ap cardiac-aliev-panfilov.toml "${CELL[@]}" --set model.bundled=aliev_panfilov \
    --set time.dt=0.02 --steps 25000 --set protocol.amplitude=-5 --set protocol.duration=5
py << 'EOF'
# CVODE references (BDF, rtol = atol = 1e-10) for the same pulses, from test_cardiac_cvode
# (docs/CARDIAC.md, "Validation", "Single cells against CVODE"): APD90 in ms.
cvode = {"tp": 291.5, "ap": 320.2}
for name, label in (("tp", "ten Tusscher 2006 epi"), ("ap", "Aliev-Panfilov")):
    s = series(name)
    write_csv(f"{name}.csv", ["t", "V"], list(zip(s["time [ms]"], s["v_centre [mV]"])))
    apd = s["apd90 [ms]"][-1]
    assert math.isfinite(apd), f"{name}: no complete beat (APD90 is {apd})"
    agree(f"cardiac {label}: APD90 {apd:.2f} ms (CVODE {cvode[name]} ms, {apd - cvode[name]:+.2f} ms), "
          f"rest {s['v_rest [mV]'][-1]:.2f} mV, peak {s['v_peak [mV]'][-1]:.2f} mV")
EOF
"${PLOT[@]}" --out "$FIG/cardiac-action-potentials.svg" --title "Cardiac: single-cell action potentials (CPU)" \
    --xlabel "time [ms]" --ylabel "membrane potential V [mV]" --legend tr --xmax 500 \
    --line "$OUT/tp.csv" t V "ten Tusscher 2006 epi, Rush-Larsen, dt 0.005 ms" \
    --line "$OUT/ap.csv" t V "Aliev-Panfilov, forward Euler, dt 0.02 ms"

echo "== cardiac: Mitchell-Schaeffer APD against tau_close ln(tau_out / 4 tau_in)"
for tin in 0.3 0.15 0.075 0.0375; do
    run "ms-$tin" cardiac-aliev-panfilov.toml "${CELL[@]}" --set model.bundled=mitchell_schaeffer_2003 \
        --set time.dt=0.005 --steps 160000 --set protocol.amplitude=-50 --set protocol.duration=1 \
        "--set=model.parameters=cell.tau_in = $tin"
done
py << 'EOF'
cfm = open(os.path.join(os.environ["ROOT"], "assets/models/mitchell_schaeffer_2003.cfm")).read()
par = {l.split()[1]: float(l.split()[3]) for l in cfm.splitlines() if l.startswith("param ")}
tau_out, tau_close = par["tau_out"], par["tau_close"]
rows = []
runs = [d for d in glob.glob(os.path.join(OUT, "ms-*")) if os.path.isdir(d)]
for d in sorted(runs, key=lambda d: -float(d.split("ms-")[1])):
    name = os.path.basename(d)
    tin = float(scenario(name)["parameters"]["model"]["parameters"].split("=")[1])
    apd = series(name)["apd90 [ms]"][-1]
    assert math.isfinite(apd), f"{name}: no complete beat (APD90 is {apd})"
    # the gate closes as h = e^{-t/tau_close} while the excited branch exists, h > 4 tau_in /
    # tau_out: APD_max = tau_close ln(tau_out / (4 tau_in)), plus a fold delay that does not
    # depend on tau_in (tests/sim/models/test_cardiac_simple_models.cpp)
    rows.append([tin, apd, tau_close * math.log(tau_out / (4 * tin))])
write_csv("ms.csv", ["tau_in", "apd90", "apd_max"], rows)
for a, b in zip(rows, rows[1:]):
    agree(f"cardiac Mitchell-Schaeffer: tau_in {a[0]:g} -> {b[0]:g} ms lengthens APD90 by "
          f"{b[1] - a[1]:.2f} ms (tau_close ln 2 = {tau_close * math.log(2):.2f}); delay over "
          f"APD_max {a[1] - a[2]:.2f} ms")
EOF
"${PLOT[@]}" --out "$FIG/cardiac-mitchell-schaeffer-apd.svg" --title "Cardiac: Mitchell-Schaeffer APD90 against tau_in" \
    --xlabel "tau_in [ms] (log scale)" --ylabel "APD90 [ms]" --xlog --legend tr \
    --ymin 200 --ymax 700 \
    --points "$OUT/ms.csv" tau_in apd90 "APD90, CPU, dt 0.005 ms" \
    --ref "$OUT/ms.csv" tau_in apd_max "τ_close ln(τ_out / 4τ_in)"

echo "figures.sh: $(ls "$FIG"/*.svg | wc -l) figures in $FIG, $((SECONDS - START)) s"
