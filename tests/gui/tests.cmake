# SPDX-License-Identifier: GPL-3.0-or-later
# Qt widget tests of the desktop window (Qt Test, no display: QT_QPA_PLATFORM=offscreen).

# The docks and dialogs that need no OpenGL: plots, scenario browser, movie recording.
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
