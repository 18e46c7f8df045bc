# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES models/builtin_models.cpp)
include(models/brownian/sources.cmake)
include(models/epidermis/sources.cmake)
include(models/lattice/sources.cmake)
include(models/spheres/sources.cmake)
include(models/cardiac/sources.cmake)
include(models/gliding/sources.cmake)
