# SPDX-License-Identifier: GPL-3.0-or-later
# `spheres` on every backend it offers (CPU and CUDA): force oracles, benchmark A's first
# step, division, determinism, restart, bad input, the substance field;
# CUDA against the CPU reference (test_spheres_cuda.cpp).
cellforge_add_test(test_spheres SOURCES
  sim/models/test_spheres.cpp
  sim/models/test_spheres_substance.cpp
  sim/models/test_spheres_cuda.cpp
  sim/models/test_spheres_kdtree.cpp)
