// SPDX-License-Identifier: GPL-3.0-or-later
// test_gui_docks: the plots dock, the scenario browser and movie recording, as Qt Test
// classes in one executable (QT_QPA_PLATFORM=offscreen; no OpenGL). With
// CELLFORGE_GUI_SHOTS=DIR set, the tests also save screenshots of the widgets there.
#include <QApplication>

#include "tests/gui/docks_test_support.hpp"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int failed = 0;
    failed += cf::gui::test::runPlotsDockTests(argc, argv);
    failed += cf::gui::test::runScenarioBrowserTests(argc, argv);
    failed += cf::gui::test::runRecordDialogTests(argc, argv);
    return failed == 0 ? 0 : 1;
}
