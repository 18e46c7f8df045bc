#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The outputs of a distributed run open in ParaView as one dataset: 3 ranks write their
# pieces of four grids (write_piece_snapshots: a volume split along z, one along x, one
# split into single planes, a sheet split along x), then paraview_pieces_check.py (under
# pvpython) opens each .xmf with both XDMF readers, merges the pieces and compares them
# with the whole grid.
#   usage: paraview_pieces.sh path/to/mpiexec path/to/write_piece_snapshots
# Needs pvpython (Debian's python3-paraview) and, without a display, xvfb-run (xvfb);
# packaging/install-deps.sh installs them. A missing one fails the test.
set -u
mpiexec="$1"
writer="$2"
here="$(cd "${0%/*}" && pwd)"

need() {  # need COMMAND PACKAGE
  command -v "$1" > /dev/null && return 0
  echo "FAIL $1 not found: install Debian's $2 (packaging/install-deps.sh installs it)"
  exit 1
}
need pvpython python3-paraview
display=()
if [ -z "${DISPLAY:-}" ]; then
  need xvfb-run xvfb
  # A 24-bit screen, as paraview_open.sh (xvfb-run's 8-bit default can leave VTK without
  # a GLX visual).
  display=(xvfb-run -a -s "-screen 0 1280x1024x24")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! "$mpiexec" --oversubscribe -n 3 "$writer" "$work/runs" > "$work/writer.log" 2>&1; then
  echo "FAIL write_piece_snapshots on 3 ranks failed:"
  sed 's/^/    /' "$work/writer.log" | tail -10
  exit 1
fi
"${display[@]}" pvpython --force-offscreen-rendering "$here/paraview_pieces_check.py" \
  "$work/runs" > "$work/pvpython.log" 2>&1
code=$?
# ParaView's own chatter (reader warnings, X messages) stays out unless something failed.
grep -E '^(ok|FAIL|all ParaView|[0-9]+ failures)' "$work/pvpython.log"
if [ "$code" -ne 0 ]; then
  echo "pvpython exited with $code; its last lines:"
  tail -20 "$work/pvpython.log" | sed 's/^/    /'
fi
exit "$code"
