// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/desktop_app.hpp"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QSurfaceFormat>

#include "gui/main_window.hpp"

namespace cf::gui {

std::string bundledScenarioDir() {
    const QString exe = QCoreApplication::applicationDirPath();
    for (const QString& candidate :
         {exe + "/../share/cellforge/scenarios",  // installed
          exe + "/../../../assets/scenarios",     // build/<preset>/gui/cellforge
          QString(CELLFORGE_SOURCE_DIR) + "/assets/scenarios"}) {
        if (QFileInfo::exists(candidate + "/default.toml"))
            return QDir(candidate).canonicalPath().toStdString();
    }
    return (QString(CELLFORGE_SOURCE_DIR) + "/assets/scenarios").toStdString();
}

int runDesktop(int& argc, char** argv, const DesktopOptions& options) {
    QSurfaceFormat format;
    format.setVersion(4, 5);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSwapInterval(1);
    QSurfaceFormat::setDefaultFormat(format);
    QCoreApplication::setOrganizationName("Cellforge");
    QCoreApplication::setApplicationName("Cellforge");
    QCoreApplication::setApplicationVersion(CELLFORGE_VERSION);
    QApplication app(argc, argv);
    MainWindow window(options);
    window.resize(1600, 1000);
    window.show();
    return app.exec();
}

}  // namespace cf::gui
