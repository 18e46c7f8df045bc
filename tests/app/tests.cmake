# SPDX-License-Identifier: GPL-3.0-or-later
# cellforge_app (app/, no Qt): model views into render structures, the colour-range rule,
# and the background mode (`cellforge --headless`) end to end.
# Volume views through the exchange into VolumeGrid slices, the headless run's volume
# options; the *Cuda* case (CUDA-GL texture interop) runs on the GPU machine.
cellforge_add_test(test_volume_view SOURCES app/test_volume_view.cpp LIBS cellforge_app)
# Category colours of every bundled model: the legend's are the drawn ones (issue 24).
cellforge_add_test(test_category_colors CPU_ONLY SOURCES app/test_category_colors.cpp
                   LIBS cellforge_app)
target_compile_definitions(test_category_colors PRIVATE
                           CELLFORGE_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
# Vector-field views through the exchange into VectorField arrows, segments and LIC, the
# headless run's --vectors and --lic.
cellforge_add_test(test_vector_view SOURCES app/test_vector_view.cpp LIBS cellforge_app)

# The view's pure logic (no GL, no display): the colour-range rule and the camera's fit
# into the area the overlay leaves free.
cellforge_add_test(test_view_logic CPU_ONLY SOURCES app/test_view_logic.cpp LIBS cellforge_app)

# The background mode end to end: a scenario in, an image and a movie out.
add_test(NAME cellforge_headless
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/app/headless_run.sh $<TARGET_FILE:cellforge>
                 ${PROJECT_SOURCE_DIR}/assets/scenarios)
set_tests_properties(cellforge_headless PROPERTIES LABELS cpu TIMEOUT 300)
# Captions in headless images: --title, --timestamp / --no-timestamp, bad input, no font.
add_test(NAME cellforge_headless_captions
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/cli/headless_captions.sh
                 $<TARGET_FILE:cellforge> ${PROJECT_SOURCE_DIR}/assets/scenarios)
set_tests_properties(cellforge_headless_captions PROPERTIES LABELS cpu TIMEOUT 300)
