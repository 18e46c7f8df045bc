# SPDX-License-Identifier: GPL-3.0-or-later
cellforge_add_test(test_render CPU_ONLY SOURCES render/test_point_cloud.cpp render/test_movie.cpp
                   render/test_sphere_splat.cpp render/test_render_lifecycle.cpp
                   LIBS cellforge_render)
target_compile_definitions(test_render PRIVATE CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
# Its lifecycle case measures the device's free video memory: alone, so that other tests'
# allocations under `ctest -j` are not counted as its leak (seen on the H100).
set_tests_properties(test_render PROPERTIES RUN_SERIAL TRUE)
cellforge_add_test(test_render_volume CPU_ONLY SOURCES render/test_volume.cpp
                   LIBS cellforge_render)
target_compile_definitions(test_render_volume PRIVATE
                           CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
cellforge_add_test(test_render_vectors CPU_ONLY SOURCES render/test_vector_field.cpp
                   LIBS cellforge_render)
target_compile_definitions(test_render_vectors PRIVATE
                           CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
# Meshes, legends, camera views and paths, periodic outlines.
cellforge_add_test(test_render_scene CPU_ONLY SOURCES render/test_scene.cpp
                   render/test_scene_legend.cpp render/test_scene_text.cpp
                   render/test_scene_camera.cpp
                   render/test_geometry_export.cpp LIBS cellforge_render)
target_compile_definitions(test_render_scene PRIVATE
                           CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
if(CELLFORGE_HAVE_CUDA)
  cellforge_add_test(test_render_interop GPU_ONLY SOURCES render/test_render_interop.cpp
                     LIBS cellforge_render_cuda)
  cellforge_add_test(test_render_volume_interop GPU_ONLY SOURCES render/test_volume_interop.cpp
                     LIBS cellforge_render_cuda)
endif()

# Volume views through the exchange into VolumeGrid slices, the headless run's volume
# options; the *Cuda* case (CUDA-GL texture interop) runs on the GPU machine.
cellforge_add_test(test_volume_view SOURCES render/test_volume_view.cpp LIBS cellforge_app)
# Category colours of every bundled model: the legend's are the drawn ones (issue 24).
cellforge_add_test(test_category_colors CPU_ONLY SOURCES render/test_category_colors.cpp
                   LIBS cellforge_app)
target_compile_definitions(test_category_colors PRIVATE
                           CELLFORGE_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
# Vector-field views through the exchange into VectorField arrows, segments and LIC, the
# headless run's --vectors and --lic.
cellforge_add_test(test_vector_view SOURCES render/test_vector_view.cpp LIBS cellforge_app)

# The background mode end to end: a scenario in, an image and a movie out.
add_test(NAME cellforge_headless
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/render/headless_run.sh $<TARGET_FILE:cellforge>
                 ${PROJECT_SOURCE_DIR}/assets/scenarios)
set_tests_properties(cellforge_headless PROPERTIES LABELS cpu TIMEOUT 300)
# Captions in headless images: --title, --timestamp / --no-timestamp, bad input, no font.
add_test(NAME cellforge_headless_captions
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/cli/headless_captions.sh
                 $<TARGET_FILE:cellforge> ${PROJECT_SOURCE_DIR}/assets/scenarios)
set_tests_properties(cellforge_headless_captions PROPERTIES LABELS cpu TIMEOUT 300)

# Vector views in the window (Qt Test with GoogleTest, under Xvfb): the Vectors dock
# choosing the view, arrows or LIC and the stride the viewport draws.
if(CELLFORGE_HAVE_GUI)
  add_executable(test_vector_window render/test_vector_window.cpp)
  target_link_libraries(test_vector_window PRIVATE cellforge_gui Qt6::Test GTest::gtest)
  target_include_directories(test_vector_window PRIVATE ${PROJECT_SOURCE_DIR})
  cellforge_warnings(test_vector_window)
  if(CELLFORGE_XVFB_RUN)
    add_test(NAME test_vector_window
             COMMAND ${CELLFORGE_XVFB_RUN} -a -s "-screen 0 1600x1000x24"
                     $<TARGET_FILE:test_vector_window>
             WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(test_vector_window PROPERTIES LABELS cpu TIMEOUT 300
                         RESOURCE_LOCK xvfb)
  endif()
endif()
