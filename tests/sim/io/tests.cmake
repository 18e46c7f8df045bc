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
