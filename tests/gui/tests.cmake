# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop window's tests (QTest). Widgets with OpenGL run under a virtual X server
# (Xvfb with Mesa's llvmpipe); plain widgets on Qt's offscreen platform.
find_program(CELLFORGE_XVFB_RUN xvfb-run)

# cellforge_add_gui_test(NAME [XVFB] SOURCES ...)
function(cellforge_add_gui_test name)
  cmake_parse_arguments(ARG "XVFB" "" "SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE cellforge_gui Qt6::Test)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
  cellforge_warnings(${name})
  if(ARG_XVFB)
    if(NOT CELLFORGE_XVFB_RUN)
      message(STATUS "xvfb-run not found: ${name} is not registered (install xvfb)")
      return()
    endif()
    add_test(NAME ${name} COMMAND ${CELLFORGE_XVFB_RUN} -a -s "-screen 0 1600x1000x24"
                                  $<TARGET_FILE:${name}>)
    # One virtual X server at a time: `xvfb-run -a` picks a free display number by looking,
    # so two starting together can take the same one (pvpython then aborted in a full run).
    set_tests_properties(${name} PROPERTIES RESOURCE_LOCK xvfb)
  else()
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT QT_QPA_PLATFORM=offscreen)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS cpu TIMEOUT 600)
endfunction()

cellforge_add_gui_test(test_gui_window XVFB SOURCES gui/test_main_window.cpp)

# The window on a projector-sized and a monitor-sized screen: its size from the screen,
# every dock, the status bar and the caption on it; a failed open leaves Play off.
add_executable(test_gui_window_fit gui/test_window_fit.cpp)
set_target_properties(test_gui_window_fit PROPERTIES AUTOMOC ON)
target_link_libraries(test_gui_window_fit PRIVATE cellforge_gui Qt6::Test)
target_include_directories(test_gui_window_fit PRIVATE ${PROJECT_SOURCE_DIR})
cellforge_warnings(test_gui_window_fit)
if(CELLFORGE_XVFB_RUN)
  foreach(screen 1280x720 1920x1080)
    add_test(NAME test_gui_window_fit_${screen}
             COMMAND ${CELLFORGE_XVFB_RUN} -a -s "-screen 0 ${screen}x24"
                     $<TARGET_FILE:test_gui_window_fit>)
    set_tests_properties(test_gui_window_fit_${screen} PROPERTIES LABELS cpu TIMEOUT 300
                         RESOURCE_LOCK xvfb)
  endforeach()
endif()

# The parameter dock (GoogleTest with its own QApplication): generated rows, apply/reject,
# undo/redo, slider drags, resets, search; text and file-path rows against a real Runner;
# refusals (out of range, late through the apply's future).
add_executable(test_gui_parameter_panel gui/test_parameter_panel.cpp
               gui/test_parameter_panel_text.cpp gui/test_parameter_panel_refusal.cpp)
target_link_libraries(test_gui_parameter_panel PRIVATE cellforge_gui Qt6::Test GTest::gtest)
target_include_directories(test_gui_parameter_panel PRIVATE ${PROJECT_SOURCE_DIR})
cellforge_warnings(test_gui_parameter_panel)
add_test(NAME test_gui_parameter_panel COMMAND test_gui_parameter_panel
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_gui_parameter_panel PROPERTIES LABELS cpu TIMEOUT 300
                     ENVIRONMENT QT_QPA_PLATFORM=offscreen)

