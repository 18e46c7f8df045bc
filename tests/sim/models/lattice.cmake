# SPDX-License-Identifier: GPL-3.0-or-later
# The free-diffusion MSD case follows 10^5 particles over a long run (about 100 s of CPU).
cellforge_add_test(test_lattice LONG_CASES "*FreeDiffusionMsd*" SOURCES
  sim/models/test_lattice.cpp
  sim/models/test_lattice_cuda.cpp
  sim/models/test_lattice_cuda_sweeps.cpp
  sim/models/test_lattice_layout.cpp
  sim/models/test_lattice_tiled_sweep.cpp
  sim/models/test_lattice_warp_sweep.cpp)
# Reaction networks (parser, SBML, rate conversion) and the per-site reaction step with its
# CME comparison: host code only.
cellforge_add_test(test_lattice_reactions CPU_ONLY SOURCES
  sim/models/test_lattice_reactions.cpp
  sim/models/test_lattice_reaction_site.cpp)
target_compile_definitions(test_lattice_reactions PRIVATE
  CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests" CELLFORGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# Reaction-diffusion on every backend: CME, conversion in a cell, obstructed diffusion,
# the capsule cell, bad input.
# Obstructed diffusion follows tracers past obstacles of three sizes (about 35 s of CPU).
cellforge_add_test(test_lattice_rdme LONG_CASES "*ObstructedDiffusion*" SOURCES sim/models/test_lattice_rdme.cpp)
target_compile_definitions(test_lattice_rdme PRIVATE CELLFORGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# Crowded diffusion at reduced size (Roberts et al. 2009, Fig. 4 and 5): sphere obstacles at
# two sizes and fractions, and the in-vivo crowders (about 15 s of CPU).
# Statistics over thousands of steps: the whole executable is a long entry (not under ASan).
cellforge_add_test(test_lattice_crowding LONG_CASES "*" SOURCES sim/models/test_lattice_crowding.cpp)
# The SBML Test Suite's stochastic cases (docs/reference/conformance-data.md; skipped, saying
# so, where absent): import, the suite's Z-score rule on means and sds, the table printed.
# The suite's 10,000 runs per case (about 110 s of CPU, a long entry; CELLFORGE_SBML_RUNS
# sets fewer for a quick look, see the test's header for why CI keeps 10,000).
cellforge_add_test(test_sbml_conformance CPU_ONLY LONG_CASES "*" SOURCES
  sim/models/test_sbml_conformance.cpp)
target_compile_definitions(test_sbml_conformance PRIVATE
  CELLFORGE_SHARED_DATA="${CELLFORGE_CONFORMANCE_DATA}")
# Without the suite the case skips: ctest says so instead of counting a pass.
set_tests_properties(test_sbml_conformance.long PROPERTIES SKIP_REGULAR_EXPRESSION
                     "the SBML Test Suite's stochastic cases are not at")
