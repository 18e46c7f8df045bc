#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Packs fuzz executables with the shared libraries they load (all but glibc's and the C++
# runtime, which any newer Linux has) and seed corpora into one .tar.xz, so a machine with
# many cores and no Debian packages (the GPU machine) can run them through tools/fuzz.sh:
#   tools/fuzz_bundle.sh [OUT.tar.xz] [TARGET...]   (defaults: build/fuzz-bundle.tar.xz, fuzz_mesh)
# There:
#   tar -xJf fuzz-bundle.tar.xz -C /tmp && export LD_LIBRARY_PATH=/tmp/fuzz-bundle/lib
#   FUZZ_BIN=/tmp/fuzz-bundle/fuzz FUZZ_SEEDS=/tmp/fuzz-bundle/seeds FUZZ_WORKERS=$(nproc) \
#     FUZZ_TARGETS=fuzz_mesh tools/fuzz.sh 1000000 /tmp/fuzz-out
# Seeds are the committed corpus and regressions of each target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/build/fuzz-bundle.tar.xz}")
shift || true
targets=("${@:-fuzz_mesh}")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/fuzz-bundle/fuzz" "$stage/fuzz-bundle/lib"
for t in "${targets[@]}"; do
  bin=$root/build/fuzz/fuzz/$t
  [[ -x $bin ]] || { echo "fuzz_bundle: $bin missing (cmake --build --preset fuzz)" >&2; exit 2; }
  cp "$bin" "$stage/fuzz-bundle/fuzz/"
  ldd "$bin" | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|libresolv|libpthread|libdl|ld-linux[^/]*)\.so' |
    xargs -r -I{} cp -L -n {} "$stage/fuzz-bundle/lib/"
  mkdir -p "$stage/fuzz-bundle/seeds/$t"
  cp "$root/fuzz/corpus/$t/"* "$stage/fuzz-bundle/seeds/$t/"
  if [[ -d $root/fuzz/regressions/$t ]]; then cp "$root/fuzz/regressions/$t/"* "$stage/fuzz-bundle/seeds/$t/"; fi
done
tar -C "$stage" -cf - fuzz-bundle | xz -T0 -3 >"$out"
echo "fuzz_bundle: $out ($(du -h "$out" | cut -f1); ${targets[*]})"
