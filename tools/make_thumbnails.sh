#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the scenario browser's thumbnails: assets/scenarios/thumbnails/<name>.png, 192x108,
# for every assets/scenarios/*.toml, from a short headless run of each (rendered at 384x216
# without the legend, then scaled down by half for smooth edges).
#
#   tools/make_thumbnails.sh [CELLFORGE_BINARY] [STEPS] [NAME...]
#
# CELLFORGE_BINARY defaults to build/default/gui/cellforge; STEPS (default 20) is how far
# each scenario runs before the picture; NAMEs limit it to those scenarios. Needs ffmpeg
# (or ImageMagick) to scale. A few scenarios get their own view (picture_args below):
#  - the Table 3 benchmark scenarios spread a few cells over a 100 x 100 domain: seen whole
#    they are an empty plane, so theirs is a close-up of the domain's centre (the same view
#    for every size, so the thumbnails show how dense each one is);
#  - the 100-cell epidermis scenarios start alike: they run 3000-4000 steps (a few minutes
#    on a CPU) and the network ones are coloured by a species, so that they differ;
#  - spheres: benchmark B (2M agents) runs one step; the spheroid 300, coloured by clone.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath -m "${1:-$root/build/default/gui/cellforge}")
steps=${2:-20}
shift $(( $# < 2 ? $# : 2 ))
only=("$@")
scenarios=$root/assets/scenarios
out=$scenarios/thumbnails

if [[ ! -x $bin ]]; then
  echo "make_thumbnails: no cellforge binary at $bin (build the target cellforge, or pass its path)" >&2
  exit 2
fi
scale() {  # in out
  if command -v ffmpeg >/dev/null; then
    ffmpeg -loglevel error -y -i "$1" -vf scale=192:108:flags=area "$2"
  elif [[ -x /usr/bin/convert ]]; then
    /usr/bin/convert "$1" -filter Box -resize 192x108 -strip "$2"
  else
    echo "make_thumbnails: needs ffmpeg or ImageMagick to scale the images" >&2
    exit 2
  fi
}

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo '[{"time": 0, "target": [50, 50, 0.5], "distance": 32, "yaw": -60, "pitch": 40}]' \
  >"$work/close-up.json"

picture_args() {  # scenario name -> the run's arguments besides the scenario
  case $1 in
    epidermis-table3-*) echo --steps "$steps" --camera-path "$work/close-up.json" ;;
    epidermis-movement) echo --steps 3000 ;;
    epidermis-network)  echo --steps 3000 --color ovol1 ;;
    epidermis-full)     echo --steps 4000 --color delta ;;
    spheres-benchmark-b) echo --steps 1 ;;  # 2M agents: one step is seconds on a CPU
    spheres-spheroid)   echo --steps 300 --color clone ;;
    welcome)            echo --steps 1500 --color clone ;;  # the spheroid, later on
    cardiac-aliev-panfilov) echo --steps 2500 --slices off,off,mid ;;  # the wave half way
    *)                  echo --steps "$steps" ;;
  esac
}

failed=0
for toml in "$scenarios"/*.toml; do
  name=$(basename "$toml" .toml)
  if ((${#only[@]})) && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  # The run's own outputs (if any) go to a scratch folder, not into the tree.
  # shellcheck disable=SC2046  # picture_args gives words without spaces
  if (cd "$work" && "$bin" --headless "$toml" $(picture_args "$name") --backend cpu \
        --screenshot "$work/$name.png" --size 384x216 --no-legend \
        >"$work/$name.log" 2>&1); then
    scale "$work/$name.png" "$out/$name.png"
    echo "$out/$name.png"
  else
    echo "make_thumbnails: $name failed:" >&2
    tail -5 "$work/$name.log" >&2
    failed=1
  fi
done
exit $failed
