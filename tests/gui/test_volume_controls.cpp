// SPDX-License-Identifier: GPL-3.0-or-later
// Volume views in the window (Xvfb, Mesa llvmpipe): a Runner on the test volume model
// (tests/support/volume_model.hpp) publishes through the ViewExchange into the Viewport,
// the volume controls list what the volume offers, and the channel and slice positions
// chosen there are what the viewport draws: the voxel under each projected voxel centre
// shows its colormap or palette colour. The run stays paused throughout, so a change of
// channel is drawn from the views the viewport holds. With two volumes the dock's Volume
// combo chooses the one drawn.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QSurfaceFormat>
#include <QTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "gui/viewport.hpp"
#include "gui/volume_controls.hpp"
#include "render/colormap.hpp"
#include "render/legend.hpp"
#include "render/text_annotations.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/gl_widget_test_main.hpp"
#include "tests/support/view_fit_wait.hpp"
#include "tests/support/volume_model.hpp"

namespace cf::gui {
namespace {

const ModelDescriptor& volumeModel() {
    static const ModelDescriptor d = test::volumeDescriptor();
    return d;
}

bool waitUntil(const std::function<bool()>& done, int timeoutMs = 10000) {
    return test::waitUntil(done, timeoutMs);
}
using test::waitFitted;
bool fittedNow(const Viewport& viewport) {
    return test::fittedNow(viewport, 0.9);
}

// colormapTable(Viridis, 256) interpolated at u * 255, what the slice shader draws.
std::array<int, 3> viridisAt(double u) {
    const std::vector<std::uint8_t> t = render::colormapTable(render::Colormap::Viridis, 256);
    const double x = std::clamp(u, 0.0, 1.0) * 255.0;
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(x), 254);
    const double f = x - static_cast<double>(i);
    std::array<int, 3> c{};
    for (std::size_t ch = 0; ch < 3; ++ch)
        c[ch] =
            static_cast<int>(std::lround(t[3 * i + ch] + f * (t[3 * i + 3 + ch] - t[3 * i + ch])));
    return c;
}

std::array<int, 3> paletteAt(int category) {
    const auto& p = render::categoricalPalette()[static_cast<std::size_t>(category)];
    return {static_cast<int>(std::lround(p[0] * 255.0f)),
            static_cast<int>(std::lround(p[1] * 255.0f)),
            static_cast<int>(std::lround(p[2] * 255.0f))};
}

class VolumeWindowTest : public ::testing::Test {
protected:
    virtual int volumeCount() const { return 1; }  // the test model's grid.volumes
    void SetUp() override {
        ParamSet params(test::volumeTable());
        params.set("grid.volumes", std::int64_t{volumeCount()});
        runner = std::make_unique<Runner>(volumeModel(), Backend::Cpu, params, 1u);
        exchange = std::make_shared<ViewExchange>();
        runner->setViewExchange(exchange);
        window = std::make_unique<QWidget>();
        auto* layout = new QHBoxLayout(window.get());
        viewport = new Viewport(window.get());
        controls = new VolumeControls(window.get());
        layout->addWidget(viewport, 1);
        layout->addWidget(controls);
        bindVolumeControls(*controls, *viewport);
        viewport->setExchange(exchange);
        window->resize(980, 540);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        ASSERT_TRUE(waitUntil([&] { return !viewport->volumeInfo().name.empty(); }))
            << "no volume reached the viewport";
    }
    void TearDown() override {
        window.reset();  // the viewport lets go of its views before the exchange goes
        runner.reset();
    }
    template <typename W>
    W* widget(const char* name) {
        auto* w = controls->findChild<W*>(name);
        EXPECT_NE(w, nullptr) << name;
        return w;
    }
    // The image renderImage() draws and, for each voxel (i, j) of the z slice at `z`, the
    // pixel its centre projects to (skipping those under the legend).
    void expectVoxels(double z, const std::function<std::array<int, 3>(int, int)>& expected,
                      int tolerance, const std::string& what) {
        const int w = 320, h = 240;
        viewport->setImageCaptions({"", false});  // voxels here; captions: test_scene_text
        // The lattice's box fills the image (the window's own fit leaves room for the
        // overlay's panels, which renderImage does not draw): voxels 10+ pixels wide.
        viewport->camera().fit({-8.0f, -6.0f, -2.0f}, {8.0f, 6.0f, 2.0f});
        const QImage image = viewport->renderImage(w, h).convertToFormat(QImage::Format_RGB888);
        ASSERT_EQ(image.width(), w);
        const render::OrbitCamera& camera = viewport->camera();
        const glm::mat4 vp = camera.projection(static_cast<float>(w) / h) * camera.view();
        // Where renderImage() puts the volume's legend (bottom left, as the overlay does).
        render::ImageOverlayContent overlay;
        overlay.volume = &viewport->volumeLegend();
        const render::LegendLayout legend =
            render::layoutImageOverlay(render::Font(), overlay, w, h).volume.value();
        int checked = 0;
        for (int j = 0; j < 6; ++j)
            for (int i = 0; i < 8; ++i) {
                const glm::vec4 clip =
                    vp * glm::vec4(-8 + 2 * i + 1, -6 + 2 * j + 1, static_cast<float>(z), 1);
                const int col = static_cast<int>(std::floor((clip.x / clip.w * 0.5f + 0.5f) * w));
                const int row =
                    h - 1 - static_cast<int>(std::floor((clip.y / clip.w * 0.5f + 0.5f) * h));
                const auto& p = legend.panel;
                if (col >= p.x && col < p.x + p.width && row >= p.y && row < p.y + p.height)
                    continue;
                ASSERT_TRUE(col >= 2 && col < w - 2 && row >= 2 && row < h - 2) << i << "," << j;
                // The 5 x 5 pixels round the centre lie inside the voxel (its footprint is
                // 10+ pixels each way here); a box edge drawn in front of the slice may cross
                // them (a line one pixel wide: at most 9 of 25), so 16 must match.
                const auto want = expected(i, j);
                int matching = 0;
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx) {
                        const QColor got = image.pixelColor(col + dx, row + dy);
                        matching += std::abs(got.red() - want[0]) <= tolerance &&
                                    std::abs(got.green() - want[1]) <= tolerance &&
                                    std::abs(got.blue() - want[2]) <= tolerance;
                    }
                const QColor centre = image.pixelColor(col, row);
                EXPECT_GE(matching, 16)
                    << what << " voxel " << i << "," << j << ": want " << want[0] << " " << want[1]
                    << " " << want[2] << ", centre pixel " << centre.red() << " " << centre.green()
                    << " " << centre.blue();
                ++checked;
            }
        EXPECT_GT(checked, 36) << what << ": most voxels are clear of the legend";
    }

