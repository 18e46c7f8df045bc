# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9), stage 1 so far: parameters, the host tables and the initial state
# (docs/design/gliding.md sections 2.1, 4 and 7.1). Not yet registered as a model.
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/gliding_params.cpp
  models/gliding/gliding_tables.cpp
  models/gliding/gliding_state.cpp)
