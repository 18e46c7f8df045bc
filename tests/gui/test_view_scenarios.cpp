// SPDX-License-Identifier: GPL-3.0-or-later
// Bundled scenarios in the viewport (Xvfb, Mesa llvmpipe, CPU backend): the sheets that the
// fit used to cut off left and right (the cardiac sheets, the N-version slab, the gliding
// ring lattice) open fitted into the area the overlay leaves free and stay so after F, at
// 1280x720 and 1920x1080, under the HUD their metrics fill. With CELLFORGE_VIEW_SHOTS=DIR
// the frames are saved there, with the folded and hidden overlay, epidermis coloured by
// delta in the automatic and a typed range, and the HUD of a slow and of a paused run.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QSurfaceFormat>
#include <QTest>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "gui/imgui_overlay.hpp"
#include "gui/viewport.hpp"
#include "sim/core/data_paths.hpp"
#include "sim/core/scenario.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/gl_widget_test_main.hpp"
#include "tests/support/view_fit_wait.hpp"

namespace cf::gui {
namespace {

bool waitUntil(const std::function<bool()>& done, int timeoutMs = 60000) {
    return test::waitUntil(done, timeoutMs);
}
using test::waitFitted;
bool fittedNow(const Viewport& viewport) {
    return test::fittedNow(viewport, 0.85);
}

// One scenario on the CPU in a bare viewport, with the HUD the window would fill.
struct Shown {
    Scenario scenario;
    std::unique_ptr<Runner> runner;
    std::shared_ptr<ViewExchange> exchange = std::make_shared<ViewExchange>();
    std::unique_ptr<Viewport> viewport = std::make_unique<Viewport>();

