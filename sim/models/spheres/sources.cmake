# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  models/spheres/spheres_params.cpp
  models/spheres/spheres_model.cpp
  models/spheres/spheres_bench.cpp
  models/spheres/cpu/spheres_cpu.cpp)
