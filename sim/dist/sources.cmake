# SPDX-License-Identifier: GPL-3.0-or-later
# Distributed runs: the Communicator interface, a one-rank implementation and slab
# decompositions (no MPI here: mpi_communicator.cpp is the cellforge_mpi library).
list(APPEND CELLFORGE_SIM_SOURCES
  dist/communicator.cpp
  dist/slab.cpp
  dist/grid_gather.cpp
  dist/metric_exchange.cpp)
