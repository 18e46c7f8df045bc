# SPDX-License-Identifier: GPL-3.0-or-later
# Qt tests of the desktop window. Anything with OpenGL runs under Xvfb (Mesa llvmpipe).

# The Dear ImGui overlay: drawing over a QOpenGLWidget, input routing, callbacks.
add_executable(test_gui_imgui gui/test_imgui_overlay.cpp)
target_link_libraries(test_gui_imgui PRIVATE cellforge_gui Qt6::Test GTest::gtest)
target_include_directories(test_gui_imgui PRIVATE ${PROJECT_SOURCE_DIR})
cellforge_warnings(test_gui_imgui)
add_test(NAME test_gui_imgui
         COMMAND xvfb-run -a -s "-screen 0 1600x1000x24" $<TARGET_FILE:test_gui_imgui>
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_gui_imgui PROPERTIES LABELS cpu TIMEOUT 300)
