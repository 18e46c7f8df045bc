#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the `gpu` preset (sim + tests, no Qt) on a CUDA machine, runs the GPU-labelled
# tests and the benchmarks, and prints a short table last. Logs and JSON go to $OUT (or
# ./gpu-out). docs/reference/gpu-staging.md says what a
# bare server must have and how to bring the Debian packages the build needs.
# Benchmarks run on the CUDA backend only unless --bench-cpu is given (the CPU reference
# figures take minutes there and are recorded separately in docs/PERFORMANCE.md).
#   usage: tests/gpu/run.sh [--no-bench] [--bench-cpu] [--bench-scale S]
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-$PWD/gpu-out}"
mkdir -p "$out"
bench=1
scale=1
bench_backend="--backend cuda"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-bench) bench=0 ;;
    --bench-cpu) bench_backend="" ;;
    --bench-scale) scale="$2"; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

jobs=$(nproc)
status_build=FAIL status_gpu=FAIL status_all=FAIL status_bench=SKIP
# The Python module against this server's own Python, NumPy and pybind11 where it has them
# (docs/reference/gpu-staging.md): the shared libstdc++, so that NumPy and the module share it.
python_flags=()
if pybind11_dir=$(python3 -m pybind11 --cmakedir 2>/dev/null); then
  python_flags=(-DPython3_EXECUTABLE="$(command -v python3)" -Dpybind11_DIR="$pybind11_dir")
  shared=/usr/lib/x86_64-linux-gnu/libstdc++.so.6
  [ -e "$shared" ] && python_flags+=(-DCMAKE_CXX_STANDARD_LIBRARIES="$shared")
fi
{ cmake --preset gpu -DCELLFORGE_HDF5=AUTO "${python_flags[@]}" && cmake --build --preset gpu -j "$jobs"; } >"$out/build.log" 2>&1 \
  && status_build=ok
if [ "$status_build" = ok ]; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/device.txt" 2>&1
  build/gpu/sim/cli/cellforge-sim backends >>"$out/device.txt" 2>&1
  ctest --test-dir build/gpu -L gpu --output-on-failure -j 1 >"$out/ctest-gpu.log" 2>&1 && status_gpu=ok
  ctest --test-dir build/gpu -LE gpu --output-on-failure -j "$jobs" >"$out/ctest-cpu.log" 2>&1 && status_all=ok
  # The GPU cases must really run here: a skipped CUDA case on a CUDA machine is a failure.
  if grep -q "SKIPPED" "$out/ctest-gpu.log"; then status_gpu="FAIL (skipped)"; fi
  # Per-case results of the CUDA cases, for the record.
  for t in build/gpu/tests/test_*; do
    [ -x "$t" ] && { echo "== $t"; "$t" --gtest_filter='*cuda*:*Cuda*'; } >>"$out/gtest-gpu-cases.log" 2>&1
  done
  # The headless runner end to end on the device.
  build/gpu/sim/cli/cellforge-sim run assets/scenarios/default.toml --backend cuda \
    --out "$out/run-default" >"$out/run-default.txt" 2>&1 || status_gpu="FAIL (cellforge-sim run)"
  if [ "$bench" = 1 ]; then
    status_bench=ok
    for m in $(build/gpu/sim/cli/cellforge-sim list | awk '{print $1}'); do
      build/gpu/sim/cli/cellforge-sim bench "$m" $bench_backend --scale "$scale" --json "$out/bench-$m.json" \
        >>"$out/bench.txt" 2>&1 || status_bench=FAIL
    done
    if [ -x build/gpu/render/cellforge-render-bench ]; then
      build/gpu/render/cellforge-render-bench --points 1000000,4000000 --size 1920x1080 \
        --frames 60 --json "$out/bench-render.json" >>"$out/bench.txt" 2>&1 || status_bench=FAIL
    fi
  fi
fi

echo "================ Cellforge GPU run ================"
[ -f "$out/device.txt" ] && sed 's/^/device: /' "$out/device.txt"
printf '%-22s %s\n' "build (gpu preset)" "$status_build" "tests label=gpu" "$status_gpu" \
  "tests label!=gpu" "$status_all" "benchmarks" "$status_bench"
grep -h -E "tests passed|tests failed" "$out"/ctest-*.log 2>/dev/null | sed 's/^/ctest: /'
grep -h -E "PASSED|FAILED|SKIPPED" "$out/gtest-gpu-cases.log" 2>/dev/null | grep -v "^\[ *OK" | sed 's/^/cuda cases: /' 
[ -f "$out/run-default.txt" ] && sed 's/^/run: /' "$out/run-default.txt"
[ -f "$out/bench.txt" ] && cat "$out/bench.txt"
[ "$status_build" = ok ] && [ "$status_gpu" = ok ] && [ "$status_all" = ok ]
