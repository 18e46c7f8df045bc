#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Cook & Shinar's Table 3 for our CUDA motor kernels, from `cellforge-sim bench gliding --json`.

    tools/docs/gliding_table3.py RESULTS.json [MORE.json ...] > table.md

Reads the fig6-<N>x<n>[-suffix] cases (docs/GLIDING.md "Kernel switches") and prints, per
resolution, the motor sub-cycle's ms per outer step (`ms_motors`) of each switch and its factor
against the default build of the same resolution in the same files: > 1 where the switch is
slower, as their slowdown factors. The hybrid placement (`-hybrid`, CPU backend) changes where
every stage runs, so its row compares whole outer steps (`ms_per_outer_step`). Resolutions
without a default CUDA case are left out; a switch missing at a resolution shows "-". Only the
standard library is used.
"""
import argparse
import json
import re
import sys

# (suffix, row label) in the order of their table, then ours.
ROWS = [
    ("-f64", "mixed precision (double motors)"),
    ("-fastmath", "fast math (on: --use_fast_math)"),
    ("-bounds", "launch bounds on (512 threads, 2 blocks per SM)"),
    ("-strided", "dimension mapping (strided)"),
    ("-lanes", "reorder storage (lanes)"),
    ("-threads64", "block shaping: 64 threads"),
    ("-threads128", "block shaping: 128 threads"),
    ("-threads256", "block shaping: 256 threads"),
    ("-threads512", "block shaping: 512 threads"),
    ("-threads1024", "block shaping: 1024 threads"),
    ("-segments", "runs mapping (ours; removed: segments)"),
    ("-v1", "all of ours removed: the first CUDA version's launch"),
]
HYBRID = ("-hybrid", "hybrid placement: whole outer step (CPU backend)")
CASE = re.compile(r"^fig6-(\d+)x(\d+)(-.*)?$")


def load(paths):
    """{(n, ninner): {suffix: (backend, extra)}} over every file; a later file wins."""
    cases = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for r in doc.get("results", []):
            m = CASE.match(r.get("case", ""))
            if not m:
                continue
            key = (int(m.group(1)), int(m.group(2)))
            cases.setdefault(key, {})[m.group(3) or ""] = (r["backend"], r.get("extra", {}))
    return cases


def cell(value, reference):
    if value is None:
        return "-"
    if not reference:
        return f"{value:.3g}"
    return f"{value:.3g} ({value / reference:.2f})"


def table(cases):
    resolutions = sorted(k for k, v in cases.items() if v.get("", ("", {}))[0] == "cuda")
    if not resolutions:
        raise SystemExit("gliding_table3.py: no default CUDA case (fig6-<N>x<n>) in the input")
    head = [f"{n}² x {m}²" for n, m in resolutions]
    lines = ["| ms per outer step (factor) | " + " | ".join(head) + " |",
             "|---" * (len(head) + 1) + "|"]

    def motors(key, suffix):
        entry = cases[key].get(suffix)
        if entry is None or entry[0] != "cuda":
            return None
        return entry[1].get("ms_motors")

    lines.append("| none changed (motor sub-cycle) | " +
                 " | ".join(cell(motors(k, ""), None) for k in resolutions) + " |")
    for suffix, label in ROWS:
        if all(motors(k, suffix) is None for k in resolutions):
            continue
        lines.append(f"| {label} | " + " | ".join(
            cell(motors(k, suffix), motors(k, "")) for k in resolutions) + " |")

    def whole(key, suffix, backend):
        entry = cases[key].get(suffix)
        if entry is None or entry[0] != backend:
            return None
        return entry[1].get("ms_per_outer_step")

    if any(whole(k, HYBRID[0], "cpu") is not None for k in resolutions):
        lines.append("| all on the GPU: whole outer step | " +
                     " | ".join(cell(whole(k, "", "cuda"), None) for k in resolutions) + " |")
        lines.append(f"| {HYBRID[1]} | " + " | ".join(
            cell(whole(k, HYBRID[0], "cpu"), whole(k, "", "cuda")) for k in resolutions) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+", help="cellforge-sim bench gliding --json output")
    args = parser.parse_args()
    print(table(load(args.json)))


if __name__ == "__main__":
    sys.exit(main())
