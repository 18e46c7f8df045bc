# SPDX-License-Identifier: GPL-3.0-or-later
# CPU only until the CUDA backend exists (its cases would only skip on the GPU machine).
cellforge_add_test(test_lattice CPU_ONLY SOURCES
  sim/models/test_lattice.cpp
  sim/models/test_lattice_layout.cpp)
