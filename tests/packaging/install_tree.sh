#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The installed tree works on its own, moved anywhere (what the .tar.gz and the .deb hold):
# `cmake --install` into a scratch prefix, then the installed programs find their bundled
# scenarios from where they are, run one by name, and the desktop files validate.
#   usage: install_tree.sh BUILD_DIR [PYTHON]
# PYTHON: the interpreter the module `cellforge` was built for, where the build has it.
set -euo pipefail
build=$1
python=${2:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_tree: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/a/usr" >"$work/install.log" 2>&1 ||
  { tail -5 "$work/install.log"; fail "cmake --install failed"; }
mv "$work/a" "$work/moved"  # relocated after installing: nothing may point back
prefix=$work/moved/usr
share=$prefix/share/cellforge
for f in bin/cellforge-sim share/cellforge/scenarios/welcome.toml \
         share/cellforge/scenarios/thumbnails/welcome.png share/cellforge/meshes/capsule.obj \
         share/cellforge/models/tentusscher_2006.cfm share/doc/cellforge/copyright \
         share/doc/cellforge/docs/reference/scenario-file.md; do
  [[ -f $prefix/$f ]] || fail "missing $f"
done
toml_count=$(find "$share/scenarios" -maxdepth 1 -name '*.toml' | wc -l)
png_count=$(find "$share/scenarios/thumbnails" -name '*.png' | wc -l)
[[ $toml_count -ge 20 && $toml_count -eq $png_count ]] ||
  fail "$toml_count scenarios but $png_count thumbnails"

# The installed cellforge-sim lists the installed scenarios and runs one by its name.
"$prefix/bin/cellforge-sim" scenarios >"$work/list.txt"
grep -q "^Bundled scenarios in $share/scenarios" "$work/list.txt" ||
  fail "scenarios not listed from the installed tree: $(head -1 "$work/list.txt")"
grep -q "^welcome  *spheres  *Welcome to Cellforge" "$work/list.txt" || fail "welcome not listed"
(cd "$work" && "$prefix/bin/cellforge-sim" run lattice-conversion-cell --steps 5 --out run \
   >run.log 2>&1) || { cat "$work/run.log"; fail "run by name failed"; }
grep -q "^cellforge-sim: backend \(cpu\|cuda\) (" "$work/run.log" || fail "no backend line"
grep -q "\"scenario\": \"$share/scenarios/lattice-conversion-cell.toml\"" "$work/run/run.json" ||
  fail "run.json does not name the bundled file"
# The lattice-crowded-cell scenario reads ../meshes/capsule.obj: found in the installed tree.
"$prefix/bin/cellforge-sim" run lattice-crowded-cell --steps 0 --out "$work/mesh" \
  >"$work/mesh.log" 2>&1 || { cat "$work/mesh.log"; fail "mesh scenario failed"; }

# The module `cellforge`, where built: imported from the installed tree, it finds the
# bundled scenarios beside it (share/cellforge) and runs one by name.
pkg=$prefix/lib/python3/dist-packages
if [[ -f $pkg/cellforge/__init__.py ]]; then
  (cd "$work" && PYTHONPATH=$pkg "$python" -c '
import sys, cellforge
assert cellforge.data_directory() == sys.argv[1], cellforge.data_directory()
sim = cellforge.Simulation("lattice-conversion-cell", backend="cpu")
sim.step(2)
assert sim.step_count == 2
' "$share") >"$work/python.log" 2>&1 || { cat "$work/python.log"; fail "the installed module failed"; }
fi

if [[ -x $prefix/bin/cellforge && -f $prefix/share/applications/io.github.cellforge.Cellforge.desktop ]]; then
  for size in 48 64 128 256; do
    [[ -f $prefix/share/icons/hicolor/${size}x${size}/apps/io.github.cellforge.Cellforge.png ]] ||
      fail "no ${size}px icon"
  done
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$prefix/share/applications/io.github.cellforge.Cellforge.desktop" ||
      fail "desktop entry invalid"
  else
    echo "install_tree: desktop-file-validate not installed; desktop entry not validated"
  fi
  if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net \
      "$prefix/share/metainfo/io.github.cellforge.Cellforge.metainfo.xml" >"$work/as.log" 2>&1 ||
      { cat "$work/as.log"; fail "AppStream metadata invalid"; }
  else
    echo "install_tree: appstreamcli not installed; AppStream metadata not validated"
  fi
fi
echo "install_tree: $toml_count scenarios with thumbnails; installed programs run from $prefix"
