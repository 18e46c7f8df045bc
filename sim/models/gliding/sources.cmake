# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9), stage 1 so far: parameters and the host tables (docs/design/gliding.md
# sections 2.1 and 4). Not yet registered as a model.
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/gliding_params.cpp
  models/gliding/gliding_tables.cpp)
