# SPDX-License-Identifier: GPL-3.0-or-later
cellforge_add_test(test_lattice SOURCES
  sim/models/test_lattice.cpp
  sim/models/test_lattice_cuda.cpp
  sim/models/test_lattice_layout.cpp)
