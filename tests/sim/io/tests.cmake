# SPDX-License-Identifier: GPL-3.0-or-later
# The tests parse run.json with nlohmann and, when HDF5 is built in, inspect snapshot files
# with the HDF5 C API directly rather than through the code under test.
set(cellforge_io_test_libs nlohmann_json::nlohmann_json)
if(CELLFORGE_HAVE_HDF5)
  list(APPEND cellforge_io_test_libs HDF5::HDF5)
endif()
cellforge_add_test(test_io CPU_ONLY
  SOURCES
    sim/io/test_io.cpp
    sim/io/test_pieces.cpp
    sim/io/test_snapshot_io.cpp
  LIBS ${cellforge_io_test_libs})

# Snapshots of a distributed run on 1 to 4 ranks (cellforge_add_rank_test, defined in
# tests/sim/dist/tests.cmake): each rank writes its piece, rank 0 reads them back whole.
if(CELLFORGE_HAVE_HDF5)
  cellforge_add_rank_test(test_piece_snapshots CPU_ONLY SOURCES sim/io/test_piece_snapshots.cpp)
endif()

# ParaView opens the .xmf of a run on 3 ranks as one dataset: write_piece_snapshots writes
# pieces of a volume split along z, along x and into single planes and of a sheet;
# paraview_pieces_check.py (pvpython, both XDMF readers) merges the blocks and compares
# them with the whole grid. Needs pvpython and xvfb-run, as paraview_open; about 10 s.
if(CELLFORGE_HAVE_HDF5 AND CELLFORGE_HAVE_MPI)
  add_executable(write_piece_snapshots sim/io/write_piece_snapshots.cpp)
  target_link_libraries(write_piece_snapshots PRIVATE cellforge_mpi)
  target_include_directories(write_piece_snapshots PRIVATE ${PROJECT_SOURCE_DIR})
  cellforge_warnings(write_piece_snapshots)
  add_test(NAME paraview_pieces
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/paraview_pieces.sh
                   ${CELLFORGE_MPIEXEC} $<TARGET_FILE:write_piece_snapshots>)
  set_tests_properties(paraview_pieces PROPERTIES LABELS paraview TIMEOUT 300 RESOURCE_LOCK xvfb
                       ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1")
endif()
