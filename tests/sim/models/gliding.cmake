# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9): host tables, parameter checks and initial conditions
# (docs/design/gliding.md 6.2 T1, T11; design M15).
cellforge_add_test(test_gliding_tables CPU_ONLY SOURCES
  sim/models/test_gliding_tables.cpp
  sim/models/test_gliding_state.cpp
  sim/models/test_gliding_staged_gather.cpp)
# Everything that steps the model needs FFTW (the CPU reference's Crank-Nicolson and Stokes
# solves); without it `gliding` is not built.
if(CELLFORGE_HAVE_FFTW)
  # The CPU filament step (CNAB2 by FFT, design 2.2-2.4; tests T3, T5, T7a, flow terms).
  cellforge_add_test(test_gliding_smoluchowski CPU_ONLY SOURCES
    sim/models/test_gliding_smoluchowski.cpp)
  # The thin-gap Stokes solve (z-grid, banded LU, transfer functions, stresses, FFT path;
  # design 2.8, tests T2 and T4).
  cellforge_add_test(test_gliding_fluid CPU_ONLY SOURCES
    sim/models/test_gliding_fluid.cpp
    sim/models/test_gliding_fluid_stress.cpp)
  # Bound motors on the CPU (design 2.5, 2.7; tests T6, T8 motor/force invariants, T9).
  cellforge_add_test(test_gliding_motors CPU_ONLY SOURCES
    sim/models/test_gliding_motors.cpp)
  # The model through its interface on every backend (design 6.2 T8, T10, T11): invariants,
  # exact restart, checks, live edits, views.
  cellforge_add_test(test_gliding_model SOURCES sim/models/test_gliding_model.cpp)
  # motors.placement = gpu: the CPU backend with its motors on a GPU against the plain CPU
  # backend, or refused by name where there is no GPU.
  cellforge_add_test(test_gliding_hybrid SOURCES sim/models/test_gliding_hybrid.cpp)
  if(CELLFORGE_HAVE_CUDA)
    # CUDA filament step against the CPU (design 6.2 T12) and the cuFFT loader; GPU label.
    cellforge_add_test(test_gliding_cuda GPU_ONLY SOURCES
      sim/models/test_gliding_cuda.cpp)
    # CUDA fluid solve against the CPU (design 3.5): flow and gradients, rest, reproducibility.
    cellforge_add_test(test_gliding_fluid_cuda GPU_ONLY SOURCES
      sim/models/test_gliding_fluid_cuda.cpp)
  endif()
endif()
# The device-memory check of the CUDA motors with injected free sizes (design 4 item 4, T11).
cellforge_add_test(test_gliding_motor_memory CPU_ONLY SOURCES
  sim/models/test_gliding_motor_memory.cpp)
# T12, motors part: CUDA motors (f64 and f32) against the CPU reference, determinism; every case
# runs on CUDA (label gpu) and skips with the reason without a device. The Psi sequence comes
# from the CPU filament step, hence FFTW.
if(CELLFORGE_HAVE_FFTW AND CELLFORGE_HAVE_CUDA)
  cellforge_add_test(test_gliding_motors_cuda GPU_ONLY SOURCES
    sim/models/test_gliding_motors_cuda.cpp)
endif()
# Linear stability of the dry isotropic state (design 6.2 T7b, design M18) on every backend,
# with the harmonic-system oracle checked against the spec's reference eigenvalues.
if(CELLFORGE_HAVE_FFTW)
  cellforge_add_test(test_gliding_stability SOURCES sim/models/test_gliding_stability.cpp)
endif()
# Output-time vertical velocity profiles on a cell row (design 2.8, design M10, M17): plane
# value = u2(z0), no slip, single-mode profiles and zero longitudinal flux, quarter turn.
if(CELLFORGE_HAVE_FFTW)
  cellforge_add_test(test_gliding_profiles CPU_ONLY SOURCES
    sim/models/test_gliding_profiles.cpp)
endif()
# The CUDA views packed on the device (design 5) against hostViews of the same state, all in
# device memory, and views() leaving the state alone.
if(CELLFORGE_HAVE_FFTW AND CELLFORGE_HAVE_CUDA)
  cellforge_add_test(test_gliding_views_cuda GPU_ONLY SOURCES
    sim/models/test_gliding_views_cuda.cpp)
endif()
