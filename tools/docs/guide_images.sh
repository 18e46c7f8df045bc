#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The user guide's pictures (docs/images/guide/), every one made by the programs themselves:
# the window pictured by `cellforge --grab-window` under Xvfb, frames the headless renderer
# wrote, a frame of a movie it recorded, and a plot of a sweep's summary.csv. About two minutes
# on two cores.
#   usage: tools/docs/guide_images.sh [BUILD_DIR] [OUTDIR]
# Needs xvfb-run (Debian: xvfb), ffmpeg/ffprobe and python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build/default}")
out=$(realpath -m "${2:-$root/docs/images/guide}")
gui=$build/gui/cellforge
sim=$build/sim/cli/cellforge-sim
for tool in xvfb-run ffmpeg ffprobe python3; do
  command -v $tool >/dev/null || { echo "guide_images: needs $tool" >&2; exit 2; }
done
[[ -x $gui && -x $sim ]] || { echo "guide_images: build cellforge and cellforge-sim first" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export XDG_CONFIG_HOME=$work/config  # a first start: no window layout from earlier runs

window() {  # name seconds args...: a picture of the window as a user sees it
  local name=$1 after=$2
  shift 2
  xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" "$@" --grab-window "$work/$name.png" \
    --grab-after "$after" >"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
  # Scaled to 1280 wide: sharp in a browser, small in the repository.
  ffmpeg -loglevel error -y -i "$work/$name.png" -vf scale=1280:-1:flags=lanczos "$out/$name.png"
  echo "$out/$name.png"
}

window window-welcome 9                    # first start: the welcome tour
window window-parameters 12 cardiac-aliev-panfilov --play  # parameters, model text
window window-volume 8 lattice-conversion-cell --play --raise-dock Volume
window presentation 20 gliding-single-ring --play --present

# Headless: a picture and a movie, no display.
"$gui" --headless gliding-single-ring --steps 300 --vectors flow --screenshot "$work/h.png" \
  --size 1280x720 >"$work/headless.log" 2>&1 || { cat "$work/headless.log"; exit 1; }
cp "$work/h.png" "$out/headless-gliding.png"
grep "backend" "$work/headless.log" >"$out/headless-gliding.txt"
"$gui" --headless spheres-spheroid --steps 600 --every 10 --turn 1 --record "$work/m.mp4" \
  --size 1280x720 --fps 30 >"$work/movie.log" 2>&1 || { cat "$work/movie.log"; exit 1; }
ffprobe -v error -show_entries stream=codec_name,width,height,nb_frames,r_frame_rate \
  -of default=noprint_wrappers=1 "$work/m.mp4" >"$out/movie-ffprobe.txt"
ffmpeg -loglevel error -y -sseof -0.1 -i "$work/m.mp4" -frames:v 1 "$out/movie-last-frame.png"
echo "$out/movie-last-frame.png"

# A sweep: the mean squared displacement of dilute Brownian particles after 0.2 s, for four
# diffusion coefficients, against 6 D t.
"$sim" sweep default --vary dynamics.diffusion=0.5:2:4 --set system.count=2000 --steps 200 \
  --out "$work/sweep" >"$work/sweep.log" 2>&1 || { cat "$work/sweep.log"; exit 1; }
cp "$work/sweep/summary.csv" "$out/sweep-summary.csv"
python3 - "$work/sweep" "$work/ref.csv" <<'PY'
import csv, sys, tomllib
rows = list(csv.DictReader(open(sys.argv[1] + "/summary.csv")))
d_col = next(k for k in rows[0] if k.startswith("dynamics.diffusion"))
run = tomllib.load(open(sys.argv[1] + "/run-0001/scenario.toml", "rb"))
t = run["steps"] * run["parameters"]["dynamics"]["dt"]  # the runs' final time [s]
with open(sys.argv[2], "w") as f:  # free diffusion in 3-D: MSD = 6 D t
    f.write("D,msd\n")
    for r in rows:
        f.write(f"{r[d_col]},{6 * float(r[d_col]) * t}\n")
PY
d_header=$(head -1 "$work/sweep/summary.csv" | tr ',' '\n' | grep '^dynamics.diffusion')
msd_header=$(head -1 "$work/sweep/summary.csv" | tr ',' '\n' | grep '^msd')
python3 "$root/tools/docs/plot_svg.py" --out "$out/sweep-msd.svg" \
  --title "cellforge-sim sweep default --vary dynamics.diffusion=0.5:2:4" \
  --xlabel "D [um^2/s]" --ylabel "MSD after 0.2 s [um^2]" \
  --points "$work/sweep/summary.csv" "$d_header" "$msd_header" "measured (2000 particles)" \
  --ref "$work/ref.csv" D msd "6 D t" --legend tl
echo "$out/sweep-msd.svg"
