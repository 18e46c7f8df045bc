#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the documentation's generated parts from the programs (the `docs` target runs this):
#   docs/reference/scenario-file.md   `cellforge-sim params --markdown` (the parameter specs)
#   docs/images/figures/*.svg          tools/docs/figures.sh: validation runs and their plots
#   docs/images/guide/*                tools/docs/guide_images.sh: the window and headless runs
# then checks that every picture the docs show exists and is one of those. About four minutes
# on two cores; needs what packaging/install-deps.sh installs.
#   usage: tools/docs/build-docs.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build/default}")
sim=$build/sim/cli/cellforge-sim
echo "build-docs: scenario-file reference"
"$sim" params --markdown >"$root/docs/reference/scenario-file.md"
echo "build-docs: validation figures"
bash "$root/tools/docs/figures.sh" "$sim" "$build/docs-figures"
echo "build-docs: user guide pictures"
bash "$root/tools/docs/guide_images.sh" "$build" "$root/docs/images/guide"
bash "$root/tests/docs/images.sh" "$root"
