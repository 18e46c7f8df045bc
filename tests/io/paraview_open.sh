#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every bundled scenario's snapshots open in ParaView: each scenario runs one step with a
# snapshot every step (two snapshot times), then paraview_check.py (under pvpython) opens
# the .xmf with the default and the legacy XDMF reader, compares points, cells, arrays,
# ranges and times with the HDF5 files, and renders one image per model into IMAGES_DIR.
#   usage: paraview_open.sh path/to/cellforge-sim path/to/assets/scenarios IMAGES_DIR
# Needs pvpython (Debian's python3-paraview), h5dump (hdf5-tools) and, without a display,
# xvfb-run (xvfb); packaging/install-deps.sh installs them. A missing one fails the test.
set -u
sim="$1"
scenarios="$2"
images="$3"
here="$(cd "${0%/*}" && pwd)"

need() {  # need COMMAND PACKAGE
  command -v "$1" > /dev/null && return 0
  echo "FAIL $1 not found: install Debian's $2 (packaging/install-deps.sh installs it)"
  exit 1
}
need pvpython python3-paraview
need h5dump hdf5-tools
display=()
if [ -z "${DISPLAY:-}" ]; then
  need xvfb-run xvfb
  # A 24-bit screen: xvfb-run's default is 8 bits deep, where a GLX visual for VTK's render
  # window is not always found (pvpython aborted in CreateAWindow on a loaded machine).
  display=(xvfb-run -a -s "-screen 0 1280x1024x24")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One step with a snapshot at every step gives the fewest steps with two snapshot times.
# spheres-benchmark-b's 2 million cells take minutes per step on a CPU, so it runs with
# fewer (its files are checked the same way); cardiac-aliev-panfilov, the cardiac picture,
# runs to 8 ms so that its wave has started (the stimulus begins at 1 ms).
declare -A options=(
  [spheres-benchmark-b]="--steps 1 --every 1 --set init.count=20000"
  [cardiac-aliev-panfilov]="--steps 400 --every 200"
)

start=$SECONDS
failures=0
for toml in "$scenarios"/*.toml; do
  name=$(basename "$toml" .toml)
  model=$(sed -n 's/^model *= *"\(.*\)".*/\1/p' "$toml" | head -1)
  if ! "$sim" params "$model" > /dev/null 2>&1; then
    echo "skip $name: this build has no $model model"
    continue
  fi
  t0=$SECONDS
  opts=${options[$name]:-"--steps 1 --every 1"}
  # shellcheck disable=SC2086 # the options are words
  if ! "$sim" run "$toml" --backend cpu $opts \
      --out "$work/runs/$name" > "$work/$name.log" 2>&1; then
    echo "FAIL $name: cellforge-sim run failed:"
    sed 's/^/    /' "$work/$name.log" | tail -5
    failures=$((failures + 1))
    continue
  fi
  echo "ran  $name in $((SECONDS - t0)) s ($(du -sh "$work/runs/$name/snapshots" | cut -f1) of snapshots)"
done
echo "runs took $((SECONDS - start)) s"

t0=$SECONDS
mkdir -p "$images"
for attempt in 1 2 3; do
  "${display[@]}" pvpython --force-offscreen-rendering "$here/paraview_check.py" "$work/runs" "$images" \
    > "$work/pvpython.log" 2>&1
  code=$?
  # VTK aborts now and then while creating a window on a fresh Xvfb of a loaded machine (a
  # GLX visual not yet there; seen at the first view and at a later one): that, and only
  # that, is tried again, twice at most, saying so.
  if [ "$code" -eq 134 ] && [ "$attempt" -lt 3 ] && grep -q "CreateAWindow" "$work/pvpython.log"; then
    echo "pvpython aborted creating its X window (vtkXOpenGLRenderWindow::CreateAWindow): again"
    continue
  fi
  break
done
# ParaView's own chatter (reader warnings, X messages) stays out unless something failed.
grep -E '^(ok|FAIL|image|all ParaView|[0-9]+ failures)' "$work/pvpython.log"
if [ "$code" -ne 0 ]; then
  echo "pvpython exited with $code; its last lines:"
  tail -20 "$work/pvpython.log" | sed 's/^/    /'
  failures=$((failures + 1))
fi
echo "ParaView checks took $((SECONDS - t0)) s"
[ "$failures" -eq 0 ]
