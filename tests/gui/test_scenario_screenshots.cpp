// SPDX-License-Identifier: GPL-3.0-or-later
// Every bundled scenario in the window, as a user first sees it, on the screen this test
// runs on (registered twice: Xvfb screens of 1280x720 and 1920x1080). For each one: the
// window fills the screen, the scenario opens at step 0, Fit view (F) is pressed, and
//  - the drawn scene lies inside the viewport and outside the overlay's panels
//    (Viewport::sceneRectOnScreen() inside Viewport::freeRect()), so nothing is cut off
//    or hidden under the HUD, the legend or the Quick panel;
//  - the whole window matches a reference image (tests/gui/golden/scenarios/, an eighth of
//    the screen's size; CELLFORGE_UPDATE_GOLDEN=1 rewrites them). Full-size pictures are
//    left in <temp>/cellforge-scenarios/ to be looked at.
// The CPU backend throughout, so the references hold on any machine.
#include <epoxy/gl.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QGuiApplication>
#include <QScreen>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QTest>
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gui/main_window.hpp"
#include "gui/viewport.hpp"
#include "tests/support/gl_widget_test_main.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/view_fit_wait.hpp"

namespace cf::gui {
namespace {

std::vector<std::string> bundledScenarios() {
    std::vector<std::string> names;
    const std::filesystem::path dir =
        std::filesystem::path(CELLFORGE_TEST_DATA) / "../assets/scenarios";
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

render::Image toImage(const QImage& source) {
    const QImage rgba = source.convertToFormat(QImage::Format_RGBA8888);
    render::Image out;
    out.width = rgba.width();
    out.height = rgba.height();
    out.rgba.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height) * 4);
    for (int y = 0; y < rgba.height(); ++y)
        std::copy_n(rgba.constScanLine(y), static_cast<std::size_t>(out.width) * 4,
                    out.rgba.begin() + static_cast<std::ptrdiff_t>(y) * out.width * 4);
    return out;
}

// Each output pixel the mean of a `factor` x `factor` block of `source` (edges dropped).
QImage boxMean(const QImage& source, int factor) {
    const QImage in = source.convertToFormat(QImage::Format_RGB888);
    QImage out(in.width() / factor, in.height() / factor, QImage::Format_RGB888);
    for (int y = 0; y < out.height(); ++y)
        for (int x = 0; x < out.width(); ++x) {
            int sum[3] = {0, 0, 0};
            for (int j = 0; j < factor; ++j) {
                const uchar* row = in.constScanLine(y * factor + j) + 3 * x * factor;
                for (int i = 0; i < factor; ++i)
                    for (int c = 0; c < 3; ++c)
                        sum[c] += row[3 * i + c];
            }
            uchar* dst = out.scanLine(y) + 3 * x;
            for (int c = 0; c < 3; ++c)
                dst[c] = static_cast<uchar>((sum[c] + factor * factor / 2) / (factor * factor));
        }
    return out;
}

class ScenarioScreenshots : public ::testing::TestWithParam<std::string> {
protected:
    static void SetUpTestSuite() {
        QStandardPaths::setTestModeEnabled(true);  // no settings from the user's session
        QCoreApplication::setOrganizationName("CellforgeTests");
        DesktopOptions options;
        options.backend = "cpu";
        window_ = new MainWindow(options);
        const QRect screen = QGuiApplication::primaryScreen()->geometry();
        window_->setGeometry(screen);  // no window manager under Xvfb: no frame
        window_->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window_));
    }
    static void TearDownTestSuite() {
        delete window_;
        window_ = nullptr;
    }
    static MainWindow* window_;
};
MainWindow* ScenarioScreenshots::window_ = nullptr;

