# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  models/lattice/lattice_params.cpp
  models/lattice/lattice_model.cpp
  models/lattice/lattice_state.cpp
  models/lattice/lattice_geometry.cpp
  models/lattice/lattice_config.cpp
  models/lattice/lattice_views.cpp
  models/lattice/lattice_slab.cpp
  models/lattice/lattice_bench.cpp
  models/lattice/cpu/lattice_cpu.cpp
  models/lattice/reactions/reaction_parser.cpp
  models/lattice/reactions/reaction_table.cpp)
# SBML import only with libsbml; otherwise a stand-in that says the build has none.
if(CELLFORGE_HAVE_SBML)
  list(APPEND CELLFORGE_SIM_SOURCES models/lattice/reactions/sbml_import.cpp)
else()
  list(APPEND CELLFORGE_SIM_SOURCES models/lattice/reactions/sbml_unavailable.cpp)
endif()
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/lattice/cuda/lattice_cuda.cpp
  models/lattice/cuda/lattice_kernels.cu)
