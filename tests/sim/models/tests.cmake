# SPDX-License-Identifier: GPL-3.0-or-later
cellforge_add_test(test_brownian SOURCES sim/models/test_brownian.cpp)
include(sim/models/epidermis.cmake)
include(sim/models/lattice.cmake)
include(sim/models/spheres.cmake)
cellforge_add_test(test_cardiac_lang CPU_ONLY SOURCES sim/models/test_cardiac_lang.cpp)
cellforge_add_test(test_cardiac SOURCES sim/models/test_cardiac.cpp)
cellforge_add_test(test_cardiac_codegen SOURCES sim/models/test_cardiac_codegen.cpp)
cellforge_add_test(test_cardiac_nversion SOURCES sim/models/test_cardiac_nversion.cpp)
cellforge_add_test(test_cardiac_models CPU_ONLY SOURCES sim/models/test_cardiac_models.cpp)
target_compile_definitions(test_cardiac_models PRIVATE CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
# Single cells against SUNDIALS CVODE (libsundials-dev), the reference integrator. Without it
# the test still builds and every case skips, saying so.
find_package(SUNDIALS CONFIG QUIET)
cellforge_add_test(test_cardiac_cvode CPU_ONLY SOURCES sim/models/test_cardiac_cvode.cpp)
target_compile_definitions(test_cardiac_cvode PRIVATE CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
if(SUNDIALS_FOUND AND TARGET SUNDIALS::cvode)
  target_link_libraries(test_cardiac_cvode PRIVATE SUNDIALS::cvode SUNDIALS::nvecserial
                        SUNDIALS::sunmatrixdense SUNDIALS::sunlinsoldense)
  target_compile_definitions(test_cardiac_cvode PRIVATE CELLFORGE_HAVE_SUNDIALS)
else()
  message(STATUS "SUNDIALS CVODE not found: test_cardiac_cvode skips (install libsundials-dev)")
  set_tests_properties(test_cardiac_cvode PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
endif()
