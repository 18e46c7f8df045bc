#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every picture the docs show is made by the project: each image or data file that README.md
# and docs/**/*.md link to exists, lies under docs/images/guide, docs/images/figures or
# docs/images/notebook, and is named by the script or notebook that makes it
# (tools/docs/guide_images.sh, tools/docs/figures.sh, tools/docs/lattice_crowding.sh,
# tools/docs/epidermis_fig4.sh, tools/docs/spheres_roofline.sh,
# docs/notebooks/cellforge-python.ipynb); and
# no file sits in those folders that no page shows (a stale picture).
#   usage: images.sh REPO_ROOT
set -euo pipefail
root=$1
makers="$root/tools/docs/guide_images.sh $root/tools/docs/figures.sh $root/tools/docs/lattice_crowding.sh $root/tools/docs/epidermis_fig4.sh $root/tools/docs/spheres_roofline.sh $root/docs/notebooks/cellforge-python.ipynb"
bad=0
declare -A linked=()
while IFS= read -r md; do
  dir=$(dirname "$md")
  # Markdown links and images whose target is a picture or a data file.
  while IFS= read -r target; do
    path=$(realpath -m "$dir/$target")
    rel=${path#"$root"/}
    linked[$rel]=1
    if [[ ! -f $path ]]; then
      echo "FAIL ${md#"$root"/}: $target does not exist"; bad=1; continue
    fi
    case $rel in
      docs/images/guide/*|docs/images/figures/*|docs/images/notebook/*) ;;
      *) echo "FAIL ${md#"$root"/}: $target is not a picture the docs build makes"; bad=1; continue ;;
    esac
    # shellcheck disable=SC2086
    if ! grep -q "$(basename "${rel%.*}")" $makers; then
      echo "FAIL ${md#"$root"/}: no script in tools/docs names $(basename "$rel")"; bad=1
    fi
  done < <(grep -o '\]([^)#]*\.\(png\|svg\|csv\|txt\|jpg\))' "$md" | sed 's/^](//; s/)$//' |
           grep -v '^https\?:' || true)
done < <(find "$root/docs" -name '*.md' -not -path '*/design/*'; echo "$root/README.md")
for f in "$root"/docs/images/guide/* "$root"/docs/images/figures/* "$root"/docs/images/notebook/*; do
  rel=${f#"$root"/}
  case $rel in *.txt|*.csv) continue ;; esac  # data next to a picture, linked or quoted
  [[ -n ${linked[$rel]:-} ]] || { echo "FAIL $rel is shown by no page"; bad=1; }
done
[[ $bad -eq 0 ]] && echo "images: ${#linked[@]} linked pictures and data files, all made by tools/docs"
exit $bad
