#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the documentation's generated parts from the programs (the `docs` target runs this):
#   docs/reference/scenario-file.md   `cellforge-sim params --markdown` (the parameter specs)
#   docs/images/figures/*.svg          tools/docs/figures.sh: validation runs and their plots
#   docs/images/guide/*                tools/docs/guide_images.sh: the window and headless runs
#   docs/images/notebook/*.png         docs/notebooks/cellforge-python.ipynb executed against the
#                                      build's module `cellforge` (about 20 s), and its page
#                                      docs/notebooks/cellforge-python.html
# GPU-made figures are regenerated on the GPU machine by their own scripts and kept:
#   docs/images/figures/epidermis-fig4-calibrated.png  tools/docs/epidermis_fig4.sh
#   docs/images/figures/spheres-roofline.svg           tools/docs/spheres_roofline.sh
# then checks that every picture the docs show exists and is one of those. About five minutes
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
echo "build-docs: Python notebook"
# Executed with Debian's Jupyter (its python3 kernel) against the build tree's module; the
# notebook writes its figures to docs/images/notebook itself. The executed copy stays in
# the build directory; its HTML page (figures embedded) goes to docs/notebooks.
if [[ ! -f $build/python/cellforge/__init__.py ]]; then
  echo "build-docs: $build/python/cellforge is missing (a build with CELLFORGE_PYTHON on)" >&2
  exit 1
fi
mkdir -p "$build/docs-notebooks"
PYTHONPATH=$build/python timeout 900 jupyter nbconvert --to notebook --execute \
  --ExecutePreprocessor.timeout=600 --output-dir "$build/docs-notebooks" \
  --output cellforge-python.ipynb "$root/docs/notebooks/cellforge-python.ipynb"
jupyter nbconvert --to html --template basic --output-dir "$root/docs/notebooks" \
  --output cellforge-python "$build/docs-notebooks/cellforge-python.ipynb"
bash "$root/tests/docs/images.sh" "$root"
