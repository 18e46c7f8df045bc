#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The renderer on the GPU machine: builds the `gpu` preset, runs every render test (CPU and
# CUDA labels: GL on the NVIDIA EGL device, CUDA-GL interop for buffers and textures), a
# headless movie and image of the epidermis (read back to check frames, size and codec),
# and the frame-rate benchmark at 1920x1080. Logs, images and JSON go to $OUT.
#   usage: tests/gpu/render_run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-$PWD/gpu-out}"
mkdir -p "$out"
status_build=FAIL status_tests=FAIL status_movie=FAIL status_bench=FAIL
{ cmake --preset gpu -DCELLFORGE_HDF5=OFF && cmake --build --preset gpu -j "$(nproc)"; } \
  >"$out/build.log" 2>&1 && status_build=ok
if [ "$status_build" = ok ]; then
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/device.txt" 2>&1
  grep -E "FFmpeg|movie" "$out/build.log" | head -3 >>"$out/device.txt"
  ctest --test-dir build/gpu -R "render|headless" --output-on-failure >"$out/ctest-render.log" 2>&1 \
    && ! grep -q "SKIPPED" <(grep -v "MovieTest" "$out/ctest-render.log") && status_tests=ok
  for t in build/gpu/tests/test_render*; do
    { echo "== $t"; "$t"; } >>"$out/gtest-render.log" 2>&1
  done
  build/gpu/gui/cellforge --headless assets/scenarios/epidermis-network.toml --backend cuda \
    --steps 3000 --every 30 --turn 0.5 --size 1280x720 --screenshot "$out/epidermis.png" \
    --record "$out/epidermis.mp4" >"$out/movie.txt" 2>&1 \
    && grep -q "movie: .*(101 frames, 1280x720, h264" "$out/movie.txt" && status_movie=ok
  mkdir -p "$out/bench-images"
  build/gpu/render/cellforge-render-bench --points 1000000,4000000 --size 1920x1080 --frames 60 \
    --volume 256 --vectors 512 --json "$out/bench-render.json" --images "$out/bench-images" \
    >"$out/bench.txt" 2>&1 && status_bench=ok
  # One file for the frames the benchmark timed (fewer files come back from the machine).
  tar -cf "$out/bench-images.tar" -C "$out" bench-images && rm -rf "$out/bench-images"
fi
echo "================ Cellforge renderer on the GPU machine ================"
[ -f "$out/device.txt" ] && sed 's/^/device: /' "$out/device.txt"
printf '%-34s %s\n' "build (gpu preset)" "$status_build" "render tests (GL + CUDA-GL)" \
  "$status_tests" "headless epidermis movie" "$status_movie" "render benchmark" "$status_bench"
grep -h -E "tests passed|tests failed|Failed|\*\*\*" "$out/ctest-render.log" 2>/dev/null | sed 's/^/ctest: /'
grep -h -E "^\[  (PASSED|FAILED|SKIPPED) " "$out/gtest-render.log" 2>/dev/null | sed 's/^/gtest: /'
[ -f "$out/movie.txt" ] && grep -E "movie:|image:|error" "$out/movie.txt" | sed 's/^/run: /'
[ -f "$out/bench.txt" ] && cat "$out/bench.txt"
[ "$status_build" = ok ] && [ "$status_tests" = ok ] && [ "$status_movie" = ok ]
