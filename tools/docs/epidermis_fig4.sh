#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The epidermis page's reference picture (docs/EPIDERMIS.md, "The growth test, calibrated"):
# the calibrated full model from Fig. 4's start (assets/scenarios/epidermis-full.toml, 100
# cells, 130,000 steps) rendered by Cellforge at its last step, coloured by cell state, into
# docs/images/figures/epidermis-fig4-calibrated.png (1280x720). 130,000 steps need a GPU: about
# a minute on an H100 (2026-11-28), most of an hour on one CPU core.
#   usage: tools/docs/epidermis_fig4.sh BUILD_DIR [cuda|cpu]
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 BUILD_DIR [cuda|cpu]" >&2; exit 2; }
build=$(realpath "$1")
backend=${2:-cuda}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/docs/images/figures/epidermis-fig4-calibrated.png
"$build/gui/cellforge" --headless "$root/assets/scenarios/epidermis-full.toml" \
    --backend "$backend" --every 13000 --size 1280x720 --color state \
    --title "Epidermis from Fig. 4's start: 100 cells, 130,000 steps" --screenshot "$out"
echo "epidermis_fig4: $out"
