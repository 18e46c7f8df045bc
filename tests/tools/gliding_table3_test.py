#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/docs/gliding_table3.py on bench JSON with known times: each switch's cell is its
motor time and its factor against the default of the same resolution, a switch measured at one
resolution only shows "-" at the other, the hybrid row compares whole outer steps of the CPU
backend with the CUDA default, and input without a default CUDA case is refused by name."""
import json
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]


def result(case, backend, motors, whole):
    return {"case": case, "backend": backend,
            "extra": {"ms_motors": motors, "ms_per_outer_step": whole}}


cuda = {"results": [result("fig6-64x16", "cuda", 0.1, 0.25),
                    result("fig6-64x16-f64", "cuda", 0.4, 0.6),
                    result("fig6-256x32", "cuda", 36.0, 43.4),
                    result("fig6-256x32-f64", "cuda", 90.0, 99.0),
                    result("fig6-256x32-strided", "cuda", 54.0, 61.0),
                    result("fig6-256x32-kdtree", "cuda", 1.0, 1.0)]}  # not a switch: ignored
hybrid = {"results": [result("fig6-64x16-hybrid", "cpu", 0.3, 5.0),
                      result("fig6-256x32-hybrid", "cpu", 40.0, 434.0)]}
with tempfile.TemporaryDirectory() as d:
    paths = []
    for name, doc in (("c.json", cuda), ("h.json", hybrid)):
        paths.append(os.path.join(d, name))
        with open(paths[-1], "w") as f:
            json.dump(doc, f)
    text = subprocess.check_output([sys.executable, script] + paths, text=True)
    print(text)
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in text.splitlines() if line.startswith("| ") and "---" not in line}
    assert rows["ms per outer step (factor)"] == ["64² x 16²", "256² x 32²"], rows
    assert rows["none changed (motor sub-cycle)"] == ["0.1", "36"], rows
    assert rows["mixed precision (double motors)"] == ["0.4 (4.00)", "90 (2.50)"], rows
    assert rows["dimension mapping (strided)"] == ["-", "54 (1.50)"], rows
    assert not any("launch bounds" in k for k in rows), rows  # measured nowhere: no row
    assert rows["all on the GPU: whole outer step"] == ["0.25", "43.4"], rows
    assert rows["hybrid placement: whole outer step (CPU backend)"] == \
        ["5 (20.00)", "434 (10.00)"], rows

    empty = os.path.join(d, "e.json")
    with open(empty, "w") as f:
        json.dump({"results": [result("fig6-64x16-hybrid", "cpu", 1, 1)]}, f)
    run = subprocess.run([sys.executable, script, empty], capture_output=True, text=True)
    assert run.returncode != 0 and "no default CUDA case" in run.stderr, run
print("gliding_table3.py: cells, factors, missing switches, the hybrid row and refusal as expected")
