#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks every #include of the source tree against the allowed edges between its layers.

The layers (ARCHITECTURE.md, "Layers"):
    sim/core <- sim/cuda, sim/dist <- sim/grid, sim/geometry <- sim/io <- sim/run <- sim/cli
    sim/core, cuda, dist, grid, geometry <- sim/models/<each model> <- sim/models (registry)
    sim <- render <- app <- gui
    app, render, sim/core, sim/io, sim/run <- python (the module `cellforge`)
A model is included only by its own folder, the registry (sim/models/builtin_models.cpp),
its tests and the fuzzers: never by render/, app/, gui/ or the CLI. Qt stays in gui/; GL
stays out of sim/.

Usage: check_layering.py [ROOT]   (default: the repository this script is in)
Prints one line per forbidden include, "file:line: ...", and exits 1; exits 0 when clean.
A folder that holds sources but has no row below is an error too, so a new folder states
its place.
"""
import os
import re
import sys

SIM_LOW = {"sim/core", "sim/cuda", "sim/dist", "sim/grid", "sim/geometry"}
SIM_ALL_BUT_CLI = SIM_LOW | {"sim/io", "sim/run", "sim/models", "sim/models/*"}
RENDER = {"render", "render/cuda", "render/bench"}

# Unit -> the units its files may include (a unit may always include itself).
ALLOWED = {
    "sim/core": set(),
    "sim/cuda": {"sim/core"},
    "sim/dist": {"sim/core"},
    "sim/grid": {"sim/core", "sim/cuda"},
    "sim/geometry": {"sim/core"},
    "sim/io": {"sim/core", "sim/dist"},
    "sim/run": {"sim/core", "sim/cuda", "sim/dist", "sim/io"},
    "sim/models/*": SIM_LOW | {"generated"},
    "sim/models": SIM_LOW | {"sim/models/*"},
    "sim/cli": {"sim/core", "sim/cuda", "sim/dist", "sim/io", "sim/run"},
    "render": {"sim/core", "sim/geometry"},
    "render/cuda": {"render", "sim/core", "sim/cuda"},
    "render/bench": {"render", "render/cuda", "sim/core"},
    "app": {"render", "render/cuda", "sim/core", "sim/cuda", "sim/io", "sim/run"},
    "gui": {"app", "render", "sim/core", "sim/io", "sim/run"},
    "python": {"app", "render", "sim/core", "sim/io", "sim/run"},
    "fuzz": SIM_ALL_BUT_CLI,
    "tests/support": SIM_ALL_BUT_CLI | RENDER | {"app", "gui"},
    "tests/sim": SIM_ALL_BUT_CLI | {"tests/support"},
    "tests/docs": SIM_ALL_BUT_CLI | {"tests/support"},
    "tests/render": RENDER | {"sim/core", "sim/geometry", "tests/support"},
    "tests/app": {"app"} | RENDER | SIM_LOW | {"sim/io", "sim/run", "tests/support"},
    "tests/gui": {"gui", "app"} | RENDER | SIM_LOW | {"sim/io", "sim/run", "tests/support"},
}
# System headers a unit may not include: (unit prefix, pattern, what it means).
FORBIDDEN_SYSTEM = [
    ("sim/", r"^(Q|qt)", "Qt"),
    ("sim/", r"^(epoxy|GL|EGL|GLES\d?)/", "OpenGL"),
    ("render", r"^(Q|qt)", "Qt"),
    ("app", r"^(Q|qt)", "Qt"),
]
SOURCE = re.compile(r"\.(c|h|cpp|hpp|cu|cuh)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SKIP_DIRS = {".git", "build", "third_party", "fuzz/corpus"}


def unit_of(path):
    """The layer a repository-relative path belongs to, or None outside the checked tree."""
    parts = path.split("/")
    if parts[0] == "sim" and len(parts) > 2:
        if parts[1] == "models":
            return "sim/models/*" if len(parts) > 3 else "sim/models"
        return "sim/" + parts[1]
    if parts[0] == "render" and len(parts) > 2 and parts[1] in ("cuda", "bench"):
        return "render/" + parts[1]
    if parts[0] == "tests" and len(parts) > 2:
        return "tests/" + parts[1]
    if parts[0] == "generated":
        return "generated"
    if parts[0] in ("sim", "render", "app", "gui", "fuzz", "python") and len(parts) > 1:
        return parts[0]
    return None


def model_of(path):
    parts = path.split("/")
    return parts[2] if parts[:2] == ["sim", "models"] and len(parts) > 3 else None


def sources(root):
    for directory, subdirs, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root).replace(os.sep, "/")
        subdirs[:] = sorted(
            d for d in subdirs
            if d not in SKIP_DIRS and f"{rel_dir}/{d}".lstrip("./") not in SKIP_DIRS
            and not d.startswith("build"))
        for name in sorted(files):
            if SOURCE.search(name):
                yield os.path.normpath(os.path.join(rel_dir, name)).replace(os.sep, "/")


def resolve(root, including, target):
    """Quoted includes name a path from the repository root; a bare name or a ../ path is
    relative to the including file (Qt's .moc files are generated next to the build)."""
    local = os.path.normpath(os.path.join(os.path.dirname(including), target))
    if ("/" not in target or target.startswith("..")) and os.path.exists(os.path.join(root, local)):
        return local.replace(os.sep, "/")
    return target


def check(root):
    problems = []
    for path in sources(root):
        unit = unit_of(path)
        if unit is None:
            continue
        if unit not in ALLOWED:
            problems.append(f"{path}:1: folder '{unit}' has no row in tools/check_layering.py "
                            "(say which layers it may include)")
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                kind, target = m.groups()
                if kind == "<":
                    for prefix, pattern, what in FORBIDDEN_SYSTEM:
                        if path.startswith(prefix) and re.match(pattern, target):
                            problems.append(f"{path}:{number}: includes <{target}>: {what} does "
                                            f"not belong in {unit}")
                    continue
                if target.endswith(".moc"):
                    continue
                target = resolve(root, path, target)
                to = unit_of(target)
                if to is None:
                    continue
                if to == unit:
                    if unit == "sim/models/*" and model_of(target) != model_of(path):
                        problems.append(f"{path}:{number}: includes '{target}': model "
                                        f"'{model_of(path)}' may not include model "
                                        f"'{model_of(target)}' (only the registry, "
                                        "sim/models/builtin_models.cpp, sees every model)")
                    continue
                if to not in ALLOWED[unit]:
                    allowed = ", ".join(sorted(ALLOWED[unit])) or "nothing outside itself"
                    problems.append(f"{path}:{number}: includes '{target}' ({to}), which "
                                    f"{unit} may not include (allowed: {allowed})")
    return problems


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layering: {len(problems)} forbidden include(s); the allowed edges are "
              "the table ALLOWED in tools/check_layering.py (ARCHITECTURE.md, Layers)")
        return 1
    print("check_layering: every include follows the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
