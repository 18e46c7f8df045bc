# SPDX-License-Identifier: GPL-3.0-or-later
# Geometry on the host: mesh import (Assimp), closedness, voxelization into site types,
# sphere obstacles. Used by the lattice model to build its site types.
list(APPEND CELLFORGE_SIM_SOURCES
  geometry/lattice_frame.cpp
  geometry/triangle_mesh.cpp
  geometry/mesh_file_check.cpp
  geometry/ply_check.cpp
  geometry/mesh_import.cpp
  geometry/voxelize.cpp
  geometry/sphere_obstacles.cpp)
