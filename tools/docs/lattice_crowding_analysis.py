#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The numbers of tools/docs/lattice_crowding.sh from its runs (python3 standard library).

  lattice_crowding_analysis.py OUTDIR SIZE BACKEND

Reads OUTDIR/runs/*/series.csv and scenario.toml and writes OUTDIR/curves/*.csv (t_us,
d_ratio = MSD / (6 D0 t), step), OUTDIR/lattice-crowding-SIZE.csv,
OUTDIR/lattice-invivo-SIZE.csv, OUTDIR/invivo.plateau and OUTDIR/lattice-crowding-SIZE.txt.

Definitions (docs/LATTICE.md quotes them):
  D(t)/D0     MSD(t) / (6 D0 t), the paper's observed D (Fig. 4);
  D_end/D0    that at the last step;
  D_inf/D0    the long-time slope, (MSD(t_end) - MSD(t_end / 2)) / (6 D0 t_end / 2): MSD/(6t)
              approaches the plateau only as 1/t, the slope does not carry the early excess;
  t_cross     where D(t)/D0 falls halfway from its first-step value to D_inf/D0 (log-linear
              interpolation between samples), also in units of r^2 / D0;
  obstructed  1 - tracers / (mean_occupancy x sites): the share of sites that are obstacles.
"""
import csv
import math
import os
import statistics
import sys
import tomllib

OUT, SIZE, BACKEND = sys.argv[1:4]
RADII = (1, 2, 5, 10, 20, 50, 100)
FRACTIONS = (10, 20, 30)


def scenario(name):
    with open(os.path.join(OUT, "runs", name, "scenario.toml"), "rb") as f:
        return tomllib.load(f)


def series(name):
    with open(os.path.join(OUT, "runs", name, "series.csv"), newline="") as f:
        rows = list(csv.reader(f))
    return {h: [float(r[i]) for r in rows[1:]] for i, h in enumerate(rows[0])}


def trajectory(name):
    """(step, t [us], msd [nm^2]) from step 1, the -early run's rows first where there is one."""
    rows = {}
    for part in (name, name + "-early"):  # the early rows win where both have a step
        if not os.path.isdir(os.path.join(OUT, "runs", part)):
            continue
        s = series(part)
        for st, t, m in zip(s["step"], s["time [us]"], s["msd_tracer [nm^2]"]):
            if part == name + "-early" and st in rows and rows[st][1] != m:
                sys.exit(f"lattice_crowding: {part} differs from {name} at step {st:.0f}: "
                         "the runs are not deterministic")
            rows[st] = (t, m)
    return [(int(st), t, m) for st, (t, m) in sorted(rows.items()) if st > 0]


def log_subset(traj, factor=1.08):
    """Rows at roughly geometric steps (every step up to 20), for the plots."""
    out, nxt = [], 1.0
    for row in traj:
        if row[0] >= nxt or row[0] <= 20:
            out.append(row)
            nxt = row[0] * factor
    if out[-1] is not traj[-1]:
        out.append(traj[-1])
    return out


def analyse(name, d0):
    traj = trajectory(name)
    ratio = [(st, t, m / (6.0 * d0 * t)) for st, t, m in traj]
    st_end, t_end, m_end = traj[-1]
    half = min(traj, key=lambda r: abs(r[0] - st_end / 2))
    d_inf = (m_end - half[2]) / (6.0 * d0 * (t_end - half[1]))
    first = ratio[0][2]
    mid = 0.5 * (first + d_inf)
    t_cross = float("nan")
    for (s0, t0, a), (s1, t1, b) in zip(ratio, ratio[1:]):
        if a >= mid > b:
            f = (a - mid) / (a - b)
            t_cross = math.exp(math.log(t0) + f * (math.log(t1) - math.log(t0)))
            break
    s = series(name)
    p = scenario(name)["parameters"]
    sites = p["lattice"]["nx"] * p["lattice"]["ny"] * p["lattice"]["nz"]
    occ = s["mean_occupancy [particles/site]"][-1]
    obstructed = 1.0 - s["count_tracer [1]"][-1] / (occ * sites)
    with open(os.path.join(OUT, "curves", name + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t_us", "d_ratio", "step"])
        for st, t, d in log_subset(ratio):
            w.writerow([f"{t:.6g}", f"{d:.6f}", st])
    return {"first": first, "end": ratio[-1][2], "inf": d_inf, "t_cross": t_cross,
            "t_end": t_end, "obstructed": obstructed, "lambda": p["lattice"]["lambda"],
            "tau": p["lattice"]["tau"], "L": p["lattice"]["nx"], "ratio": ratio,
            "overflows": s["overflows_total [1]"][-1]}


lines = []


def say(line):
    print(line)
    lines.append(line)


D0 = 100.0
rows = []
say(f"lattice crowding ({SIZE}, {BACKEND}): D(t)/D0 among hard spheres, D0 = {D0:g} nm^2/us")
for frac in FRACTIONS:
    for r in RADII:
        a = analyse(f"r{r}-f{frac}", D0)
        lam = a["lambda"]
        rows.append([r, frac, lam, a["tau"], r / lam, a["L"], f"{a['obstructed']:.4f}",
                     f"{a['first']:.4f}", f"{a['end']:.4f}", f"{a['inf']:.4f}",
                     f"{a['t_cross']:.4g}", f"{a['t_cross'] * D0 / r ** 2:.4g}",
                     f"{a['t_end']:.4g}", int(a["overflows"])])
        say(f"  r = {r:3d} nm, {frac} %: lambda {lam:g} nm ({r / lam:g} sites), obstructed "
            f"{100 * a['obstructed']:.1f} %, D/D0 first step {a['first']:.3f}, at "
            f"t = {a['t_end']:.4g} us {a['end']:.3f}, long-time {a['inf']:.3f}, crossover "
            f"{a['t_cross']:.3g} us ({a['t_cross'] * D0 / r ** 2:.3g} r^2/D0)")
with open(os.path.join(OUT, f"lattice-crowding-{SIZE}.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["radius_nm", "fraction_percent", "lambda_nm", "tau_ns", "radius_sites",
                "sites_per_axis", "obstructed", "d_first_step", "d_end", "d_long_time",
                "crossover_us", "crossover_r2_over_d0", "t_end_us", "overflows"])
    w.writerows(rows)

# Resolved radii (r / lambda = R sites) share one curve in units of r^2 / D0: their
# long-time values are independent replicates of one lattice problem.
for frac in FRACTIONS:
    same = [float(x[9]) for x in rows if x[1] == frac and x[4] == max(y[4] for y in rows)]
    if len(same) > 1:
        m, sd = statistics.mean(same), statistics.stdev(same)
        say(f"  {frac} %: long-time D/D0 over the {len(same)} radii at "
            f"{max(y[4] for y in rows):g} sites: {m:.3f} +- {sd / math.sqrt(len(same)):.3f} "
            f"(sd {sd:.3f})")

# In vivo: replicates with different seeds against free diffusion at the same spacing.
reps, k = [], 1
while os.path.isdir(os.path.join(OUT, "runs", f"invivo-{k}")):
    reps.append(analyse(f"invivo-{k}", D0))
    k += 1
free = analyse("free", D0)
inf = [a["inf"] for a in reps]
mean = statistics.mean(inf)
se = statistics.stdev(inf) / math.sqrt(len(inf)) if len(inf) > 1 else float("nan")
# The free walk is exact in expectation (MSD = 6 D0 t, tests/sim/models/test_lattice.cpp), so
# the reduction is stated against D0 (error: the replicates') and against the free run, whose
# slope over the second half has the relative error sqrt(2 / (3 N)) of N independent Gaussian
# increments; the ratio's error adds both in quadrature.
ratio = mean / free["inf"]
tracers = scenario("free")["parameters"]["tracking"]["per_species"]
free_se = free["inf"] * math.sqrt(2.0 / (3.0 * tracers))
ratio_se = ratio * math.hypot(se / mean, free_se / free["inf"])
with open(os.path.join(OUT, f"lattice-invivo-{SIZE}.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["run", "lambda_nm", "sites_per_axis", "obstructed", "d_end", "d_long_time",
                "crossover_us"])
    for i, a in enumerate(reps):
        w.writerow([f"invivo-{i + 1}", a["lambda"], a["L"], f"{a['obstructed']:.4f}",
                    f"{a['end']:.4f}", f"{a['inf']:.4f}", f"{a['t_cross']:.4g}"])
    w.writerow(["free", free["lambda"], free["L"], f"{free['obstructed']:.4f}",
                f"{free['end']:.4f}", f"{free['inf']:.4f}", ""])
# mean in-vivo curve (the replicates share their sample steps)
n = min(len(a["ratio"]) for a in reps)
avg = [(reps[0]["ratio"][i][0], reps[0]["ratio"][i][1],
        statistics.mean(a["ratio"][i][2] for a in reps)) for i in range(n)]
with open(os.path.join(OUT, "curves", "invivo-mean.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["t_us", "d_ratio", "step"])
    for st, t, d in log_subset(avg):
        w.writerow([f"{t:.6g}", f"{d:.6f}", st])
with open(os.path.join(OUT, "invivo.plateau"), "w") as f:
    f.write(f"{mean}\n")
cross = [a["t_cross"] for a in reps]
say(f"lattice in vivo ({SIZE}, {BACKEND}): {len(reps)} replicates, lambda "
    f"{reps[0]['lambda']:g} nm, {reps[0]['L']}^3 sites, obstructed "
    f"{100 * statistics.mean(a['obstructed'] for a in reps):.1f} %, t_end {reps[0]['t_end']:.4g} us")
say(f"  long-time D/D0 in vivo {mean:.3f} +- {se:.3f} (SE over replicates: "
    f"{', '.join(f'{x:.3f}' for x in inf)}): a reduction of {100 * (1 - mean):.1f} +- "
    f"{100 * se:.1f} % against D0 (paper: about 20 %)")
say(f"  free {free['inf']:.3f} +- {free_se:.3f}; in vivo / free {ratio:.3f} +- {ratio_se:.3f}: "
    f"a reduction of {100 * (1 - ratio):.1f} +- {100 * ratio_se:.1f} %")
say(f"  D/D0 at t_end in vivo {statistics.mean(a['end'] for a in reps):.3f}, free "
    f"{free['end']:.3f}; crossover {statistics.mean(cross):.3g} us (paper: ~1 us)")
with open(os.path.join(OUT, f"lattice-crowding-{SIZE}.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
