#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A hierarchical roofline (FP32) of CUDA kernels from Nsight Compute, as an SVG.

Profile with the metrics this script reads (the standard instruction/byte counts and the
device's own sustained peaks; no empirical tool needed), then draw:

    ncu --clock-control none --csv --page raw --print-units base -k regex:KERNEL -c 1 \\
        --metrics "$(tools/roofline.py --metrics)" PROGRAM ARGS > profile.csv
    tools/roofline.py profile.csv ... --label NAME ... --out roofline.svg

Each profile contributes one kernel (its first row) and gets a point per memory level
(L1, L2, DRAM): x = FP32 operations per byte moved at that level, y = FP32 operations per
second (FADD + FMUL + 2 FFMA, thread-level). The ceilings: FP32 peak (FFMA peak per cycle x 2
x the SM clock) and each level's sustained bandwidth (its peak bytes per cycle x its clock).
A table of the same numbers goes to standard output. Only the standard library is used.
"""
import argparse
import csv
import math
import sys

FLOPS = ("sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
         "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
         "sm__sass_thread_inst_executed_op_ffma_pred_on.sum")
LEVELS = (("L1", "l1tex__t_bytes.sum", "l1tex__cycles_elapsed.avg.per_second"),
          ("L2", "lts__t_bytes.sum", "lts__cycles_elapsed.avg.per_second"),
          ("DRAM", "dram__bytes.sum", "dram__cycles_elapsed.avg.per_second"))
PEAKS = ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
         "sm__cycles_elapsed.avg.per_second") + tuple(
             m for _, b, c in LEVELS for m in (b + ".peak_sustained", c))
TIME = "gpu__time_duration.sum"


def metric_list():
    return ",".join(FLOPS + tuple(b for _, b, _ in LEVELS) + PEAKS + (TIME,))


def number(text):
    text = text.strip().replace(",", "")
    if text in ("", "n/a"):
        raise ValueError("no value")
    return float(text)


def read_profile(path):
    """The first kernel row of an `ncu --csv --page raw --print-units base` file."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    start = next((k for k, r in enumerate(rows) if "Kernel Name" in r), None)
    if start is None:
        sys.exit(f"roofline: {path}: no ncu raw page (a header row with 'Kernel Name')")
    header = rows[start]
    data = [r for r in rows[start + 1:] if len(r) == len(header)]
    # The row after the header holds the units (its kernel name is empty).
    kernels = [r for r in data if r[header.index("Kernel Name")] not in ("", "Kernel Name")]
    if not kernels:
        sys.exit(f"roofline: {path}: no kernel row")
    row = dict(zip(header, kernels[0]))
    missing = [m for m in FLOPS + PEAKS + (TIME,) + tuple(b for _, b, _ in LEVELS) if m not in row]
    if missing:
        sys.exit(f"roofline: {path}: missing metrics {', '.join(missing)} (profile with --metrics)")
    values = {m: number(row[m]) for m in row if m in set(FLOPS + PEAKS + (TIME,)) |
              {b for _, b, _ in LEVELS}}
    values["name"] = row["Kernel Name"]
    return values


def analyse(p):
    seconds = p[TIME] * 1e-9  # base unit: ns
    flops = p[FLOPS[0]] + p[FLOPS[1]] + 2.0 * p[FLOPS[2]]
    peak_flops = 2.0 * p[PEAKS[0]] * p[PEAKS[1]]
    levels = []
    for name, bytes_metric, clock in LEVELS:
        moved = p[bytes_metric]
        bandwidth = p[bytes_metric + ".peak_sustained"] * p[clock]
        levels.append((name, flops / moved if moved > 0 else float("inf"), bandwidth, moved))
    return seconds, flops, peak_flops, levels


def svg(points, ceilings, peak_flops, out):
    width, height, pad = 760, 520, 70
    xs = [x for _, _, x, _ in points if math.isfinite(x) and x > 0]
    ys = [y for _, _, _, y in points if y > 0]
    x_lo = 10 ** math.floor(math.log10(min(xs + [0.01])))
    x_hi = 10 ** math.ceil(math.log10(2.0 * max(xs + [100.0])))
    y_hi = 10 ** math.ceil(math.log10(peak_flops * 1.01))
    y_lo = 10 ** math.floor(math.log10(min(ys + [y_hi / 1e4])))

    def px(x):
        return pad + (math.log10(x) - math.log10(x_lo)) / (
            math.log10(x_hi) - math.log10(x_lo)) * (width - 2 * pad)

    def py(y):
        return height - pad - (math.log10(y) - math.log10(y_lo)) / (
            math.log10(y_hi) - math.log10(y_lo)) * (height - 2 * pad)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="DejaVu Sans, sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for e in range(int(math.log10(x_lo)), int(math.log10(x_hi)) + 1):
        x = px(10 ** e)
        parts.append(f'<line x1="{x:.1f}" y1="{pad}" x2="{x:.1f}" y2="{height - pad}" '
                     f'stroke="#ddd"/><text x="{x:.1f}" y="{height - pad + 16}" '
                     f'text-anchor="middle">1e{e}</text>')
    for e in range(int(math.log10(y_lo)), int(math.log10(y_hi)) + 1):
        y = py(10 ** e)
        parts.append(f'<line x1="{pad}" y1="{y:.1f}" x2="{width - pad}" y2="{y:.1f}" '
                     f'stroke="#ddd"/><text x="{pad - 6}" y="{y + 4:.1f}" '
                     f'text-anchor="end">1e{e}</text>')
    colours = {"L1": "#1b9e77", "L2": "#d95f02", "DRAM": "#7570b3"}
    for name, bandwidth in ceilings:
        ridge = peak_flops / bandwidth
        x0 = max(x_lo, y_lo / bandwidth)
        x1 = min(ridge, x_hi)
        parts.append(f'<line x1="{px(x0):.1f}" y1="{py(bandwidth * x0):.1f}" x2="{px(x1):.1f}" '
                     f'y2="{py(bandwidth * x1):.1f}" stroke="{colours[name]}" stroke-width="2"/>')
        parts.append(f'<text x="{px(x0) + 8:.1f}" y="{py(bandwidth * x0 * 1.6) - 4:.1f}" '
                     f'fill="{colours[name]}">{name} {bandwidth / 1e12:.1f} TB/s</text>')
    ridge_lo = min(peak_flops / b for _, b in ceilings)
    parts.append(f'<line x1="{px(ridge_lo):.1f}" y1="{py(peak_flops):.1f}" x2="{width - pad}" '
                 f'y2="{py(peak_flops):.1f}" stroke="black" stroke-width="2"/>')
    parts.append(f'<text x="{width - pad - 4}" y="{py(peak_flops) - 6:.1f}" text-anchor="end">'
                 f'FP32 {peak_flops / 1e12:.1f} TFLOP/s</text>')
    shapes = ["circle", "rect", "diamond", "triangle"]
    for k, (label, points_of) in enumerate(_group(points)):
        for name, x, y in points_of:
            cx, cy, c = px(x), py(y), colours[name]
            shape = shapes[k % len(shapes)]
            if shape == "circle":
                parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{c}"/>')
            elif shape == "rect":
                parts.append(f'<rect x="{cx - 5:.1f}" y="{cy - 5:.1f}" width="10" height="10" '
                             f'fill="{c}"/>')
            elif shape == "diamond":
                parts.append(f'<polygon points="{cx:.1f},{cy - 6:.1f} {cx + 6:.1f},{cy:.1f} '
                             f'{cx:.1f},{cy + 6:.1f} {cx - 6:.1f},{cy:.1f}" fill="{c}"/>')
            else:
                parts.append(f'<polygon points="{cx:.1f},{cy - 6:.1f} {cx + 6:.1f},{cy + 5:.1f} '
                             f'{cx - 6:.1f},{cy + 5:.1f}" fill="{c}"/>')
        legend_y = pad + 18 * k
        parts.append(f'<text x="{pad + 10}" y="{legend_y + 14}">{shapes[k % len(shapes)]}: '
                     f'{label}</text>')
    parts.append(f'<text x="{width / 2}" y="{height - 20}" text-anchor="middle">'
                 'FP32 operations per byte (at each memory level)</text>')
    parts.append(f'<text x="18" y="{height / 2}" transform="rotate(-90 18 {height / 2})" '
                 'text-anchor="middle">FP32 operations per second</text>')
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")


def _group(points):
    order, groups = [], {}
    for label, name, x, y in points:
        if label not in groups:
            order.append(label)
            groups[label] = []
        groups[label].append((name, x, y))
    return [(label, groups[label]) for label in order]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profiles", nargs="*", help="ncu --csv --page raw --print-units base files")
    ap.add_argument("--label", action="append", default=[], help="one per profile")
    ap.add_argument("--out", help="the SVG to write")
    ap.add_argument("--metrics", action="store_true", help="print the ncu metric list and exit")
    a = ap.parse_args()
    if a.metrics:
        print(metric_list())
        return
    if not a.profiles or not a.out:
        ap.error("give profiles and --out")
    labels = a.label + [None] * (len(a.profiles) - len(a.label))
    points, ceilings, peak = [], None, 0.0
    print(f"{'kernel':34} {'ms':>8} {'GFLOP/s':>9} {'% FP32':>7}  intensity FLOP/B (L1 L2 DRAM)"
          f"  % of each level's bandwidth")
    for path, label in zip(a.profiles, labels):
        p = read_profile(path)
        seconds, flops, peak_flops, levels = analyse(p)
        label = label or p["name"]
        rate = flops / seconds
        peak = max(peak, peak_flops)
        ceilings = ceilings or [(n, bw) for n, _, bw, _ in levels]
        for n, x, bw, moved in levels:
            points.append((label, n, x, rate))
        print(f"{label[:34]:34} {seconds * 1e3:8.3f} {rate / 1e9:9.1f} "
              f"{100 * rate / peak_flops:6.1f}%  " +
              " ".join(f"{x:7.3f}" for _, x, _, _ in levels) + "   " +
              " ".join(f"{100 * m / seconds / bw:5.1f}%" for _, _, bw, m in levels))
    svg(points, ceilings, peak, a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
