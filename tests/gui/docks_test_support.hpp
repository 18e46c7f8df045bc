// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the test_gui_docks sources: each runs its Qt Test class and returns the number
// of failed cases; shots go to $CELLFORGE_GUI_SHOTS when it is set.
#include <QCoreApplication>
#include <QString>
#include <QWidget>

namespace cf::gui::test {

int runPlotsDockTests(int argc, char** argv);
int runScenarioBrowserTests(int argc, char** argv);
int runRecordDialogTests(int argc, char** argv);

// Saves `widget` (shown at `width`x`height`) as $CELLFORGE_GUI_SHOTS/<name>.png; no-op
// without the variable.
inline void saveShot(QWidget& widget, const QString& name, int width, int height) {
    const QString dir = qEnvironmentVariable("CELLFORGE_GUI_SHOTS");
    if (dir.isEmpty()) return;
    widget.resize(width, height);
    widget.show();
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    widget.grab().save(dir + "/" + name + ".png");
}

}  // namespace cf::gui::test
