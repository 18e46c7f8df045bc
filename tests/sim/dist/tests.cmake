# SPDX-License-Identifier: GPL-3.0-or-later
# Distributed runs (sim/dist). The rank tests are GoogleTest executables that mpirun starts
# on several ranks, oversubscribed (CI has two cores and no GPU: CPU ranks run the same
# decomposition as GPU ones):
#   cellforge_add_rank_test(NAME [CPU_ONLY] SOURCES ... [RANKS 1 2 3 4])
#   NAME.ranksN      the cases without cuda in their names, on N ranks (labels cpu, mpi)
#   NAME.gpu.ranksN  the CUDA cases (labels gpu, mpi); they skip, saying why, without a GPU
# Each case compares the ranks' run with one rank, which is why one binary runs at every N.
function(cellforge_add_rank_test name)
  cmake_parse_arguments(ARG "CPU_ONLY" "" "SOURCES;RANKS" ${ARGN})
  if(NOT CELLFORGE_HAVE_MPI)
    return()
  endif()
  if(NOT ARG_RANKS)
    set(ARG_RANKS 1 2 3 4)
  endif()
  add_executable(${name} ${ARG_SOURCES} ${PROJECT_SOURCE_DIR}/tests/support/rank_test_main.cpp)
  target_link_libraries(${name} PRIVATE cellforge_mpi GTest::gtest)
  target_compile_definitions(${name} PRIVATE CELLFORGE_HAVE_NCCL=$<BOOL:${CELLFORGE_HAVE_NCCL}>)
  if(CELLFORGE_HAVE_NCCL)
    target_link_libraries(${name} PRIVATE cellforge_nccl)
  endif()
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  cellforge_warnings(${name})
  # Root may start ranks only when it says so (CI runs as root); shared-memory transport
  # without ptrace single-copy (containers forbid it).
  set(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
          OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1)
  foreach(n IN LISTS ARG_RANKS)
    add_test(NAME ${name}.ranks${n}
             COMMAND ${CELLFORGE_MPIEXEC} --oversubscribe -n ${n} $<TARGET_FILE:${name}>
                     --gtest_filter=-*cuda*:*Cuda*
             WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(${name}.ranks${n} PROPERTIES LABELS "cpu;mpi" TIMEOUT 600
                         ENVIRONMENT "${env}")
    if(ARG_CPU_ONLY)
      continue()  # no CUDA case: a .gpu entry would pass with none run
    endif()
    add_test(NAME ${name}.gpu.ranks${n}
             COMMAND ${CELLFORGE_MPIEXEC} --oversubscribe -n ${n} $<TARGET_FILE:${name}>
                     --gtest_filter=*cuda*:*Cuda*
             WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(${name}.gpu.ranks${n} PROPERTIES LABELS "gpu;mpi" TIMEOUT 600
                         ENVIRONMENT "${env}" SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  endforeach()
endfunction()

# Slabs, halo exchange and grid gathering of the communicator itself.
cellforge_add_rank_test(test_ranks CPU_ONLY SOURCES sim/dist/test_ranks.cpp)
# Cardiac tissue in slabs: N-version slab, a meshed tissue, a paced sheet, a checkpoint.
cellforge_add_rank_test(test_cardiac_ranks SOURCES sim/dist/test_cardiac_ranks.cpp)
# The lattice model in z-slabs against one rank (free diffusion, a crowded cell with
# overflows, reactions, checkpoint restart), CPU and CUDA ranks.
cellforge_add_rank_test(test_lattice_ranks SOURCES sim/dist/test_lattice_ranks.cpp)
# The gliding assay with its bound motors split by rows of anchors (the force summed over the
# ranks): bitwise without the fluid, to round-off with it, a restart from pieces.
cellforge_add_rank_test(test_gliding_ranks SOURCES sim/dist/test_gliding_ranks.cpp)
# Spheres in slabs along the domain's longest axis against one rank (growth and division,
# migration, rebalancing, refusals), CPU and CUDA ranks.
cellforge_add_rank_test(test_spheres_ranks SOURCES sim/dist/test_spheres_ranks.cpp)
