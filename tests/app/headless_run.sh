#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `cellforge --headless` writes a PNG and an MP4 of a run; bad input exits 2.
#   usage: headless_run.sh path/to/cellforge path/to/assets/scenarios
set -u
app="$1"
scenarios="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$("$app" --headless "$scenarios/epidermis-movement.toml" --steps 30 --every 10 \
  --screenshot "$work/frame.png" --size 320x240 2>&1)
rc=$?
echo "$out"
if grep -q "no headless OpenGL" <<<"$out"; then
  echo "skipped: no headless OpenGL here"; exit 0
fi
fail=0
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; fail=1; }
[ -s "$work/frame.png" ] || { echo "FAIL: no PNG"; fail=1; }
# The movie: 4 frames (steps 0, 10, 20, 30); builds without FFmpeg say so and exit 2.
out=$("$app" --headless "$scenarios/epidermis-movement.toml" --steps 30 --every 10 \
  --record "$work/run.mp4" --size 320x240 2>&1)
rc=$?
echo "$out"
if [ "$rc" -eq 2 ] && grep -q "no movie support" <<<"$out"; then
  echo "movie: not in this build"
else
  [ "$rc" -eq 0 ] || { echo "FAIL: movie run exit $rc"; fail=1; }
  grep -q "movie: .* (4 frames, 320x240" <<<"$out" || { echo "FAIL: movie frames/size"; fail=1; }
  [ -s "$work/run.mp4" ] || { echo "FAIL: no MP4"; fail=1; }
fi
"$app" --headless "$scenarios/epidermis-movement.toml" --size 320x241 --record "$work/x.mp4" \
  --steps 1 >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an odd movie size must exit 2"; fail=1; }
# A scripted camera path drives the frames; a broken one is bad input naming the file.
"$app" --headless "$scenarios/epidermis-movement.toml" --steps 20 --every 10 --size 160x120 \
  --camera-path "$scenarios/../camera-paths/epidermis-flyover.json" \
  --screenshot "$work/path.png" >/dev/null 2>&1 || { echo "FAIL: camera path run"; fail=1; }
[ -s "$work/path.png" ] || { echo "FAIL: no PNG from the camera path run"; fail=1; }
echo '[{"time": 0, "distance": 5}]' >"$work/bad-path.json"
out=$("$app" --headless "$scenarios/epidermis-movement.toml" --steps 1 \
  --camera-path "$work/bad-path.json" --screenshot "$work/y.png" 2>&1)
[ $? -eq 2 ] && grep -q "bad-path.json: camera path: key frame 0: missing field 'target'" <<<"$out" \
  || { echo "FAIL: a bad camera path must exit 2 naming the file and field: $out"; fail=1; }
# --volume picks one of a model's volumes (gliding with output.profiles offers two); an
# unknown name is bad input listing them.
out=$("$app" --headless "$scenarios/gliding-single-ring.toml" --backend cpu --steps 0 \
  --set output.profiles=true --volume flow_profile --screenshot "$work/profile.png" \
  --size 160x120 2>&1)
[ $? -eq 0 ] && grep -q "^volume: flow_profile, channel" <<<"$out" \
  || { echo "FAIL: --volume flow_profile: $out"; fail=1; }
out=$("$app" --headless "$scenarios/gliding-single-ring.toml" --backend cpu --steps 0 \
  --set output.profiles=true --volume nope --screenshot "$work/z.png" 2>&1)
[ $? -eq 2 ] && grep -q "no volume view 'nope' (there are: assay, flow_profile)" \
  <<<"$out" || { echo "FAIL: a bad --volume must exit 2 listing the volumes: $out"; fail=1; }
"$app" --headless "$work/missing.toml" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: a missing scenario must exit 2"; fail=1; }
"$app" --headless "$scenarios/epidermis-movement.toml" --set time.dt=-1 >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: a bad --set must exit 2"; fail=1; }
[ "$fail" -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit "$fail"
