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
  models/cardiac/lang/cuda_emitter_protocol.cpp
  models/cardiac/lang/kernel_needs.cpp
  models/cardiac/lang/invariants.cpp
  models/cardiac/nvrtc/nvrtc_compiler.cpp
  models/cardiac/nvrtc/kernel_cache.cpp
  models/cardiac/cardiac_params.cpp
  models/cardiac/cardiac_model.cpp
  models/cardiac/cardiac_state.cpp
  models/cardiac/tissue_slab.cpp
  models/cardiac/cardiac_views.cpp
  models/cardiac/beat_meter.cpp
  models/cardiac/cardiac_bench.cpp
  models/cardiac/nversion.cpp
  models/cardiac/cardiac_commands.cpp
  models/cardiac/cpu/cardiac_cpu.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/cardiac/cuda/cell_kernel.cpp
  models/cardiac/cuda/cardiac_cuda.cpp
  models/cardiac/cuda/tissue_kernels.cu)
# CellML 1.0/1.1 import (libxml2); without it a stand-in says the build has none.
list(APPEND CELLFORGE_SIM_SOURCES models/cardiac/cellml/cellml_common.cpp)
if(CELLFORGE_HAVE_CELLML)
  list(APPEND CELLFORGE_SIM_SOURCES
    models/cardiac/cellml/cellml_emit.cpp
    models/cardiac/cellml/cellml_import.cpp
    models/cardiac/cellml/cellml_imports.cpp
    models/cardiac/cellml/cellml_xml.cpp
    models/cardiac/cellml/cellml_math.cpp
    models/cardiac/cellml/cellml_stimulus.cpp
    models/cardiac/cellml/cellml_units.cpp)
else()
  list(APPEND CELLFORGE_SIM_SOURCES models/cardiac/cellml/cellml_unavailable.cpp)
endif()
list(APPEND CELLFORGE_SIM_SOURCES models/cardiac/lang/variants.cpp)
list(APPEND CELLFORGE_SIM_SOURCES models/cardiac/lang/lookup_tables.cpp)
