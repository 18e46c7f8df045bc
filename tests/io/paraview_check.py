# SPDX-License-Identifier: GPL-3.0-or-later
# Run by paraview_open.sh under pvpython: opens each run's <model>.xmf with ParaView's
# default reader (OpenDataFile, Xdmf3ReaderS in 5.11) and with the legacy XDMFReader, and
# checks every time step against the HDF5 files the run wrote (read with h5dump, not
# through the .xmf): points, cells, array names and components, finite ranges, the time
# list. Then renders one image per model in the default representation and counts the
# pixels that differ from the background.
#   usage: pvpython paraview_check.py RUNS_DIR IMAGES_DIR
# RUNS_DIR holds one folder per scenario (the run's --out). Prints "ok"/"FAIL" lines and
# exits 1 on any failure.
import glob
import math
import os
import re
import subprocess
import sys

from paraview import simple as pv
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOImage import vtkPNGReader

RUNS, IMAGES = sys.argv[1], sys.argv[2]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what, flush=True)
    return ok


# --- what the run wrote, from the HDF5 files --------------------------------------------

ATTR_RE = re.compile(r'^   ATTRIBUTE "(\w+)" \{')
DSET_RE = re.compile(r'^   DATASET "([^"]+)" \{')
SPACE_RE = re.compile(r"DATASPACE\s+SIMPLE \{ \( ([\d, ]+) \)")


def h5_header(path):
    """Root attributes and root datasets (shape, role) of a snapshot, from h5dump -A."""
    text = subprocess.run(["h5dump", "-A", "-m", "%.17g", path], check=True,
                          capture_output=True, text=True).stdout
    attrs, dsets = {}, {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m, d = ATTR_RE.match(lines[i]), DSET_RE.match(lines[i])
        if m:  # root attribute: "(k): value" lines between "DATA {" and "}"
            j = i
            while lines[j].strip() != "DATA {":
                j += 1
            values = []
            while lines[j + 1].strip() != "}":
                j += 1
                values += re.sub(r"\(\d+\):", "", lines[j]).split(",")
            attrs[m.group(1)] = [v.strip().strip('"') for v in values if v.strip()]
            i = j
        elif d:
            shape = [int(v) for v in SPACE_RE.search(lines[i + 2]).group(1).split(",")]
            j = i
            while 'ATTRIBUTE "role"' not in lines[j]:
                j += 1
            while "(0):" not in lines[j]:
                j += 1
            role = lines[j].split("(0):", 1)[1].strip().strip('"')
            dsets[d.group(1)] = (shape, role)
            i = j
        i += 1
    return attrs, dsets


def expected_of(h5):
    """What the XDMF should show for one snapshot file (mirrors sim/io/xdmf.hpp): the
    particles and the grid, each with its points, cells and arrays (name: components)."""
    attrs, dsets = h5_header(h5)
    exp = {"time": float(attrs["time"][0]), "model": attrs["model"][0]}
    comps = {n: (s[1] if len(s) == 2 else 1) for n, (s, _) in dsets.items()}
    pos = [n for n, (s, r) in dsets.items() if r == "positions" and comps[n] in (2, 3)]
    if pos:
        n = dsets[pos[0]][0][0]
        exp["particles"] = {  # one vertex cell per particle
            "points": n, "cells": n, "cell_arrays": {},
            "point_arrays": {k: comps[k] for k, (s, r) in dsets.items()
                             if r == "per_entity" and s[0] == n}}
    dims = [max(int(v), 1) for v in attrs["grid_dims"]]
    cells = math.prod(dims)
    grid = {k: comps[k] for k, (s, r) in dsets.items() if r == "grid" and s[0] == cells}
    if int(attrs["grid_dims"][0]) > 0 and grid:
        if 1 in dims:  # a sheet: values on the points (cell centres), one point thick
            exp["grid"] = {"points": cells, "cells": math.prod(max(d - 1, 1) for d in dims),
                           "point_arrays": grid, "cell_arrays": {}}
        else:
            exp["grid"] = {"points": math.prod(d + 1 for d in dims), "cells": cells,
                           "point_arrays": {}, "cell_arrays": grid}
    return exp


# --- what ParaView reads -----------------------------------------------------------------

def arrays_of(data_arrays):
    """name: (components, tuples, range of each component)."""
    out = {}
    for a in data_arrays:
        ranges = [a.GetRange(c) for c in range(a.GetNumberOfComponents())]
        out[a.Name] = (a.GetNumberOfComponents(), a.GetNumberOfTuples(), ranges)
    return out


def compare(label, reader, expected, reference=None):
    """Every time step of `reader` against the files' expectations and, when given, the
    arrays another reader read from the same files (their ranges must agree). Returns
    the time steps and the arrays read at each."""
    steps = reader.TimestepValues
    steps = list(steps) if hasattr(steps, "__len__") else [steps]
    want = [t for t, _ in expected]
    check(len(steps) == len(want) and all(
        math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300) for a, b in zip(steps, want)),
          f"{label}: time steps {steps}, the files hold {want}")
    seen = {}
    for t, exp in expected:
        reader.UpdatePipeline(t)
        info = reader.GetDataInformation()
        at = f"{label} t={t:g}"
        check(info.GetNumberOfPoints() == exp["points"],
              f"{at}: {info.GetNumberOfPoints()} points, the files hold {exp['points']}")
        check(info.GetNumberOfCells() == exp["cells"],
              f"{at}: {info.GetNumberOfCells()} cells, expected {exp['cells']}")
        for kind, data, size in (("point", reader.PointData, exp["points"]),
                                 ("cell", reader.CellData, exp["cells"])):
            got, want_arrays = arrays_of(data), exp[kind + "_arrays"]
            seen[(t, kind)] = got
            check(sorted(got) == sorted(want_arrays),
                  f"{at}: {kind} arrays {sorted(got)}, expected {sorted(want_arrays)}")
            for name, (ncomp, tuples, ranges) in got.items():
                if name not in want_arrays:
                    continue
                check(ncomp == want_arrays[name],
                      f"{at}: {kind} array {name} has {ncomp} components, the file {want_arrays[name]}")
                check(tuples == size, f"{at}: {kind} array {name} has {tuples} values, not {size}")
                check(all(math.isfinite(v) for r in ranges for v in r) and
                      all(r[0] <= r[1] for r in ranges),
                      f"{at}: {kind} array {name} has ranges {ranges}")
                other = (reference or {}).get((t, kind), {}).get(name)
                check(reference is None or (other is not None and other[2] == ranges),
                      f"{at}: {kind} array {name} ranges {ranges}, the other reader "
                      f"{other[2] if other else None}")
    return steps, seen


