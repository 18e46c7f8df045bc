#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first step on a machine that has nothing: a new Debian 12 root (mmdebstrap,
# minbase) gets this source tree, runs packaging/install-deps.sh and `cmake --preset default`,
# and the configure's feature summary must show every feature ON. CUDA is the exception the
# default preset allows: the root has no nvcc, so CUDA must read "OFF (no nvcc ...)".
# This catches what a developer's machine hides: a package installed by hand and missing from
# install-deps.sh (the window's libqt6opengl6-dev was one).
#   usage: packaging/check-fresh-root.sh [--build] [OUTDIR]
#     --build  also build and run `cellforge-sim backends` there (about 40 min on 2 cores)
# Needs root, mmdebstrap and a Debian mirror (CELLFORGE_MIRROR). Logs land in OUTDIR
# (default ./fresh-root-check); the summary is printed.
set -euo pipefail
build=0
if [[ ${1:-} == --build ]]; then build=1; shift; fi
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-fresh-root-check}")
mirror=${CELLFORGE_MIRROR:-http://deb.debian.org/debian}
say() { echo "fresh-root: $*"; }
fail() { echo "fresh-root: FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (mmdebstrap and chroot)"
command -v mmdebstrap >/dev/null || fail "needs mmdebstrap (apt-get install mmdebstrap)"
mkdir -p "$out"
root=$(mktemp -d /var/tmp/cellforge-fresh.XXXXXX)
cleanup() {
  for m in proc dev/pts dev; do umount "$root/$m" 2>/dev/null || true; done
  rm -rf "$root"
}
trap cleanup EXIT
t0=$SECONDS

say "mmdebstrap bookworm (minbase) into $root"
mmdebstrap --variant=minbase bookworm "$root" "$mirror" >"$out/mmdebstrap.log" 2>&1 ||
  { tail -5 "$out/mmdebstrap.log"; fail "mmdebstrap failed (see $out/mmdebstrap.log)"; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
              LANG=C.UTF-8 "$@"; }

# The tracked files only: what a clean clone has, without this machine's build trees.
mkdir -p "$root/src/cellforge"
git -C "$src" ls-files -z | (cd "$src" && xargs -0 cp --parents -t "$root/src/cellforge")

say "packaging/install-deps.sh (as the README's first command)"
in_root sh -c 'cd /src/cellforge && packaging/install-deps.sh' >"$out/install-deps.log" 2>&1 ||
  { tail -20 "$out/install-deps.log"; fail "install-deps.sh failed (see $out/install-deps.log)"; }
grep -E "^install-deps:" "$out/install-deps.log" | cut -c1-200 | sed 's/^/fresh-root:   /'
say "  $(in_root dpkg-query -W -f='.\n' | wc -l) packages in the root after $((SECONDS - t0)) s"

say "cmake --preset default"
in_root sh -c 'cd /src/cellforge && cmake --preset default' >"$out/configure.log" 2>&1 ||
  { tail -25 "$out/configure.log"; fail "configure failed (see $out/configure.log)"; }
sed -n '/features:$/,/Configuring done/p' "$out/configure.log" | sed 's/^-- //' |
  tee "$out/features.txt"
features=$(grep -c '^  ' "$out/features.txt" || true)
[[ $features -ge 8 ]] || fail "the configure printed no feature summary"
if grep '^  ' "$out/features.txt" | grep -v '^  CUDA backends' | grep -q ' OFF'; then
  fail "a feature of the default preset is OFF in a fresh root"
fi
grep -qE '^  CUDA backends +OFF \(no nvcc' "$out/features.txt" ||
  fail "CUDA should read OFF (no nvcc) in a root without the CUDA toolkit"

# And the other way round: the package this check was written for, taken away again, must
# stop configure with its name rather than build less.
say "without libqt6opengl6-dev, configure must stop and name it"
in_root dpkg --remove --force-depends libqt6opengl6-dev >"$out/remove.log" 2>&1
if in_root sh -c 'cd /src/cellforge && cmake --preset default -B /tmp/without-qt-opengl' \
  >"$out/configure-without.log" 2>&1; then
  fail "configure succeeded without libqt6opengl6-dev"
fi
grep -q "install the Debian package(s) libqt6opengl6-dev" "$out/configure-without.log" ||
  { tail -15 "$out/configure-without.log"; fail "the error does not name libqt6opengl6-dev"; }
grep -A2 "CMake Error" "$out/configure-without.log" | sed 's/^/fresh-root:   /'
in_root apt-get install -y -q --no-install-recommends libqt6opengl6-dev >>"$out/remove.log" 2>&1

if [[ $build -eq 1 ]]; then
  say "cmake --build --preset default"
  in_root sh -c 'cd /src/cellforge && cmake --build --preset default' >"$out/build.log" 2>&1 ||
    { tail -25 "$out/build.log"; fail "build failed (see $out/build.log)"; }
  in_root /src/cellforge/build/default/sim/cli/cellforge-sim backends | tee "$out/backends.txt"
fi
say "OK: every feature of the default preset is ON in a fresh Debian 12 root, and a missing"
say "    package stops configure with its name ($((SECONDS - t0)) s)"