    std::unique_ptr<Runner> runner;
    std::shared_ptr<ViewExchange> exchange;
    std::unique_ptr<QWidget> window;
    Viewport* viewport = nullptr;
    VolumeControls* controls = nullptr;
};

TEST_F(VolumeWindowTest, ControlsListWhatTheVolumeOffers) {
    EXPECT_TRUE(controls->isEnabled());
    auto* channel = widget<QComboBox>("volumeChannel");
    ASSERT_EQ(channel->count(), 3);
    EXPECT_EQ(channel->itemText(0), "phase");  // categories first
    EXPECT_EQ(channel->itemText(2), "height");
    EXPECT_EQ(channel->currentText(), "phase");  // the default: the first category
    EXPECT_TRUE(widget<QLabel>("volumeTitle")->text().contains(QString::fromUtf8("8 × 6 × 4")));
    EXPECT_EQ(widget<QSlider>("slice:x")->maximum(), 7);  // one position per voxel layer
    EXPECT_EQ(widget<QSlider>("slice:z")->maximum(), 3);
    // The centre of 4 layers over [-2, 2] is z = 0, shown as the layer it opens (3 of 4).
    EXPECT_EQ(widget<QLabel>("sliceValue:z")->text(), "z = 0 (3/4)");
    EXPECT_EQ(viewport->volumeUploadPath(), "host upload");
    EXPECT_EQ(viewport->volumeLegend().title, "phase");
    // One volume: nothing to choose, so no Volume combo.
    EXPECT_TRUE(widget<QComboBox>("volumeView")->isHidden());
}

