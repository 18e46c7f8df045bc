#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""CSV in, SVG line/scatter plot out (python3 standard library only).

Every series names a CSV file and two of its columns (by header text or 0-based index):

  plot_svg.py --out fig.svg --title "Free diffusion" \
      --xlabel "time [us]" --ylabel "MSD [nm^2]" \
      --points run/series.csv "time [us]" "msd_s1 [nm^2]" "D = 100 nm^2/us" \
      --ref ref.csv t msd "6 D t" [--xlog] [--ylog] [--legend tl|tr|bl|br]

--line draws a solid line, --points markers, --ref a dashed reference curve (analytic or
published), --hline/--vline a dotted level. Series take the colours in order; a --ref that
follows a series takes that series' colour, so a reference reads as "this one's oracle"
(--black-refs: all references black).
The drawing is 640 x 400 user units by default and scales with its viewBox.
"""
import argparse
import csv
import html
import math
import sys

# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def fail(msg):
    sys.exit(f"plot_svg: {msg}")


def read_columns(path, xcol, ycol):
    """Pairs (x, y) of finite numbers from two columns of a CSV with a header row."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    if not rows:
        fail(f"{path} is empty")
    header = [h.strip() for h in rows[0]]

    def index(col):
        if col in header:
            return header.index(col)
        if col.isdigit() and int(col) < len(header):
            return int(col)
        fail(f"{path} has no column '{col}' (columns: {', '.join(header)})")

    ix, iy = index(xcol), index(ycol)
    pts = []
    for r in rows[1:]:
        try:
            x, y = float(r[ix]), float(r[iy])
        except (IndexError, ValueError):
            continue
        if math.isfinite(x) and math.isfinite(y):
            pts.append((x, y))
    if not pts:
        fail(f"{path}: no finite values in columns '{xcol}', '{ycol}'")
    return pts


def nice_step(span, target):
    """A 1, 2 or 5 x 10^k step giving about `target` intervals over span."""
    raw = span / max(target, 1)
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw * 0.999:
            return m * mag
    return 10 * mag


def linear_ticks(lo, hi, target):
    step = nice_step(hi - lo, target)
    lo, hi = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
    n = int(round((hi - lo) / step))
    return lo, hi, [lo + i * step for i in range(n + 1)], step


def log_ticks(lo, hi):
    a, b = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)
    if b == a:
        b = a + 1
    return 10.0**a, 10.0**b, [10.0**k for k in range(a, b + 1)]


def fmt(v, step=None):
    """Tick text: as few digits as the step needs, no '1e+03' clutter in the usual range."""
    if v == 0:
        return "0"
    if abs(v) >= 1e5 or abs(v) < 1e-3:
        m, e = f"{v:.0e}".split("e")
        return f"{m}e{int(e)}"
    if step is not None and step < 1:
        digits = max(0, -math.floor(math.log10(step) + 1e-9))
        return f"{v:.{digits}f}"
    return f"{v:.6g}"


class Axis:
    def __init__(self, lo, hi, log, p0, p1, target):
        if log:
            if lo <= 0:
                fail("a log axis needs positive values")
            self.lo, self.hi, self.ticks = log_ticks(lo, hi)
            self.labels = [fmt(t) for t in self.ticks]
        else:
            if hi <= lo:
                lo, hi = lo - 1, hi + 1
            self.lo, self.hi, self.ticks, step = linear_ticks(lo, hi, target)
            self.labels = [fmt(t, step) for t in self.ticks]
        self.log, self.p0, self.p1 = log, p0, p1

    def __call__(self, v):
        if self.log:
            f = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        else:
            f = (v - self.lo) / (self.hi - self.lo)
        return self.p0 + f * (self.p1 - self.p0)


