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
endif()
# Bound motors on the CPU (design 2.5, 2.7; tests T6, T8 motor/force invariants, T9); the
# invariant test steps the filaments too, so it needs FFTW.
if(CELLFORGE_HAVE_FFTW)
  cellforge_add_test(test_gliding_motors CPU_ONLY SOURCES
    sim/models/test_gliding_motors.cpp)
endif()
# The device-memory check of the CUDA motors with injected free sizes (design 4 item 4, T11).
cellforge_add_test(test_gliding_motor_memory CPU_ONLY SOURCES
  sim/models/test_gliding_motor_memory.cpp)
# T12, motors part: CUDA motors (f64 and f32) against the CPU reference, determinism; every case
# runs on CUDA (label gpu) and skips with the reason without a device. The Psi sequence comes
# from the CPU filament step, hence FFTW.
if(CELLFORGE_HAVE_FFTW)
  cellforge_add_test(test_gliding_motors_cuda GPU_ONLY SOURCES
    sim/models/test_gliding_motors_cuda.cpp)
endif()