TEST_F(VolumeWindowTest, ChannelAndSlicesChosenInTheControlsAreDrawn) {
    QSignalSpy changed(controls, &VolumeControls::slicesChanged);
    widget<QCheckBox>("sliceCheck:x")->click();
    widget<QCheckBox>("sliceCheck:y")->click();
    widget<QSlider>("slice:z")->setValue(1);
    EXPECT_EQ(changed.count(), 3);
    const app::SliceSettings s = viewport->slices();
    EXPECT_EQ(s[0].mode, app::SliceSetting::Mode::Off);
    EXPECT_EQ(s[1].mode, app::SliceSetting::Mode::Off);
    ASSERT_EQ(s[2].mode, app::SliceSetting::Mode::At);
    EXPECT_DOUBLE_EQ(s[2].coordinate, -0.5);  // the centre of layer 1
    EXPECT_EQ(widget<QLabel>("sliceValue:z")->text(), "z = -0.5 (2/4)");
    // Categories: the palette colour exactly (tolerance 0, nearest texel).
    expectVoxels(
        -0.5, [](int i, int j) { return paletteAt(test::checkerPhase(i, j, 1)); }, 0, "phase");

    // The run is paused: the new channel is drawn from the views the viewport holds.
    widget<QComboBox>("volumeChannel")->setCurrentText("height");
    ASSERT_TRUE(waitUntil([&] { return viewport->volumeInfo().shownChannel == "height"; }));
    EXPECT_EQ(viewport->volumeLegend().title, render::legendTitle("height", "1"));
    EXPECT_EQ(widget<QComboBox>("volumeChannel")->currentText(), "height");
    // Scalars within 1 level (a colormap texel interpolated at u * 255); height = k over
    // its range [0, 3]: layer 1 is u = 1/3 everywhere.
    expectVoxels(
        -0.5, [](int, int) { return viridisAt(1.0 / 3.0); }, 1, "height");
    widget<QComboBox>("volumeChannel")->setCurrentText("gradient");
    ASSERT_TRUE(waitUntil([&] { return viewport->volumeInfo().shownChannel == "gradient"; }));
    expectVoxels(
        -0.5, [](int i, int) { return viridisAt(i / 7.0); }, 1, "gradient");

    // A step publishes new views (height = k + step): the viewport follows.
    runner->stepBy(2).get();
    widget<QComboBox>("volumeChannel")->setCurrentText("height");
    ASSERT_TRUE(waitUntil([&] { return viewport->shownStep() == 2; }));
    ASSERT_TRUE(waitUntil([&] { return viewport->volumeLegend().hi == 5.0; }));  // k + 2

    const QString shots = qEnvironmentVariable("CELLFORGE_VOLUME_SHOTS");
    if (!shots.isEmpty()) {
        widget<QCheckBox>("sliceCheck:x")->click();
        widget<QSlider>("slice:y")->setValue(4);
        widget<QComboBox>("volumeChannel")->setCurrentText("phase");
        QTest::qWait(300);
        window->grab().save(QDir(shots).filePath("volume_window.png"));
    }
}

class TwoVolumeWindowTest : public VolumeWindowTest {
protected:
    int volumeCount() const override { return 2; }
};