def text(x, y, s, size=13, anchor="middle", extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>'
            f"{html.escape(s)}</text>")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="")
    ap.add_argument("--xlabel", required=True, help="with its unit, e.g. 'time [ms]'")
    ap.add_argument("--ylabel", required=True)
    for kind in ("line", "points", "ref"):
        ap.add_argument(f"--{kind}", nargs=4, action="append", default=[],
                        metavar=("CSV", "XCOL", "YCOL", "LABEL"))
    ap.add_argument("--hline", nargs=2, action="append", default=[], metavar=("Y", "LABEL"))
    ap.add_argument("--vline", nargs=2, action="append", default=[], metavar=("X", "LABEL"))
    ap.add_argument("--xlog", action="store_true")
    ap.add_argument("--ylog", action="store_true")
    for k in ("xmin", "xmax", "ymin", "ymax"):
        ap.add_argument(f"--{k}", type=float)
    ap.add_argument("--black-refs", action="store_true",
                    help="draw every --ref in black (one reference shared by all series)")
    ap.add_argument("--legend", choices=["tl", "tr", "bl", "br"], default="tl")
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=400)
    # argparse keeps each option's list separately; the drawing order (and colours) follow
    # the command line, so collect (kind, args) in the order given.
    order = []
    argv = sys.argv[1:]
    for i, a in enumerate(argv):
        if a in ("--line", "--points", "--ref", "--hline", "--vline"):
            order.append(a[2:])
    args = ap.parse_args(argv)
    queues = {k: list(getattr(args, k)) for k in ("line", "points", "ref", "hline", "vline")}
    items = [(k, queues[k].pop(0)) for k in order]
    if not any(k in ("line", "points") for k, _ in items):
        fail("nothing to plot: give at least one --line or --points")

    series, colour = [], -1
    for kind, spec in items:
        if kind in ("line", "points"):
            colour += 1
            series.append((kind, read_columns(*spec[:3]), spec[3], PALETTE[colour % len(PALETTE)]))
        elif kind == "ref":
            # a reference right after a series shares its colour; a leading one is black
            c = PALETTE[colour % len(PALETTE)] if colour >= 0 and not args.black_refs else "#000000"
            series.append((kind, read_columns(*spec[:3]), spec[3], c))
        else:
            series.append((kind, float(spec[0]), spec[1], "#444444"))

    xs = [p[0] for k, d, _, _ in series if k in ("line", "points", "ref") for p in d]
    ys = [p[1] for k, d, _, _ in series if k in ("line", "points", "ref") for p in d]
    xs += [d for k, d, _, _ in series if k == "vline"]
    ys += [d for k, d, _, _ in series if k == "hline"]
    if args.xlog:
        xs = [x for x in xs if x > 0]
    if args.ylog:
        ys = [y for y in ys if y > 0]
    W, H = args.width, args.height
    left, right, top, bottom = 78, 18, 38 if args.title else 16, 54
    xa = Axis(args.xmin if args.xmin is not None else min(xs),
              args.xmax if args.xmax is not None else max(xs), args.xlog, left, W - right, 7)
    ya = Axis(args.ymin if args.ymin is not None else min(ys),
              args.ymax if args.ymax is not None else max(ys), args.ylog, H - bottom, top, 6)

    out = ["<!-- SPDX-License-Identifier: GPL-3.0-or-later -->",
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="{FONT}">',
           f'<rect width="{W}" height="{H}" fill="#ffffff"/>']
    if args.title:
        out.append(text(W / 2, 24, args.title, 15, extra=' font-weight="bold"'))
    # grid, frame, ticks
    x0, x1, y0, y1 = xa.p0, xa.p1, ya.p0, ya.p1
    for t, lab in zip(xa.ticks, xa.labels):
        px = xa(t)
        out.append(f'<line x1="{px:.1f}" y1="{y0}" x2="{px:.1f}" y2="{y1}" stroke="#e4e4e4"/>')
        out.append(f'<line x1="{px:.1f}" y1="{y0}" x2="{px:.1f}" y2="{y0 + 5}" stroke="#000"/>')
        out.append(text(px, y0 + 19, lab, 12))
    for t, lab in zip(ya.ticks, ya.labels):
        py = ya(t)
        out.append(f'<line x1="{x0}" y1="{py:.1f}" x2="{x1}" y2="{py:.1f}" stroke="#e4e4e4"/>')
        out.append(f'<line x1="{x0 - 5}" y1="{py:.1f}" x2="{x0}" y2="{py:.1f}" stroke="#000"/>')
        out.append(text(x0 - 8, py + 4, lab, 12, "end"))
    out.append(f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" fill="none" '
               f'stroke="#000"/>')
    out.append(text((x0 + x1) / 2, H - 12, args.xlabel, 13))
    out.append(text(18, (y0 + y1) / 2, args.ylabel, 13,
                    extra=f' transform="rotate(-90 18 {(y0 + y1) / 2:.1f})"'))

    # data, clipped to the frame
    out.append(f'<clipPath id="frame"><rect x="{x0}" y="{y1}" width="{x1 - x0}" '
               f'height="{y0 - y1}"/></clipPath><g clip-path="url(#frame)">')
    legend = []
    for kind, data, label, c in series:
        if kind in ("hline", "vline"):
            if kind == "hline":
                p = f"M{x0},{ya(data):.1f} H{x1}"
            else:
                p = f"M{xa(data):.1f},{y0} V{y1}"
            out.append(f'<path d="{p}" stroke="{c}" stroke-width="1.5" stroke-dasharray="2 3" '
                       f'fill="none"/>')
            legend.append((kind, label, c))
            continue
        pts = [(xa(x), ya(y)) for x, y in data
               if (not args.xlog or x > 0) and (not args.ylog or y > 0)]
        if kind == "points":
            step = max(1, len(pts) // 60)  # at most ~60 markers: dense data would be a smear
            for px, py in pts[::step]:
                out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.2" fill="{c}" '
                           f'fill-opacity="0.8"/>')
        else:
            d = "M" + " L".join(f"{px:.1f},{py:.1f}" for px, py in pts)
            dash = ' stroke-dasharray="7 4"' if kind == "ref" else ""
            width = 1.6 if kind == "ref" else 2
            out.append(f'<path d="{d}" stroke="{c}" stroke-width="{width}" fill="none"{dash}/>')
        legend.append((kind, label, c))
    out.append("</g>")

    # legend box in the chosen corner, sized from a rough glyph width
    rowh, pad = 19, 8
    lw = max(len(lab) for _, lab, _ in legend) * 6.9 + 44
    lh = len(legend) * rowh + pad
    lx = x0 + 10 if args.legend in ("tl", "bl") else x1 - 10 - lw
    ly = y1 + 10 if args.legend in ("tl", "tr") else y0 - 10 - lh
    out.append(f'<rect x="{lx:.1f}" y="{ly:.1f}" width="{lw:.1f}" height="{lh}" fill="#ffffff" '
               f'fill-opacity="0.9" stroke="#999"/>')
    for i, (kind, label, c) in enumerate(legend):
        cy = ly + pad / 2 + rowh * i + rowh / 2
        if kind == "points":
            out.append(f'<circle cx="{lx + 18:.1f}" cy="{cy:.1f}" r="3.5" fill="{c}"/>')
        else:
            dash = {"ref": ' stroke-dasharray="7 4"', "hline": ' stroke-dasharray="2 3"',
                    "vline": ' stroke-dasharray="2 3"'}.get(kind, "")
            out.append(f'<path d="M{lx + 6:.1f},{cy:.1f} H{lx + 30:.1f}" stroke="{c}" '
                       f'stroke-width="2"{dash}/>')
        out.append(text(lx + 38, cy + 4.5, label, 12, "start"))
    out.append("</svg>")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
