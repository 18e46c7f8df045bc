#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs exactly the Debian packages Cellforge builds against, and nothing else.
# Idempotent: packages already present are skipped. Runs apt-get directly as root, else
# through sudo. The CUDA toolkit (nvcc) is optional and not a Debian package here: when it
# is installed under /usr/local/cuda, the build enables the CUDA backends.
#   usage: packaging/install-deps.sh [--dry-run]
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build pkg-config
  # simulation core: TOML scenarios, counter-based RNG, JSON, CLI, HDF5 snapshots, SBML
  # reaction networks, Assimp mesh import (lattice geometry, also used by the renderer) and
  # libxml2 for CellML import of cardiac models
  libtomlplusplus-dev librandom123-dev nlohmann-json3-dev libcli11-dev libhdf5-dev libsbml5-dev
  libassimp-dev libxml2-dev
  # FFTW 3 (double): the gliding model's CPU Crank-Nicolson solve
  libfftw3-dev
  # nanoflann: the spheres model's CPU kd-tree neighbour search (the paper's baseline)
  libnanoflann-dev
  # renderer: OpenGL 4.5 through libepoxy + EGL (headless), GLM, PNG;
  # Mesa's EGL/llvmpipe drivers so it also runs (and its tests pass) without an NVIDIA GPU
  libepoxy-dev libegl-dev libgl-dev libglm-dev libpng-dev libegl-mesa0
  libgl1-mesa-dri
  # text in images and movies (legends, titles, time stamps): FreeType and the DejaVu Sans
  # font it reads at run time
  libfreetype-dev fonts-dejavu-core
  # movies: MP4/H.264 through FFmpeg's libraries (Debian's libavcodec includes libx264)
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
  # the desktop window: Qt 6 widgets, OpenGL (libqt6opengl6-dev, which qt6-base-dev only
  # recommends) and charts; Dear ImGui for the viewport overlay (library + the OpenGL3
  # backend's source)
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev libimgui-dev
  # the Python module `cellforge` (python/): pybind11, Python's headers and NumPy, DLPack's
  # header (device arrays for CuPy and PyTorch); its tests run under pytest
  pybind11-dev python3-dev python3-numpy libdlpack-dev python3-pytest
  # distributed runs and sweeps: MPI (Open MPI; mpirun starts the ranks)
  libopenmpi-dev openmpi-bin
  # tests (the window's tests run under a virtual X server; the snapshot files are opened
  # with ParaView's pvpython, as users open them)
  libgtest-dev libgmock-dev xvfb xauth python3-paraview
  # tests: SUNDIALS CVODE, the reference integrator of the cardiac single-cell tests
  # (test_cardiac_cvode). It pulls MPI and the MPI build of HDF5 (libhdf5-openmpi-dev) too;
  # the build still selects the serial HDF5 (FindHDF5 picks hdf5/serial).
  libsundials-dev
  # packaging and docs: the man pages (help2man, from the programs' --help), the desktop
  # entry and AppStream validators (install_tree test), and
  # what the docs build runs: ffmpeg/ffprobe (thumbnails, guide pictures, movie checks),
  # h5dump (figures read snapshots) and python3 (plots; the layering test)
  help2man desktop-file-utils appstream ffmpeg hdf5-tools python3
  # docs: the Python notebook (docs/notebooks/cellforge-python.ipynb), executed and turned
  # into HTML by the docs build: Jupyter's nbconvert and the python3 kernel, and what the
  # notebook imports (SciPy to fit a parameter, Matplotlib for its figures, pandas for
  # Simulation.series_frame() and Table.to_pandas(), also used by tests/python when present)
  jupyter-nbconvert python3-ipykernel python3-scipy python3-matplotlib python3-pandas
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
[ "${1:-}" = "--dry-run" ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