TEST_F(TwoVolumeWindowTest, TheVolumeChosenInTheDockIsDrawn) {
    auto* volume = widget<QComboBox>("volumeView");
    ASSERT_TRUE(volume->isVisible());
    ASSERT_EQ(volume->count(), 2);
    EXPECT_EQ(volume->itemText(1), "plate");
    EXPECT_EQ(volume->currentText(), "lattice");  // the first by default
    EXPECT_EQ(viewport->volumeInfo().name, "lattice");
    widget<QCheckBox>("sliceCheck:x")->click();  // only the z slice: the plate's one layer
    widget<QCheckBox>("sliceCheck:y")->click();

    volume->setCurrentText("plate");
    ASSERT_TRUE(waitUntil([&] { return viewport->volumeInfo().name == "plate"; }));
    EXPECT_EQ(viewport->volumeView(), "plate");
    // Channels and sliders follow the plate: its own channels, one layer along z.
    auto* channel = widget<QComboBox>("volumeChannel");
    ASSERT_EQ(channel->count(), 2);
    EXPECT_EQ(channel->itemText(0), "band");
    EXPECT_EQ(channel->currentText(), "band");  // 'phase' is the lattice's: the default
    EXPECT_TRUE(widget<QLabel>("volumeTitle")->text().contains(QString::fromUtf8("8 × 6 × 1")));
    EXPECT_EQ(widget<QSlider>("slice:z")->maximum(), 0);
    EXPECT_EQ(widget<QLabel>("sliceValue:z")->text(), "z = 0 (1/1)");
    EXPECT_EQ(volume->currentText(), "plate");
    // The plate's bands (palette, exact), not the lattice's checkerboard in the same place.
    expectVoxels(
        0.0, [](int, int j) { return paletteAt(test::plateBand(j)); }, 0, "band");
    channel->setCurrentText("ramp");
    ASSERT_TRUE(waitUntil([&] { return viewport->volumeInfo().shownChannel == "ramp"; }));
    expectVoxels(
        0.0, [](int, int j) { return viridisAt(j / 5.0); }, 1, "ramp");  // hint [0, ny - 1]

    const QString shots = qEnvironmentVariable("CELLFORGE_VOLUME_SHOTS");
    if (!shots.isEmpty()) {
        widget<QCheckBox>("sliceCheck:x")->click();
        channel->setCurrentText("band");
        QTest::qWait(300);
        window->grab().save(QDir(shots).filePath("volume_window_plate.png"));
        widget<QCheckBox>("sliceCheck:x")->click();
    }

    // A new set of volumes (a reset with one, then two again): the choice falls back to the
    // first, and the combo hides while there is nothing to choose.
    runner->setParameter("grid.volumes", std::int64_t{1}).get();
    runner->reset().get();
    ASSERT_TRUE(waitUntil([&] { return viewport->volumeInfo().volumes.size() == 1; }));
    EXPECT_EQ(viewport->volumeInfo().name, "lattice");
    EXPECT_TRUE(volume->isHidden());
    runner->setParameter("grid.volumes", std::int64_t{2}).get();
    runner->reset().get();
    ASSERT_TRUE(waitUntil([&] { return viewport->volumeInfo().volumes.size() == 2; }));
    EXPECT_EQ(viewport->volumeInfo().name, "lattice");
    EXPECT_EQ(volume->currentText(), "lattice");
    EXPECT_FALSE(volume->isHidden());
}

// A sheet much wider than tall (64 x 6 voxels of 2 x 2 units in one layer, like the cardiac
// and gliding sheets), under the HUD of a model with a dozen metrics: fitted at its first
// views, cut off after a zoom by hand, fitted again by fitToScene(), and fitted into the
// whole widget while the overlay is hidden. At the two screen sizes a class projects.
class SheetFitTest : public ::testing::TestWithParam<std::pair<int, int>> {
protected:
    // The scene lies inside the free area less the fit's margin (0.5 px: the projection's
    // round-off), fills it in its limiting direction (90 %: the margin and the corners of
    // the box that are not drawn), and the free area is clear of the HUD.
    static void expectFitted(Viewport& viewport, const std::string& what) {
        const QRectF scene = viewport.sceneRectOnScreen(), free = viewport.freeRect();
        ASSERT_FALSE(scene.isEmpty()) << what;
        ASSERT_FALSE(free.isEmpty()) << what;
        const double m = Viewport::kFitMarginPx - 0.5;
        EXPECT_TRUE(free.adjusted(m, m, -m, -m).contains(scene))
            << what << ": scene " << scene.left() << "," << scene.top() << " " << scene.width()
            << "x" << scene.height() << " free " << free.left() << "," << free.top() << " "
            << free.width() << "x" << free.height();
        EXPECT_GT(std::max(scene.width() / free.width(), scene.height() / free.height()), 0.9)
            << what;
        EXPECT_TRUE(QRectF(viewport.rect()).contains(free)) << what;
        if (viewport.overlayVisible()) {
            const OverlayRects& r = viewport.overlay().lastRects();
            EXPECT_FALSE(r.hud.isEmpty()) << what;
            EXPECT_FALSE(free.intersects(r.hud)) << what;
            EXPECT_FALSE(free.intersects(r.volumeLegend)) << what;
        }
    }
};

