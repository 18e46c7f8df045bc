#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/roofline.py on an ncu raw page with known counts: the FP32 rate, the intensities
and the bandwidth shares it prints are the hand-computed ones, the SVG has a point per level,
and a file without the metrics is refused by name."""
import csv
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]
metrics = subprocess.check_output([sys.executable, script, "--metrics"], text=True).strip()
values = {
    "gpu__time_duration.sum": 1.0e6,  # ns: 1 ms
    "sm__sass_thread_inst_executed_op_fadd_pred_on.sum": 1.0e9,
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum": 1.0e9,
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum": 4.0e9,  # 1e10 FLOP in all
    "l1tex__t_bytes.sum": 1.0e10, "lts__t_bytes.sum": 2.0e9, "dram__bytes.sum": 5.0e8,
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained": 1.0e4,
    "sm__cycles_elapsed.avg.per_second": 2.0e9,  # peak 4e13 FLOP/s
    "l1tex__t_bytes.sum.peak_sustained": 1.0e4, "l1tex__cycles_elapsed.avg.per_second": 2.0e9,
    "lts__t_bytes.sum.peak_sustained": 4.0e3, "lts__cycles_elapsed.avg.per_second": 2.0e9,
    "dram__bytes.sum.peak_sustained": 1.0e3, "dram__cycles_elapsed.avg.per_second": 4.0e9,
}
assert sorted(metrics.split(",")) == sorted(values), metrics
with tempfile.TemporaryDirectory() as d:
    profile = os.path.join(d, "p.csv")
    with open(profile, "w", newline="") as f:
        w = csv.writer(f)
        names = list(values)
        w.writerow(["ID", "Kernel Name"] + names)
        w.writerow(["", ""] + ["unit"] * len(names))
        w.writerow(["0", "forceKernel(CellArrays, ...)"] + [f"{values[n]:,.0f}" for n in names])
    out = os.path.join(d, "r.svg")
    text = subprocess.check_output([sys.executable, script, profile, "--label", "k", "--out", out],
                                   text=True)
    row = next(line for line in text.splitlines() if line.startswith("k "))
    fields = row.split()
    # 1e10 FLOP in 1 ms = 1e4 GFLOP/s, 25 % of 4e13; intensities 1, 5, 20 FLOP/B; bandwidths
    # 20, 8, 4 TB/s against 10, 2, 0.5 TB/s moved: 50 %, 25 %, 12.5 %.
    assert fields[1:4] == ["1.000", "10000.0", "25.0%"], row
    assert fields[4:7] == ["1.000", "5.000", "20.000"], row
    assert fields[7:10] == ["50.0%", "25.0%", "12.5%"], row
    svg = open(out).read()
    assert svg.count("<circle") == 3 and "FP32 40.0 TFLOP/s" in svg, svg[:400]
    bad = os.path.join(d, "bad.csv")
    with open(bad, "w") as f:
        f.write('"ID","Kernel Name","gpu__time_duration.sum"\n"","","ns"\n"0","k","1"\n')
    r = subprocess.run([sys.executable, script, bad, "--out", out], capture_output=True, text=True)
    assert r.returncode != 0 and "missing metrics" in r.stderr, r.stderr
print("roofline: rates, intensities, shares and the SVG as computed by hand")
