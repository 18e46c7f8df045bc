# SPDX-License-Identifier: GPL-3.0-or-later
# Output and restart files: HDF5 snapshots with XDMF, CSV time series, run.json and
# checkpoints; per-rank snapshot pieces of a distributed run. snapshot_file.cpp compiles
# without HDF5 (it then reports that it is absent).
list(APPEND CELLFORGE_SIM_SOURCES
  io/atomic_file.cpp
  io/checkpoint.cpp
  io/checkpoint_ranks.cpp
  io/json_values.cpp
  io/piece_snapshot_writer.cpp
  io/run_info.cpp
  io/series_writer.cpp
  io/snapshot_file.cpp
  io/snapshot_writer.cpp
  io/xdmf.cpp)