def open_legacy(xmf):
    r = pv.XDMFReader(FileNames=[xmf])
    r.UpdatePipelineInformation()
    # The legacy reader loads only the arrays it is asked for.
    r.PointArrayStatus = r.GetProperty("PointArrayInfo")[::2]
    r.CellArrayStatus = r.GetProperty("CellArrayInfo")[::2]
    return r


# --- one image per model -----------------------------------------------------------------

BACKGROUND = (0.32, 0.34, 0.43)  # ParaView's default background, set explicitly
# The scenario drawn for each model, the field it is coloured by, and the least share of
# the image that must differ from the background: a slice fills much of the view, a point
# cloud a few percent, a volume (drawn as its outline) much less.
PICTURES = {
    "brownian": ("default", "displacement", 0.02),
    "epidermis": ("epidermis-movement", "element_cell", 0.005),
    "spheres": ("welcome", "root", 0.001),  # 200 cells, a few pixels each
    "lattice": ("lattice-free-diffusion", "occupancy", 0.002),
    "gliding": ("gliding-single-ring", "density", 0.2),
    "cardiac": ("cardiac-aliev-panfilov", "cell.V", 0.2),
}


def render(png, reader, t, colour, representation=None):
    """Draws `reader` at time t coloured by `colour` into `png`: the representation and
    the number of pixels that differ from the background, of how many."""
    view = pv.CreateRenderView()
    view.ViewSize = [800, 600]
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = list(BACKGROUND)
    view.ViewTime = t
    display = pv.Show(reader, view)
    if representation:
        display.SetRepresentationType(representation)
    # Colouring by a field shows the data, not one flat colour; the representation stays.
    association = "POINTS" if colour in [a.Name for a in reader.PointData] else "CELLS"
    pv.ColorBy(display, (association, colour))
    display.RescaleTransferFunctionToDataRange(False, True)
    view.ResetCamera()
    pv.Render(view)
    pv.SaveScreenshot(png, view, ImageResolution=[800, 600], TransparentBackground=0)
    shown = str(display.GetPropertyValue("Representation")).strip("'")
    pv.Delete(view)
    image = vtkPNGReader()
    image.SetFileName(png)
    image.Update()
    pixels = vtk_to_numpy(image.GetOutput().GetPointData().GetScalars())[:, :3].astype(int)
    bg = [round(255 * c) for c in BACKGROUND]
    differ = int((abs(pixels - bg).max(axis=1) > 2).sum())
    return shown, differ, len(pixels)


