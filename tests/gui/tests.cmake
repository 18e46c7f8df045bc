# SPDX-License-Identifier: GPL-3.0-or-later
# Qt widget tests of the desktop window (included from tests/CMakeLists.txt when the GUI
# is built). Widgets without OpenGL run on the offscreen platform.
find_package(Qt6 REQUIRED COMPONENTS Test)

# The parameter dock: generated rows, apply/reject, undo/redo, slider drags, resets, search.
add_executable(test_gui_parameter_panel gui/test_parameter_panel.cpp)
target_link_libraries(test_gui_parameter_panel PRIVATE cellforge_gui Qt6::Test GTest::gtest)
target_include_directories(test_gui_parameter_panel PRIVATE ${PROJECT_SOURCE_DIR})
cellforge_warnings(test_gui_parameter_panel)
add_test(NAME test_gui_parameter_panel COMMAND test_gui_parameter_panel
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_gui_parameter_panel PROPERTIES LABELS cpu TIMEOUT 300
                     ENVIRONMENT QT_QPA_PLATFORM=offscreen)
