# SPDX-License-Identifier: GPL-3.0-or-later
# Run by paraview_pieces.sh under pvpython: opens each case's toy.xmf, written by 3 ranks
# (one piece file per rank and step, a spatial collection per step), with ParaView's
# default reader (Xdmf3ReaderS) and with the legacy XDMFReader, merges the blocks
# (MergeBlocks) and checks every time step against the whole grid that expected.json
# describes: as many values as the whole grid has cells, each at its cell's place (the
# "where" array holds the cell centre, "index" the cell's index in the whole grid), the same
# values and ranges as the whole, and for a volume the merged points of one grid.
#   usage: pvpython paraview_pieces_check.py RUNS_DIR
# Prints "ok"/"FAIL" lines and exits 1 on any failure.
import glob
import json
import os
import sys

import numpy as np
from paraview import servermanager as sm
from paraview import simple as pv
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkFiltersCore import vtkCellCenters

RUNS = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what, flush=True)
    return ok


def open_reader(xmf, kind):
    if kind == "Xdmf3ReaderS":
        r = pv.OpenDataFile(xmf)
        check(r.GetXMLName() == kind, f"{xmf}: OpenDataFile picked {r.GetXMLName()}")
        return r
    r = pv.XDMFReader(FileNames=[xmf])
    r.UpdatePipelineInformation()
    # The legacy reader loads only the arrays it is asked for.
    r.PointArrayStatus = r.GetProperty("PointArrayInfo")[::2]
    r.CellArrayStatus = r.GetProperty("CellArrayInfo")[::2]
    return r


def check_step(label, merged, exp, step):
    """The merged dataset of one time step against the whole grid."""
    dims, lo, hi = exp["dims"], exp["lo"], exp["hi"]
    n = dims[0] * dims[1] * dims[2]
    data = sm.Fetch(merged)
    # Values on the cells (a sheet's pieces too, one cell thick, so that they meet edge to
    # edge); neighbouring pieces share their boundary points.
    arrays = data.GetCellData()
    centres = vtkCellCenters()
    centres.SetInputData(data)
    centres.Update()
    places = vtk_to_numpy(centres.GetOutput().GetPoints().GetData())
    points = (dims[0] + 1) * (dims[1] + 1) * (dims[2] + 1)
    check(data.GetNumberOfCells() == n,
          f"{label}: {data.GetNumberOfCells()} cells, the whole grid has {n}")
    check(data.GetNumberOfPoints() == points,
          f"{label}: {data.GetNumberOfPoints()} merged points, one grid has {points}")
    got = {}
    for name in ("index", "where", "odd"):
        a = arrays.GetArray(name)
        if not check(a is not None, f"{label}: no array {name}"):
            return
        got[name] = vtk_to_numpy(a)
        check(len(got[name]) == n, f"{label}: {name} has {len(got[name])} values, not {n}")
    index, where, odd = got["index"].astype(np.int64), got["where"], got["odd"]
    if len(index) != n or len(places) != n:
        return
    # The whole grid's values, each once.
    want = np.arange(n, dtype=np.int64) + 1000 * step
    check(np.array_equal(np.sort(index), want),
          f"{label}: index values are not 0..{n - 1} (+{1000 * step}) once each")
    # Each value at its own cell: the geometry ParaView built puts it where it belongs
    # (to float precision: the merged points are float32, far closer than half a cell).
    scale = max(abs(v) for v in lo + hi)
    check(np.abs(places - where).max() <= 1e-6 * scale,
          f"{label}: a value is {np.abs(places - where).max()} from its cell centre")
    cell = [np.floor((where[:, i] - lo[i]) / (hi[i] - lo[i]) * dims[i]).astype(np.int64)
            for i in range(3)]
    check(np.array_equal(index, cell[0] + dims[0] * (cell[1] + dims[1] * cell[2]) + 1000 * step),
          f"{label}: index values are not at their cells of the whole grid")
    whole_odd = want.astype(np.float32) / np.float32(7)
    check(np.array_equal(odd, index.astype(np.float32) / np.float32(7)),
          f"{label}: odd values differ from the whole grid's")
    check((odd.min(), odd.max()) == (whole_odd.min(), whole_odd.max()),
          f"{label}: odd ranges {odd.min()}..{odd.max()}, the whole "
          f"{whole_odd.min()}..{whole_odd.max()}")


def main():
    cases = sorted(d for d in glob.glob(os.path.join(RUNS, "*")) if os.path.isdir(d))
    check(len(cases) == 4, f"{len(cases)} cases under {RUNS}, expected 4")
    for case in cases:
        name = os.path.basename(case)
        with open(os.path.join(case, "expected.json")) as f:
            exp = json.load(f)
        pieces = glob.glob(os.path.join(case, "snapshots", "*.r*.h5"))
        check(len(pieces) == exp["ranks"] * len(exp["steps"]),
              f"{name}: {len(pieces)} piece files for {exp['ranks']} ranks")
        for kind in ("Xdmf3ReaderS", "XdmfReader"):
            n = len(failures)
            label = f"{name} {kind}"
            reader = open_reader(os.path.join(case, "toy.xmf"), kind)
            times = list(reader.TimestepValues)
            want = [s * exp["time_per_step"] for s in exp["steps"]]
            check(times == want, f"{label}: time steps {times}, expected {want}")
            merged = pv.MergeBlocks(Input=reader)
            for step, t in zip(exp["steps"], want):
                merged.UpdatePipeline(t)
                check_step(f"{label} t={t:g}", merged, exp, step)
            pv.Delete(merged)
            pv.Delete(reader)
            dims = exp["dims"]
            print(f"{'ok  ' if len(failures) == n else 'FAIL'} {label}: {exp['ranks']} pieces "
                  f"per step merge into the whole {dims[0]} x {dims[1]} x {dims[2]} grid, "
                  f"times {want}", flush=True)
    print(f"{len(failures)} failures" if failures else "all ParaView piece checks passed",
          flush=True)
    return 1 if failures else 0


sys.exit(main())