TEST_P(SheetFitTest, TheSceneFitsInsideTheFreeArea) {
    const auto [w, h] = GetParam();
    ParamSet params(test::volumeTable());
    params.set("grid.nx", std::int64_t{64});
    params.set("grid.nz", std::int64_t{1});
    Runner runner(volumeModel(), Backend::Cpu, params, 1u);
    auto exchange = std::make_shared<ViewExchange>();
    runner.setViewExchange(exchange);
    Viewport viewport;
    OverlayState hud;
    hud.title = "sheet";
    hud.backend = "cpu";
    for (int i = 0; i < 12; ++i)
        hud.metrics.push_back({"metric " + std::to_string(i), "ms", 1.5 * i, ""});
    viewport.setOverlayState(hud);
    viewport.setExchange(exchange);
    viewport.resize(w, h);
    viewport.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&viewport));
    ASSERT_EQ(viewport.width(), w);
    ASSERT_TRUE(waitUntil([&] { return !viewport.sceneRectOnScreen().isEmpty(); }));
    // The first frames fit again as the panels size themselves.
    waitFitted([&] { return fittedNow(viewport); }, 5000);
    expectFitted(viewport, "at open");

    viewport.camera().zoom(3.0f);  // by hand: the automatic fit lets go
    QTest::qWait(100);
    EXPECT_FALSE(viewport.freeRect().contains(viewport.sceneRectOnScreen()))
        << "zoomed in, the sheet is cut off (else this test could not fail)";
    viewport.fitToScene();
    waitFitted([&] { return fittedNow(viewport); }, 5000);
    expectFitted(viewport, "after fitToScene");

    viewport.setOverlayVisible(false);
    waitUntil([&] { return viewport.freeRect() == QRectF(viewport.rect()) && fittedNow(viewport); },
              5000);
    EXPECT_EQ(viewport.freeRect(), QRectF(viewport.rect()));
    expectFitted(viewport, "overlay hidden");
    viewport.setOverlayVisible(true);
    viewport.overlay().setHudFolded(true);
    QTest::qWait(200);
    waitFitted([&] { return fittedNow(viewport); }, 5000);
    expectFitted(viewport, "HUD folded");

    const QString shots = qEnvironmentVariable("CELLFORGE_VOLUME_SHOTS");
    if (!shots.isEmpty())
        viewport.grabFramebuffer().save(
            QDir(shots).filePath(QString("sheet_fit_%1x%2.png").arg(w).arg(h)));
}

INSTANTIATE_TEST_SUITE_P(ScreenSizes, SheetFitTest,
                         ::testing::Values(std::pair{1280, 720}, std::pair{1920, 1080}));

TEST(VolumeControlsAlone, WithoutAVolumeTheyAreOffAndSayWhy) {
    VolumeControls controls;
    EXPECT_FALSE(controls.isEnabled());
    EXPECT_TRUE(controls.findChild<QLabel*>("volumeTitle")->text().contains("no volume view"));
    app::VolumeInfo info;
    info.name = "occupancy";
    info.dims = {10, 1, 4};
    info.lo = {0, 0, 0};
    info.hi = {20, 2, 8};
    info.channels = {"species", "density"};
    info.shownChannel = "density";
    controls.setVolume(info);
    EXPECT_TRUE(controls.isEnabled());
    EXPECT_EQ(controls.channel(), "density");
    EXPECT_EQ(controls.layerOf(0, 20.0), 9);  // the last layer's centre is 19
    EXPECT_EQ(controls.layerOf(0, -5.0), 0);
    EXPECT_DOUBLE_EQ(controls.layerCentre(2, 3), 7.0);
    // Settings given from outside are shown, without a signal.
    QSignalSpy changed(&controls, &VolumeControls::slicesChanged);
    controls.setSlices(app::parseSlices("5,off,mid"));
    EXPECT_EQ(changed.count(), 0);
    EXPECT_EQ(controls.findChild<QSlider*>("slice:x")->value(), 2);  // 5 lies in layer 2
    EXPECT_FALSE(controls.findChild<QCheckBox*>("sliceCheck:y")->isChecked());
    EXPECT_FALSE(controls.findChild<QSlider*>("slice:y")->isEnabled());
    // Checking the y slice again puts it at its slider's layer.
    controls.findChild<QCheckBox*>("sliceCheck:y")->click();
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(controls.slices()[1].mode, app::SliceSetting::Mode::At);
    EXPECT_DOUBLE_EQ(controls.slices()[1].coordinate, 1.0);
}

}  // namespace
}  // namespace cf::gui

int main(int argc, char** argv) {
    return cf::test::runGlWidgetTests(argc, argv);
}
