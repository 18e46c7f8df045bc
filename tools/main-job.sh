#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job after a build: the desktop window on the welcome scenario where a display
# exists (and the build has the window), else a background run of the epidermis that
# writes an image and a movie (out/epidermis.png, out/epidermis.mp4).
#   usage: tools/main-job.sh [BUILD_DIR]   (default build/default)
set -euo pipefail
cd "$(dirname "$0")/.."
app="${1:-build/default}/gui/cellforge"
[ -x "$app" ] || { echo "main-job: $app is not built (run the build first)" >&2; exit 2; }
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  # Exit code 2 before any window: this build has none (configured without Qt 6).
  rc=0
  "$app" || rc=$?  # no scenario named: the welcome scenario
  [ "$rc" -ne 2 ] && exit "$rc"
  echo "main-job: this build has no window (a preset without it, e.g. headless; the default" \
    "preset builds it), so the background run follows" >&2
else
  echo "main-job: no display, running in the background (cellforge --headless)"
fi
exec "$app" --headless assets/scenarios/epidermis-network.toml --every 30 --turn 0.5 \
  --screenshot out/epidermis.png --record out/epidermis.mp4