    Shown(const std::string& name, int w, int h)
        : scenario(loadScenario(resolveScenarioArgument(name), registry())) {
        runner = std::make_unique<Runner>(*scenario.model, Backend::Cpu, scenario.parameters,
                                          scenario.seed);
        runner->setViewExchange(exchange);
        viewport->setExchange(exchange);
        viewport->resize(w, h);
        viewport->show();
    }
    ~Shown() {
        viewport.reset();  // lets go of its views before the exchange and the runner go
        runner.reset();
    }
    static const ModelRegistry& registry() {
        static const ModelRegistry r = builtinModels();
        return r;
    }
    // The HUD as MainWindow::poll fills it.
    void fillHud() {
        OverlayState hud;
        hud.title = scenario.model->name;
        hud.backend = "cpu";
        hud.timeUnit = scenario.model->timeUnit == "1" ? "" : scenario.model->timeUnit;
        if (const auto frame = runner->latestFrame()) {
            hud.running = runner->isRunning();
            hud.stepsPerSecond = frame->stepsPerSecond;
            hud.time = frame->time;
            hud.step = frame->step;
            hud.metrics = frame->metrics;
        }
        hud.quick =
            makeQuickParams(runner->parameters(), defaultQuickKeys(scenario.model->parameters()));
        viewport->setOverlayState(std::move(hud));
    }
    void save(const std::string& file) const {
        const QString dir = qEnvironmentVariable("CELLFORGE_VIEW_SHOTS");
        if (dir.isEmpty()) return;
        QDir().mkpath(dir);
        const QString path = QDir(dir).filePath(QString::fromStdString(file) + ".png");
        EXPECT_TRUE(viewport->grabFramebuffer().save(path)) << path.toStdString();
        std::printf("view shot: %s\n", path.toStdString().c_str());
    }
};

// The scene lies inside the free area less the margin (0.5 px: round-off), fills it in its
// limiting direction (85 %: the margin and box corners not drawn), and the free area is
// clear of every panel.
void expectFitted(const Viewport& viewport, const std::string& what) {
    const QRectF scene = viewport.sceneRectOnScreen(), free = viewport.freeRect();
    ASSERT_FALSE(scene.isEmpty()) << what;
    const double m = Viewport::kFitMarginPx - 0.5;
    EXPECT_TRUE(free.adjusted(m, m, -m, -m).contains(scene))
        << what << ": scene " << scene.left() << "," << scene.top() << " " << scene.width() << "x"
        << scene.height() << ", free " << free.left() << "," << free.top() << " " << free.width()
        << "x" << free.height();
    EXPECT_GT(std::max(scene.width() / free.width(), scene.height() / free.height()), 0.85) << what;
    Viewport& v = const_cast<Viewport&>(viewport);  // overlay() has no const overload
    const OverlayRects& r = v.overlay().lastRects();
    if (!viewport.overlayVisible()) return;
    for (const QRectF& panel : {r.hud, r.legend, r.volumeLegend, r.quick, r.caption})
        EXPECT_FALSE(free.intersects(panel)) << what;
}

class ScenarioFit : public ::testing::TestWithParam<std::tuple<std::string, std::pair<int, int>>> {
};

TEST_P(ScenarioFit, OpensFittedAndFitsAgainAfterF) {
    const auto& [name, size] = GetParam();
    const auto [w, h] = size;
    Shown s(name, w, h);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(s.viewport.get()));
    s.runner->stepBy(1).get();  // a frame with the model's metrics for the HUD
    s.fillHud();
    ASSERT_TRUE(waitUntil([&] { return !s.viewport->sceneRectOnScreen().isEmpty(); }));
    waitFitted([&] { return fittedNow(*s.viewport); }, 10000);
    const std::string tag = name + "_" + std::to_string(w) + "x" + std::to_string(h);
    expectFitted(*s.viewport, tag + " at open");
    s.viewport->camera().yawDegrees += 30.0f;  // turned by hand, then F
    s.viewport->camera().zoom(2.0f);
    s.viewport->fitToScene();
    QTest::qWait(300);
    waitFitted([&] { return fittedNow(*s.viewport); }, 10000);
    expectFitted(*s.viewport, tag + " after F");
    s.save(tag + "_fit");
    if (w != 1920) return;
    s.viewport->overlay().setHudFolded(true);
    s.viewport->overlay().setLegendsFolded(true);
    s.viewport->overlay().setQuickPanelOpen(false);
    QTest::qWait(300);
    waitFitted([&] { return fittedNow(*s.viewport); }, 10000);
    expectFitted(*s.viewport, tag + " folded");
    s.save(tag + "_folded");
    s.viewport->setOverlayVisible(false);
    QTest::qWait(300);
    waitFitted([&] { return fittedNow(*s.viewport); }, 10000);
    expectFitted(*s.viewport, tag + " hidden");
    s.save(tag + "_hidden");
}

INSTANTIATE_TEST_SUITE_P(
    Sheets, ScenarioFit,
    ::testing::Combine(::testing::Values("cardiac-aliev-panfilov", "cardiac-niederer",
                                         "gliding-ring-lattice"),
                       ::testing::Values(std::pair{1280, 720}, std::pair{1920, 1080})),
    [](const auto& param) {
        std::string n =
            std::get<0>(param.param) + "_" + std::to_string(std::get<1>(param.param).first);
        for (char& c : n)
            if (c == '-') c = '_';
        return n;
    });

// Epidermis coloured by delta: the automatic range shows a near-constant field as such;
// a typed range is used as typed, and the legend counts the cells outside it.
TEST(ScenarioRanges, EpidermisDeltaAutomaticAndTyped) {
    Shown s("epidermis-full", 1920, 1080);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(s.viewport.get()));
    s.runner->stepBy(1).get();
    s.fillHud();
    s.viewport->setColorBy("delta");
    ASSERT_TRUE(waitUntil([&] { return !s.viewport->overlayState().ranges.empty(); }));
    QTest::qWait(300);
    const RangeControl automatic = s.viewport->overlayState().ranges.front();
    EXPECT_EQ(automatic.key, "points:delta");
    EXPECT_LT(automatic.lo, automatic.hi);
    s.save("epidermis-full_delta_auto");
    // Typed: the middle half of the automatic range, so some cells fall outside.
    const double q = 0.25 * (automatic.hi - automatic.lo);
    s.viewport->setColorRange("points:delta",
                              {app::RangeMode::Typed, automatic.lo + q, automatic.hi - q});
    ASSERT_TRUE(waitUntil([&] {
        return s.viewport->overlayState().ranges.front().setting.mode == app::RangeMode::Typed;
    }));
    QTest::qWait(300);
    EXPECT_DOUBLE_EQ(s.viewport->legend().lo, automatic.lo + q);
    EXPECT_DOUBLE_EQ(s.viewport->legend().hi, automatic.hi - q);
    EXPECT_EQ(s.viewport->overlayState().legendNote.mode, "typed");
    s.viewport->overlay().setQuickPanelOpen(true);
    QTest::qWait(300);
    s.save("epidermis-full_delta_typed");
    EXPECT_THROW(s.viewport->setColorRange("points:delta", {app::RangeMode::Typed, 2.0, 1.0}),
                 ParameterError);
}

// The HUD of a slow model while it runs (a rate below one step per second keeps its
// digits), then paused (no stale rate).
TEST(ScenarioHud, SlowAndPaused) {
    Shown s("gliding-ring-lattice", 1280, 720);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(s.viewport.get()));
    s.runner->setStepsPerBatch(1);  // a pause takes effect after one (slow) step
    s.runner->play();
    ASSERT_TRUE(waitUntil(
        [&] {
            const auto f = s.runner->latestFrame();
            return f && f->step >= 1 && f->stepsPerSecond > 0.0;
        },
        120000));
    s.fillHud();
    QTest::qWait(300);
    const double rate = s.viewport->overlayState().stepsPerSecond;
    std::printf("gliding-ring-lattice on this CPU: %s steps/s\n", hudRateText(rate).c_str());
    EXPECT_NE(hudRateText(rate), "0");
    s.save("gliding-ring-lattice_hud_running");
    s.runner->pause();
    ASSERT_TRUE(waitUntil([&] { return !s.runner->isRunning(); }));
    s.fillHud();
    QTest::qWait(300);
    EXPECT_FALSE(s.viewport->overlayState().running);
    s.save("gliding-ring-lattice_hud_paused");
}

}  // namespace
}  // namespace cf::gui

int main(int argc, char** argv) {
    return cf::test::runGlWidgetTests(argc, argv);
}
