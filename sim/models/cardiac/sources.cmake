# SPDX-License-Identifier: GPL-3.0-or-later
# `cardiac` (issue 8), stage 1: the model language (lexer, parser, checks, symbolic slopes),
# the CPU evaluation of a cell, and the CPU backend (single cells and monodomain tissue).
list(APPEND CELLFORGE_SIM_SOURCES
  models/cardiac/lang/diagnostics.cpp
  models/cardiac/lang/lexer.cpp
  models/cardiac/lang/parser.cpp
  models/cardiac/lang/printer.cpp
  models/cardiac/lang/term.cpp
  models/cardiac/lang/derivative.cpp
  models/cardiac/lang/units.cpp
  models/cardiac/lang/unit_check.cpp
  models/cardiac/lang/singularities.cpp
  models/cardiac/lang/checked_model.cpp
  models/cardiac/lang/cell_program.cpp
  models/cardiac/lang/cuda_emitter.cpp
  models/cardiac/nvrtc/nvrtc_compiler.cpp
  models/cardiac/cardiac_params.cpp
  models/cardiac/cardiac_model.cpp
  models/cardiac/cardiac_state.cpp
  models/cardiac/beat_meter.cpp
  models/cardiac/cardiac_bench.cpp
  models/cardiac/cpu/cardiac_cpu.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/cardiac/cuda/cell_kernel.cpp
  models/cardiac/cuda/cardiac_cuda.cpp
  models/cardiac/cuda/tissue_kernels.cu)
list(APPEND CELLFORGE_SIM_SOURCES models/cardiac/lang/variants.cpp)