TEST_P(ScenarioScreenshots, OpensFitsAndLooksAsItShould) {
    const std::string name = GetParam();
    const QSize screen = QGuiApplication::primaryScreen()->geometry().size();
    const std::string size = std::to_string(screen.width()) + "x" + std::to_string(screen.height());
    const QString path = QString(CELLFORGE_TEST_DATA) + "/../assets/scenarios/" +
                         QString::fromStdString(name) + ".toml";
    ASSERT_TRUE(window_->openScenario(path)) << window_->lastError().toStdString();
    // Guided scenarios play on opening: back to step 0, paused, for a picture that holds.
    if (window_->action("play")->isChecked()) window_->action("play")->trigger();
    ASSERT_TRUE(test::waitUntil([&] { return !window_->runner()->isRunning(); }, 30000));
    window_->action("reset")->trigger();
    Viewport* view = window_->viewport();
    ASSERT_TRUE(test::waitUntil(
        [&] {
            const auto frame = window_->runner()->latestFrame();
            return frame && frame->step == 0 && view->shownStep() == 0 &&
                   view->framesPerSecond() > 0;
        },
        120000))
        << name << ": no frame of step 0 was drawn";
    window_->action("fit")->trigger();
    // The overlay's panels take their size in the frames after the views arrive, and the fit
    // follows them one frame later (the view stays fitted until the camera is moved): under
    // a loaded llvmpipe frames come seconds apart, so the check waits for a settled frame.
    const QRectF widget(0, 0, view->width(), view->height());
    // One logical pixel of slack: the projected corners are rounded by the rasteriser.
    const auto fits = [&] {
        const QRectF s = view->sceneRectOnScreen();
        return !s.isEmpty() && view->freeRect().adjusted(-1, -1, 1, 1).contains(s);
    };
    test::waitFitted(fits, 20000);  // held over five checks 50 ms apart
    const QRectF scene = view->sceneRectOnScreen();
    const QRectF free = view->freeRect();
    ASSERT_FALSE(scene.isEmpty()) << name << ": nothing drawn";
    const QRectF slack = free.adjusted(-1, -1, 1, 1);
    EXPECT_TRUE(widget.adjusted(-1, -1, 1, 1).contains(scene))
        << name << " at " << size << ": the scene (" << scene.x() << ", " << scene.y() << ", "
        << scene.width() << " x " << scene.height() << ") leaves the viewport " << widget.width()
        << " x " << widget.height();
    EXPECT_TRUE(slack.contains(scene))
        << name << " at " << size << ": the scene (" << scene.x() << ", " << scene.y() << ", "
        << scene.width() << " x " << scene.height() << ") reaches under the overlay; free area ("
        << free.x() << ", " << free.y() << ", " << free.width() << " x " << free.height() << ")";

    const QImage shot = window_->grab().toImage();
    const QDir out(QDir::temp().filePath("cellforge-scenarios"));
    out.mkpath(".");
    shot.save(out.filePath(QString::fromStdString(name + "-" + size + ".png")), "PNG");
    // The reference is an eighth of the size, each pixel the mean of an 8x8 block: the
    // layout, the scene's colours and shapes and the panels' places are what it guards. A
    // box mean, not a resampling: scenes of many tiny spheres (benchmark A's 262,144 cells)
    // alias into moire under any point sampling, and a half-pixel shift of the fit (the
    // HUD's digits change its width) would move the moire, not the picture.
    // Tolerance: mean difference under 4 levels and under 3 % of pixels off by more than 48
    // levels. What legitimately varies between runs is the HUD's frame rate, the log's paths
    // and times and llvmpipe's thread-count-dependent rounding at sphere rims; a layout
    // change, a missing panel or a wrong palette moves far more than that.
    const QImage small = boxMean(shot, 8);
    test::expectMatchesGolden(toImage(small), name + "-" + size, {4.0, 0.03, 48},
                              "gui/golden/scenarios");
}

INSTANTIATE_TEST_SUITE_P(Bundled, ScenarioScreenshots, ::testing::ValuesIn(bundledScenarios()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string n = p.param;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

}  // namespace
}  // namespace cf::gui

int main(int argc, char** argv) {
    return cf::test::runGlWidgetTests(argc, argv);
}