def picture(model, reader, t):
    """One image per model in the default representation; an outline (a volume) gets a
    second image as a slice, which shows the values."""
    scenario, colour, least = PICTURES[model]
    shots = [(os.path.join(IMAGES, f"{model}.png"), None)]
    for png, representation in shots:
        shown, differ, total = render(png, reader, t, colour, representation)
        check(differ >= least * total,
              f"{png}: {differ} of {total} pixels differ from the background, want >= {least:.1%}")
        print(f"image {png}: {scenario}, {shown} coloured by {colour}, {differ} of {total} "
              f"pixels ({differ / total:.1%}) differ from the background (least {least:.1%})",
              flush=True)
        if shown == "Outline" and representation is None:
            shots.append((os.path.join(IMAGES, f"{model}-slice.png"), "Slice"))


def documents(run, files):
    """The run's .xmf files, each with the mesh it shows: (path, "particles" | "grid")."""
    model = files[0]["model"]
    main, grid = os.path.join(run, f"{model}.xmf"), os.path.join(run, f"{model}_grid.xmf")
    particles = any("particles" in f for f in files)
    has_grid = any("grid" in f for f in files)
    docs = [(main, "particles" if particles or not has_grid else "grid")]
    if particles and has_grid:
        docs.append((grid, "grid"))
    return docs


def main():
    runs = sorted(d for d in glob.glob(os.path.join(RUNS, "*")) if os.path.isdir(d))
    check(runs, f"no runs under {RUNS}")
    os.makedirs(IMAGES, exist_ok=True)
    drawn = set()
    for run in runs:
        name = os.path.basename(run)
        files = [expected_of(f) for f in sorted(glob.glob(os.path.join(run, "snapshots", "*.h5")))]
        if not check(len(files) >= 2, f"{name}: {len(files)} snapshots, want >= 2"):
            continue
        model = files[0]["model"]
        docs = documents(run, files)
        found = sorted(glob.glob(os.path.join(run, "*.xmf")))
        check(found == sorted(d for d, _ in docs), f"{name}: .xmf files {found}, expected "
              f"{sorted(d for d, _ in docs)}")
        for xmf, mesh in docs:
            expected = [(f["time"], f[mesh]) for f in files if mesh in f]
            label = f"{name}/{os.path.basename(xmf)}"
            n = len(failures)
            default = pv.OpenDataFile(xmf)
            kind = default.GetXMLName()
            check(kind == "Xdmf3ReaderS", f"{label}: OpenDataFile picked {kind}")
            steps, seen = compare(f"{label} {kind}", default, expected)
            legacy = open_legacy(xmf)
            compare(f"{label} XDMFReader", legacy, expected, seen)
            pv.Delete(legacy)
            t, last = expected[-1]
            print(f"{'ok  ' if len(failures) == n else 'FAIL'} {label} ({model} {mesh}): "
                  f"times {[float(f'{s:.6g}') for s in steps]}; {last['points']} points, "
                  f"{last['cells']} cells; point arrays {sorted(last['point_arrays'])}; "
                  f"cell arrays {sorted(last['cell_arrays'])}; the same in both readers",
                  flush=True)
            if PICTURES.get(model, ("",))[0] == name and xmf == docs[0][0]:
                picture(model, default, t)
                drawn.add(model)
            pv.Delete(default)
    for model, (scenario, _, _) in PICTURES.items():
        check(model in drawn, f"no image of {model}: scenario {scenario} did not run")
    print(f"{len(failures)} failures" if failures else "all ParaView checks passed", flush=True)
    return 1 if failures else 0


sys.exit(main())
