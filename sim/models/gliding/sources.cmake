# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9), stage 1 so far: parameters, the host tables, the initial state and,
# when FFTW is found, the CPU filament step (docs/design/gliding.md sections 2.1-2.4, 3.3,
# 4 and 7.1). The model itself (descriptor, views, CPU backend) needs FFTW: without it
# `gliding` is not registered.
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/gliding_params.cpp
  models/gliding/gliding_tables.cpp
  models/gliding/gliding_state.cpp
  models/gliding/gliding_zgrid.cpp)
list(APPEND CELLFORGE_SIM_FFTW_SOURCES
  models/gliding/cpu/fftw_plans.cpp
  models/gliding/cpu/smoluchowski_cpu.cpp
  models/gliding/cpu/fluid_cpu.cpp
  models/gliding/gliding_model.cpp
  models/gliding/gliding_views.cpp
  models/gliding/gliding_bench.cpp
  models/gliding/cpu/gliding_cpu.cpp)
# Stage 2: bound motors on the CPU (design 2.5, 2.7; no FFTW needed).
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/cpu/motors_cpu.cpp)
