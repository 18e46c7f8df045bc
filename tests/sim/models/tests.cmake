# SPDX-License-Identifier: GPL-3.0-or-later
cellforge_add_test(test_brownian SOURCES sim/models/test_brownian.cpp)
include(sim/models/epidermis.cmake)
include(sim/models/lattice.cmake)
include(sim/models/spheres.cmake)
cellforge_add_test(test_cardiac_lang CPU_ONLY SOURCES sim/models/test_cardiac_lang.cpp)
cellforge_add_test(test_cardiac SOURCES sim/models/test_cardiac.cpp)
cellforge_add_test(test_cardiac_codegen SOURCES sim/models/test_cardiac_codegen.cpp)
