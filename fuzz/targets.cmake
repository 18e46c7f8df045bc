# SPDX-License-Identifier: GPL-3.0-or-later
# The fuzz targets this build can have (fuzz/<name>.cpp): the libFuzzer executables of the
# fuzz preset and the replay tests of every build both use this one list.
set(CELLFORGE_FUZZ_TARGETS fuzz_scenario fuzz_model_language fuzz_reactions fuzz_checkpoint
    fuzz_mesh)
if(CELLFORGE_HAVE_CELLML)
  list(APPEND CELLFORGE_FUZZ_TARGETS fuzz_cellml)
endif()
if(CELLFORGE_HAVE_SBML)
  list(APPEND CELLFORGE_FUZZ_TARGETS fuzz_sbml)
endif()
