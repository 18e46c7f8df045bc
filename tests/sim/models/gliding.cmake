# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9): host tables, parameter checks and initial conditions
# (docs/design/gliding.md 6.2 T1, T11; G:402-413).
cellforge_add_test(test_gliding_tables CPU_ONLY SOURCES
  sim/models/test_gliding_tables.cpp
  sim/models/test_gliding_state.cpp)
# The CPU filament step (CNAB2 by FFT, design 2.2-2.4; tests T3, T5, free streaming); needs FFTW.
if(CELLFORGE_HAVE_FFTW)
  cellforge_add_test(test_gliding_smoluchowski CPU_ONLY SOURCES
    sim/models/test_gliding_smoluchowski.cpp)
  # CUDA filament step against the CPU (design 6.2 T12) and the cuFFT loader; GPU label only.
  cellforge_add_test(test_gliding_cuda GPU_ONLY SOURCES
    sim/models/test_gliding_cuda.cpp)
endif()
