#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders the PNG sizes of the icon that the package installs next to the SVG (menus that do
# not draw SVG take these). Needs rsvg-convert (Debian: librsvg2-bin); the PNGs are committed.
set -euo pipefail
cd "$(dirname "$0")"
for size in 48 64 128 256; do
  rsvg-convert -w $size -h $size io.github.cellforge.Cellforge.svg -o "icon-$size.png"
done
