# SPDX-License-Identifier: GPL-3.0-or-later
# sim/geometry: mesh import and closedness, voxelization into site types, sphere obstacles.
cellforge_add_test(test_geometry CPU_ONLY
  SOURCES
    sim/geometry/test_mesh.cpp
    sim/geometry/test_voxelize.cpp
    sim/geometry/test_sphere_obstacles.cpp)
target_compile_definitions(test_geometry PRIVATE
  CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests"
  CELLFORGE_ASSETS="${PROJECT_SOURCE_DIR}/assets")
