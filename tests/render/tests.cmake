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