# The Dear ImGui overlay (GoogleTest, under Xvfb): drawing over a QOpenGLWidget, input
# routing, callbacks.
add_executable(test_gui_imgui gui/test_imgui_overlay.cpp)
target_link_libraries(test_gui_imgui PRIVATE cellforge_gui Qt6::Test GTest::gtest)
target_include_directories(test_gui_imgui PRIVATE ${PROJECT_SOURCE_DIR})
cellforge_warnings(test_gui_imgui)
if(CELLFORGE_XVFB_RUN)
  add_test(NAME test_gui_imgui
           COMMAND ${CELLFORGE_XVFB_RUN} -a -s "-screen 0 1600x1000x24" $<TARGET_FILE:test_gui_imgui>
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(test_gui_imgui PROPERTIES LABELS cpu TIMEOUT 300 RESOURCE_LOCK xvfb)
endif()

# The docks and dialogs that need no OpenGL (Qt Test, offscreen): plots, scenario browser,
# movie recording.
add_executable(test_gui_docks
  gui/test_gui_docks_main.cpp
  gui/test_plots_dock.cpp
  gui/test_record_dialog.cpp
  gui/test_scenario_browser.cpp)
set_target_properties(test_gui_docks PROPERTIES AUTOMOC ON)
target_link_libraries(test_gui_docks PRIVATE cellforge_gui Qt6::Test)
target_include_directories(test_gui_docks PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(test_gui_docks PRIVATE CELLFORGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
cellforge_warnings(test_gui_docks)
add_test(NAME test_gui_docks COMMAND test_gui_docks WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_gui_docks PROPERTIES LABELS cpu TIMEOUT 300
                     ENVIRONMENT QT_QPA_PLATFORM=offscreen)

# Volume views in the window (Qt Test with GoogleTest, under Xvfb): the viewport's slices
# from a test model through the exchange, the volume controls driving channel and slices.
add_executable(test_gui_volume gui/test_volume_controls.cpp)
target_link_libraries(test_gui_volume PRIVATE cellforge_gui Qt6::Test GTest::gtest)
target_include_directories(test_gui_volume PRIVATE ${PROJECT_SOURCE_DIR})
cellforge_warnings(test_gui_volume)
if(CELLFORGE_XVFB_RUN)
  add_test(NAME test_gui_volume
           COMMAND ${CELLFORGE_XVFB_RUN} -a -s "-screen 0 1920x1080x24" $<TARGET_FILE:test_gui_volume>
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(test_gui_volume PROPERTIES LABELS cpu TIMEOUT 300 RESOURCE_LOCK xvfb)
endif()

# Every bundled scenario in the window on a 1280x720 and a 1920x1080 screen (GoogleTest,
# under Xvfb): opened at step 0 and fitted, the scene lies inside the viewport and outside
# the overlay, and the window matches its reference image (tests/gui/golden/scenarios/).
add_executable(test_gui_scenarios gui/test_scenario_screenshots.cpp)
target_link_libraries(test_gui_scenarios PRIVATE cellforge_gui Qt6::Test GTest::gtest)
target_include_directories(test_gui_scenarios PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(test_gui_scenarios PRIVATE CELLFORGE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests")
cellforge_warnings(test_gui_scenarios)
if(CELLFORGE_XVFB_RUN)
  foreach(screen 1280x720 1920x1080)
    add_test(NAME test_gui_scenarios_${screen}
             COMMAND ${CELLFORGE_XVFB_RUN} -a -s "-screen 0 ${screen}x24"
                     $<TARGET_FILE:test_gui_scenarios>
             WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(test_gui_scenarios_${screen} PROPERTIES LABELS cpu TIMEOUT 1200
                         RESOURCE_LOCK xvfb)
  endforeach()
endif()

# Vector views in the window (Qt Test with GoogleTest, under Xvfb): the Vectors dock
# choosing the view, arrows or LIC and the stride the viewport draws.
add_executable(test_vector_window gui/test_vector_window.cpp)
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

# Bundled scenarios in the viewport (GoogleTest, under Xvfb, CPU backend): the sheets open
# fitted and fit again after F at 1280x720 and 1920x1080; epidermis coloured by delta in an
# automatic and a typed range; the HUD of a slow and of a paused run. CELLFORGE_VIEW_SHOTS=DIR
# saves the frames.
add_executable(test_gui_view_scenarios gui/test_view_scenarios.cpp)
target_link_libraries(test_gui_view_scenarios PRIVATE cellforge_gui Qt6::Test GTest::gtest)
target_include_directories(test_gui_view_scenarios PRIVATE ${PROJECT_SOURCE_DIR})
cellforge_warnings(test_gui_view_scenarios)
if(CELLFORGE_XVFB_RUN)
  add_test(NAME test_gui_view_scenarios
           COMMAND ${CELLFORGE_XVFB_RUN} -a -s "-screen 0 1920x1080x24"
                   $<TARGET_FILE:test_gui_view_scenarios>
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(test_gui_view_scenarios PROPERTIES LABELS cpu TIMEOUT 600
                       RESOURCE_LOCK xvfb)
endif()
