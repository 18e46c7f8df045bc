# SPDX-License-Identifier: GPL-3.0-or-later
if(CELLFORGE_HAVE_CUDA)
  cellforge_add_test(test_grid SOURCES sim/grid/test_grid.cpp sim/grid/test_grid_cuda.cu)
else()
  cellforge_add_test(test_grid SOURCES sim/grid/test_grid.cpp)
endif()
