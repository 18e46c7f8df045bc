// SPDX-License-Identifier: GPL-3.0-or-later
// The Dear ImGui overlay over a QOpenGLWidget (runs under Xvfb, Mesa llvmpipe): what it
// draws (HUD backdrop and text, the legend's colour bar against the colormap), that it
// leaves the GL state alone, and how input is routed: sliders and the colour-by list take
// their clicks, drags and typed keys (the widget never sees them) and report through the
// callbacks; the same events over empty space reach the widget.
#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QTest>
#include <array>
#include <cmath>
#include <functional>
#include <glm/gtc/constants.hpp>
#include <stdexcept>

#include "gui/imgui_overlay.hpp"
#include "render/camera.hpp"
#include "render/colormap.hpp"
#include "render/legend.hpp"
#include "render/point_cloud.hpp"
#include "sim/core/params.hpp"
#include "tests/support/gl_widget_test_main.hpp"

namespace cf::gui {
namespace {

// The clear colour: far from white text, black backdrops and the viridis ends.
constexpr std::array<int, 3> kClear = {51, 89, 64};

struct GlState {
    GLint program = 0, vao = 0, arrayBuffer = 0, activeTexture = 0, texture2d = 0;
    GLint viewport[4] = {}, blendSrc = 0, blendDst = 0, depthFunc = 0;
    GLboolean depthTest = 0, blend = 0, cull = 0, scissor = 0, depthMask = 0;
    static GlState capture() {
        GlState s;
        glGetIntegerv(GL_CURRENT_PROGRAM, &s.program);
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &s.vao);
        glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &s.arrayBuffer);
        glGetIntegerv(GL_ACTIVE_TEXTURE, &s.activeTexture);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &s.texture2d);
        glGetIntegerv(GL_VIEWPORT, s.viewport);
        glGetIntegerv(GL_BLEND_SRC_RGB, &s.blendSrc);
        glGetIntegerv(GL_BLEND_DST_RGB, &s.blendDst);
        glGetIntegerv(GL_DEPTH_FUNC, &s.depthFunc);
        s.depthTest = glIsEnabled(GL_DEPTH_TEST);
        s.blend = glIsEnabled(GL_BLEND);
        s.cull = glIsEnabled(GL_CULL_FACE);
        s.scissor = glIsEnabled(GL_SCISSOR_TEST);
        glGetBooleanv(GL_DEPTH_WRITEMASK, &s.depthMask);
        return s;
    }
    bool operator==(const GlState& o) const {
        return program == o.program && vao == o.vao && arrayBuffer == o.arrayBuffer &&
               activeTexture == o.activeTexture && texture2d == o.texture2d &&
               std::equal(viewport, viewport + 4, o.viewport) && blendSrc == o.blendSrc &&
               blendDst == o.blendDst && depthFunc == o.depthFunc && depthTest == o.depthTest &&
               blend == o.blend && cull == o.cull && scissor == o.scissor &&
               depthMask == o.depthMask;
    }
};

// What the viewport will do: clear, draw a scene, draw the overlay last. Counts the events
// that reach it (what the camera would see).
class OverlayHost : public QOpenGLWidget {
public:
    OverlayHost() : overlay(this) {
        setFocusPolicy(Qt::StrongFocus);
        resize(800, 600);
    }
    ~OverlayHost() override {
        makeCurrent();
        scene = nullptr;
        overlay.shutdown();
        doneCurrent();
    }

    ImGuiOverlay overlay;
    OverlayState state;
    std::function<void(int, int)> scene;  // draws with the context current
    int frames = 0, presses = 0, moves = 0, releases = 0, wheels = 0, keys = 0;
    bool stateChanged = false;

protected:
    void initializeGL() override { overlay.initialize(); }
    void paintGL() override {
        const double dpr = devicePixelRatioF();
        const int w = static_cast<int>(std::lround(width() * dpr));
        const int h = static_cast<int>(std::lround(height() * dpr));
        glViewport(0, 0, w, h);
        glClearColor(kClear[0] / 255.0f, kClear[1] / 255.0f, kClear[2] / 255.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        if (scene) scene(w, h);
        // Non-default state the renderer might rely on: the overlay must hand it back.
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LEQUAL);
        glEnable(GL_CULL_FACE);
        glBlendFunc(GL_ONE, GL_ZERO);
        const GlState before = GlState::capture();
        overlay.draw(w, h, dpr, state);
        stateChanged |= !(GlState::capture() == before);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_CULL_FACE);
        glDepthFunc(GL_LESS);
        ++frames;
    }
    void mousePressEvent(QMouseEvent*) override { ++presses; }
    void mouseMoveEvent(QMouseEvent*) override { ++moves; }
    void mouseReleaseEvent(QMouseEvent*) override { ++releases; }
    void wheelEvent(QWheelEvent*) override { ++wheels; }
    void keyPressEvent(QKeyEvent*) override { ++keys; }
};

QuickParam rateParam() {
    QuickParam p;
    p.key = "cell.division_rate";
    p.label = "division rate";
    p.unit = "1/h";
    p.description = "Mean divisions per cell and hour.";
    p.value = 2.0;
    p.min = 0.0;
    p.max = 10.0;
    return p;
}

OverlayState sampleState() {
    OverlayState s;
    s.title = "epidermis";
    s.running = true;
    s.framesPerSecond = 60.0;
    s.stepsPerSecond = 1234.0;
    s.time = 12.5;
    s.timeUnit = "h";
    s.step = 1250;
    s.backend = "cpu";
    s.uploadPath = "host upload";
    s.metrics = {
        {"cells", "1", 2048.0, ""}, {"stem cells", "1", 96.0, ""}, {"mean radius", "um", 4.87, ""}};
    s.legend = render::buildLegend(render::Colormap::Viridis, 0.0, 10.0, "pressure", "Pa");
    QuickParam adhesion;
    adhesion.key = "mech.adhesion";
    adhesion.label = "adhesion";
    adhesion.unit = "nN";
    adhesion.value = 0.01;
    adhesion.min = 1e-4;
    adhesion.max = 1.0;
    adhesion.logarithmic = true;
    s.quick = {rateParam(), adhesion};
    s.channels = {"type", "pressure", "age"};
    s.colorBy = "pressure";
    return s;
}

class ImGuiOverlayTest : public ::testing::Test {
protected:
    void SetUp() override {
        host_ = std::make_unique<OverlayHost>();
        host_->state = sampleState();
        host_->overlay.onParameterEdited(
            [this](const std::string& key, double value) { edits_.emplace_back(key, value); });
        host_->overlay.onColorByChosen([this](const std::string& c) { chosen_.push_back(c); });
        host_->show();
        if (!QTest::qWaitForWindowExposed(host_.get()) || !host_->context() ||
            !host_->context()->isValid())
            GTEST_SKIP() << "no OpenGL context (needs a display, e.g. xvfb-run)";
        settle();
        if (!host_->overlay.initialized()) GTEST_SKIP() << "the ImGui GL backend did not start";
    }

    // Draws frames until the overlay has shown all queued input, plus two (auto-sized
    // windows take a frame to measure themselves).
    void settle() {
        const int start = host_->frames;
        for (int guard = 0; guard < 60 && host_->overlay.hasPendingInput(); ++guard)
            frame();
        frame();
        frame();
        ASSERT_GT(host_->frames, start) << "repaint() did not draw";
    }
    void frame() {
        host_->repaint();
        QCoreApplication::processEvents();
    }
    QPoint at(const QRectF& r, double fx, double fy = 0.5) const {
        return QPoint(static_cast<int>(std::lround(r.left() + fx * r.width())),
                      static_cast<int>(std::lround(r.top() + fy * r.height())));
    }
    QImage grab() { return host_->grabFramebuffer().convertToFormat(QImage::Format_RGB32); }

    std::unique_ptr<OverlayHost> host_;
    std::vector<std::pair<std::string, double>> edits_;
    std::vector<std::string> chosen_;
};

int maxDiff(QRgb p, const std::array<int, 3>& c) {
    return std::max(
        {std::abs(qRed(p) - c[0]), std::abs(qGreen(p) - c[1]), std::abs(qBlue(p) - c[2])});
}

TEST_F(ImGuiOverlayTest, HudDrawsBackdropAndTextTopLeft) {
    const QImage img = grab();
    const QRectF hud = host_->overlay.lastRects().hud;
    ASSERT_FALSE(hud.isEmpty());
    EXPECT_LT(hud.left(), 20);
    EXPECT_LT(hud.top(), 20);
    const double dpr = host_->devicePixelRatioF();
    // Backdrop: black at alpha 0.55 over the clear colour, i.e. 0.45 x clear. +-2: 8-bit
    // rounding of the blend and of the vertex colour's alpha (140/255, not exactly 0.55).
    const QPoint pad(static_cast<int>((hud.left() + 3) * dpr),
                     static_cast<int>(hud.center().y() * dpr));
    const std::array<int, 3> backdrop = {static_cast<int>(std::lround(kClear[0] * 0.45)),
                                         static_cast<int>(std::lround(kClear[1] * 0.45)),
                                         static_cast<int>(std::lround(kClear[2] * 0.45))};
    EXPECT_LE(maxDiff(img.pixel(pad), backdrop), 2) << std::hex << img.pixel(pad);
    // Text: near-white pixels (the style's text colour is white; anti-aliased edges are
    // darker, their cores are not), which neither the clear colour nor the backdrop has.
    int white = 0, clear = 0;
    const QRect box(static_cast<int>(hud.left() * dpr), static_cast<int>(hud.top() * dpr),
                    static_cast<int>(hud.width() * dpr), static_cast<int>(hud.height() * dpr));
    for (int y = box.top(); y <= box.bottom(); ++y)
        for (int x = box.left(); x <= box.right(); ++x) {
            const QRgb p = img.pixel(x, y);
            if (qRed(p) > 200 && qGreen(p) > 200 && qBlue(p) > 200) ++white;
            if (maxDiff(p, kClear) <= 1) ++clear;
        }
    EXPECT_GT(white, 150) << "HUD text: a few lines of white glyphs";
    // Only the rounded corners (4 px radius) may show the bare clear colour.
    EXPECT_LT(clear, 4 * 16);
    // Away from every window the frame is the clear colour.
    EXPECT_LE(maxDiff(img.pixel(img.width() / 2, img.height() / 2), kClear), 1);
}

TEST_F(ImGuiOverlayTest, LegendBarShowsTheColormapEnds) {
    const QImage img = grab();
    const OverlayRects& r = host_->overlay.lastRects();
    ASSERT_FALSE(r.legendBar.isEmpty());
    EXPECT_GT(r.legend.left(), host_->width() / 2);  // bottom right
    EXPECT_GT(r.legend.top(), host_->height() / 2);
    const double dpr = host_->devicePixelRatioF();
    const int x = static_cast<int>(r.legendBar.center().x() * dpr);
    const int top = static_cast<int>(std::lround(r.legendBar.top() * dpr));
    const int bottom = static_cast<int>(std::lround(r.legendBar.bottom() * dpr)) - 1;
    const int rows = bottom - top + 1;
    const std::vector<std::uint8_t> t = render::colormapTable(render::Colormap::Viridis, 256);
    const std::array<int, 3> hi = {t[765], t[766], t[767]}, lo = {t[0], t[1], t[2]};
    // A pixel row's centre lies half a row inside the bar: 0.5 x 255 / rows table entries
    // away from the end. Tolerance: that many entries (rounded up) times the largest step
    // between neighbouring entries at that end, +1 for 8-bit vertex colours, +1 for the
    // rasteriser's interpolation.
    const int entries = static_cast<int>(std::ceil(0.5 * 255.0 / rows));
    int stepHi = 0, stepLo = 0;
    for (int i = 0; i < entries + 1; ++i)
        for (int c = 0; c < 3; ++c) {
            stepHi = std::max(stepHi, std::abs(t[3 * (255 - i) + c] - t[3 * (254 - i) + c]));
            stepLo = std::max(stepLo, std::abs(t[3 * i + c] - t[3 * (i + 1) + c]));
        }
    EXPECT_LE(maxDiff(img.pixel(x, top), hi), entries * stepHi + 2)
        << std::hex << img.pixel(x, top);
    EXPECT_LE(maxDiff(img.pixel(x, bottom), lo), entries * stepLo + 2)
        << std::hex << img.pixel(x, bottom);
    // Mid bar: the middle entry, within a row's worth of entries.
    const QRgb mid = img.pixel(x, (top + bottom + 1) / 2);
    const std::array<int, 3> m = {t[3 * 128], t[3 * 128 + 1], t[3 * 128 + 2]};
    EXPECT_LE(maxDiff(mid, m), 6) << std::hex << mid;
    // Just outside the bar's top: not the hi colour (the bar is where we say it is).
    EXPECT_GT(maxDiff(img.pixel(x, top - 2), hi), 20);
}

TEST_F(ImGuiOverlayTest, LeavesGlStateAsFound) {
    settle();
    EXPECT_FALSE(host_->stateChanged);
}

TEST_F(ImGuiOverlayTest, SliderDragIsConsumedAndReportedOnce) {
    const QRectF slider = host_->overlay.lastRects().sliders.at("cell.division_rate");
    ASSERT_FALSE(slider.isEmpty());
    QTest::mousePress(host_.get(), Qt::LeftButton, {}, at(slider, 0.1));
    settle();
    QTest::mouseMove(host_.get(), at(slider, 0.5));
    settle();
    QTest::mouseMove(host_.get(), at(slider, 0.75));
    settle();
    EXPECT_TRUE(edits_.empty()) << "reported only when the drag ends";
    QTest::mouseRelease(host_.get(), Qt::LeftButton, {}, at(slider, 0.75));
    settle();
    ASSERT_EQ(edits_.size(), 1u);
    EXPECT_EQ(edits_[0].first, "cell.division_rate");
    // 75% across the frame: 7.5 on a linear [0, 10] slider, less the grab's half width and
    // the frame padding at each end (about 7 px of ~150 px: +-0.5).
    EXPECT_NEAR(edits_[0].second, 7.5, 0.6);
    EXPECT_EQ(host_->presses, 0);
    EXPECT_EQ(host_->moves, 0);
    EXPECT_EQ(host_->releases, 0);
}

TEST_F(ImGuiOverlayTest, EventsOverEmptySpaceReachTheWidget) {
    const QPoint p(host_->width() / 2, host_->height() / 2);
    ASSERT_FALSE(host_->overlay.wantsMouseAt(p));
    QTest::mousePress(host_.get(), Qt::LeftButton, {}, p);
    QTest::mouseMove(host_.get(), p + QPoint(30, 10));
    QTest::mouseRelease(host_.get(), Qt::LeftButton, {}, p + QPoint(30, 10));
    settle();
    EXPECT_EQ(host_->presses, 1);
    EXPECT_GE(host_->moves, 1);
    EXPECT_EQ(host_->releases, 1);
    // A camera drag that starts in the scene and ends over the panel stays the camera's.
    const QRectF slider = host_->overlay.lastRects().sliders.at("cell.division_rate");
    QTest::mousePress(host_.get(), Qt::LeftButton, {}, p);
    settle();
    QTest::mouseMove(host_.get(), at(slider, 0.5));
    settle();
    QTest::mouseRelease(host_.get(), Qt::LeftButton, {}, at(slider, 0.5));
    settle();
    EXPECT_EQ(host_->presses, 2);
    EXPECT_GE(host_->moves, 2);
    EXPECT_EQ(host_->releases, 2);
    EXPECT_TRUE(edits_.empty());
    // The wheel: zooms over the scene, not over the panel.
    QWheelEvent overScene(QPointF(p), QPointF(host_->mapToGlobal(p)), {}, QPoint(0, 120),
                          Qt::NoButton, {}, Qt::NoScrollPhase, false);
    QApplication::sendEvent(host_.get(), &overScene);
    const QPoint onPanel = at(host_->overlay.lastRects().quick, 0.5);
    QWheelEvent overPanel(QPointF(onPanel), QPointF(host_->mapToGlobal(onPanel)), {},
                          QPoint(0, 120), Qt::NoButton, {}, Qt::NoScrollPhase, false);
    QApplication::sendEvent(host_.get(), &overPanel);
    EXPECT_EQ(host_->wheels, 1);
}

TEST_F(ImGuiOverlayTest, TypedValueIsConsumedAndReported) {
    // Unfocused overlay: keys are the window's.
    QTest::keyClick(host_.get(), Qt::Key_A);
    EXPECT_EQ(host_->keys, 1);
    EXPECT_FALSE(host_->overlay.wantsKeyboard());
    // Ctrl+click turns the slider into a text field (its text selected).
    const QRectF slider = host_->overlay.lastRects().sliders.at("cell.division_rate");
    QTest::mouseClick(host_.get(), Qt::LeftButton, Qt::ControlModifier, at(slider, 0.5));
    settle();
    ASSERT_TRUE(host_->overlay.wantsKeyboard());
    QTest::keyClicks(host_.get(), "7.25");
    settle();
    QTest::keyClick(host_.get(), Qt::Key_Return);
    settle();
    EXPECT_EQ(host_->keys, 1) << "the typed keys went to the field, not the widget";
    ASSERT_EQ(edits_.size(), 1u);
    EXPECT_EQ(edits_[0].first, "cell.division_rate");
    EXPECT_DOUBLE_EQ(edits_[0].second, 7.25);
    EXPECT_FALSE(host_->overlay.wantsKeyboard());
    QTest::keyClick(host_.get(), Qt::Key_A);
    EXPECT_EQ(host_->keys, 2);
}

TEST_F(ImGuiOverlayTest, ColourByListReportsTheChoice) {
    const QRectF combo = host_->overlay.lastRects().colorByCombo;
    ASSERT_FALSE(combo.isEmpty());
    QTest::mouseClick(host_.get(), Qt::LeftButton, {}, at(combo, 0.5));
    settle();
    const std::vector<QRectF> items = host_->overlay.lastRects().colorByItems;
    ASSERT_EQ(items.size(), 3u);
    QTest::mouseClick(host_.get(), Qt::LeftButton, {}, at(items[2], 0.5));
    settle();
    ASSERT_EQ(chosen_.size(), 1u);
    EXPECT_EQ(chosen_[0], "age");
    EXPECT_TRUE(host_->overlay.lastRects().colorByItems.empty()) << "the list closed";
    EXPECT_EQ(host_->presses, 0);
}

TEST_F(ImGuiOverlayTest, ThrowingCallbackIsShownNotThrown) {
    host_->overlay.onParameterEdited([](const std::string&, double) {
        throw std::runtime_error("division_rate: 12 is outside [0, 10]");
    });
    const QRectF slider = host_->overlay.lastRects().sliders.at("cell.division_rate");
    QTest::mouseClick(host_.get(), Qt::LeftButton, {}, at(slider, 0.9));
    settle();
    EXPECT_EQ(host_->overlay.lastError(), "division_rate: 12 is outside [0, 10]");
}

// Issue 22: a value typed after Ctrl+click outside the slider's range is reported as typed
// (not clamped to the nearest end, not dropped), so the window can refuse it with the range.
TEST_F(ImGuiOverlayTest, TypedValueOutsideTheRangeIsReportedNotClamped) {
    const QRectF slider = host_->overlay.lastRects().sliders.at("cell.division_rate");
    QTest::mouseClick(host_.get(), Qt::LeftButton, Qt::ControlModifier, at(slider, 0.5));
    settle();
    ASSERT_TRUE(host_->overlay.wantsKeyboard());
    QTest::keyClicks(host_.get(), "-50");
    settle();
    QTest::keyClick(host_.get(), Qt::Key_Return);
    settle();
    ASSERT_EQ(edits_.size(), 1u);
    EXPECT_EQ(edits_[0].first, "cell.division_rate");
    EXPECT_DOUBLE_EQ(edits_[0].second, -50.0);
}

TEST_F(ImGuiOverlayTest, TypedValueOutsideTheRangeIsRefusedUnderTheSliders) {
    // The window's callback validates against the declared parameter, as MainWindow does
    // through Runner::setParameter.
    struct P {
        double rate;
    };
    ParamTableBuilder<P> b;
    b.real("cell", "division_rate", &P::rate, 2.0, 0.0, 10.0, "1/h", "Divisions per hour",
           Mutability::Live);
    const ParamTable table = b.build();
    host_->overlay.onParameterEdited([&](const std::string& key, double value) {
        validateValue(table.at(key), ParamValue(value));
        edits_.emplace_back(key, value);
    });
    const double quickHeight = host_->overlay.lastRects().quick.height();
    const QRectF slider = host_->overlay.lastRects().sliders.at("cell.division_rate");
    QTest::mouseClick(host_.get(), Qt::LeftButton, Qt::ControlModifier, at(slider, 0.5));
    settle();
    QTest::keyClicks(host_.get(), "-50");
    settle();
    QTest::keyClick(host_.get(), Qt::Key_Return);
    settle();
    EXPECT_TRUE(edits_.empty());
    const std::string& error = host_->overlay.lastError();
    EXPECT_NE(error.find("cell.division_rate"), std::string::npos) << error;
    EXPECT_NE(error.find("-50"), std::string::npos) << error;
    EXPECT_NE(error.find("[0, 10]"), std::string::npos) << error;
    // The message is drawn under the sliders: the panel grew by its lines.
    EXPECT_GT(host_->overlay.lastRects().quick.height(), quickHeight);

    // A refusal that comes later (the model refused the edit between steps) shows the same.
    host_->overlay.showRefusal("parameter 'cell.division_rate' = 7 was refused: not now");
    settle();
    EXPECT_EQ(host_->overlay.lastError(),
              "parameter 'cell.division_rate' = 7 was refused: not now");
}

TEST_F(ImGuiOverlayTest, ScaleEnlargesTheHud) {
    const double h1 = host_->overlay.lastRects().hud.height();
    host_->overlay.setScale(2.0f);
    settle();
    const double h2 = host_->overlay.lastRects().hud.height();
    // Font, padding and spacing all double; line heights round to whole pixels.
    EXPECT_NEAR(h2 / h1, 2.0, 0.15);
}

TEST_F(ImGuiOverlayTest, CollapsedQuickPanelShowsOnlyItsTitle) {
    const double open = host_->overlay.lastRects().quick.height();
    host_->overlay.setQuickPanelOpen(false);
    settle();
    EXPECT_LT(host_->overlay.lastRects().quick.height(), open / 3);
    EXPECT_TRUE(host_->overlay.lastRects().sliders.empty());
}

// The picture to look at: spheres coloured by height under the overlay.
TEST_F(ImGuiOverlayTest, SavesAPictureOverAScene) {
    std::unique_ptr<render::PointCloud> cloud;
    render::OrbitCamera camera;
    camera.fit({-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f});
    host_->scene = [&](int w, int h) {
        if (!cloud) {
            cloud = std::make_unique<render::PointCloud>();
            std::vector<float> xyzr, z;
            const int n = 1500;
            for (int i = 0; i < n; ++i) {  // a ball, filled evenly (a low-discrepancy sequence)
                const float u = std::fmod(i * 0.8191725f, 1.0f),
                            v = std::fmod(i * 0.6710436f, 1.0f);
                const float t = std::fmod(i * 0.5497005f, 1.0f);
                const float r = std::cbrt(u), cz = 1.0f - 2.0f * v, s = std::sqrt(1.0f - cz * cz);
                const float phi = 2.0f * glm::pi<float>() * t;
                xyzr.insert(xyzr.end(),
                            {r * s * std::cos(phi), r * s * std::sin(phi), r * cz, 0.07f});
                z.push_back(5.0f * (r * cz + 1.0f));
            }
            cloud->setPoints(xyzr.data(), n);
            cloud->setScalars(z.data(), n);
            cloud->colorByScalar(render::Colormap::Viridis, 0.0f, 10.0f);
        }
        glEnable(GL_DEPTH_TEST);
        cloud->draw(camera.view(), camera.projection(static_cast<float>(w) / h));
        glDisable(GL_DEPTH_TEST);
    };
    host_->resize(960, 600);
    settle();
    const QImage img = grab();
    const char* dir = std::getenv("CELLFORGE_TEST_OUTPUT");
    const QString path = QString(dir ? dir : ".") + "/imgui_overlay.png";
    ASSERT_TRUE(img.save(path)) << path.toStdString();
    std::printf("overlay picture: %s\n", path.toStdString().c_str());
    // The scene is there under the overlay: the frame's centre is not the clear colour.
    EXPECT_GT(maxDiff(img.pixel(img.width() / 2, img.height() / 2), kClear), 10);

    // Presentation mode, a categorical legend and the colour-by list open.
    host_->state.legend =
        render::buildCategoricalLegend({"stem", "transit", "differentiated"}, "type");
    host_->state.colorBy = "type";
    host_->overlay.setScale(1.6f);
    settle();
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().colorByCombo, 0.5));
    settle();
    const QString presentation = QString(dir ? dir : ".") + "/imgui_overlay_presentation.png";
    ASSERT_TRUE(grab().save(presentation));
    std::printf("overlay picture: %s\n", presentation.toStdString().c_str());
    EXPECT_EQ(host_->overlay.lastRects().colorByItems.size(), 3u);
    host_->scene = nullptr;
    host_->makeCurrent();
    cloud.reset();
    host_->doneCurrent();
}

TEST_F(ImGuiOverlayTest, HudFoldsToOneLineFromItsHeader) {
    const QRectF open = host_->overlay.lastRects().hud;
    const QRectF header = host_->overlay.lastRects().hudHeader;
    ASSERT_FALSE(header.isEmpty());
    // A click on the header's text (not only its marker) folds it, and is the overlay's.
    QTest::mouseClick(host_.get(), Qt::LeftButton, {}, at(header, 0.6));
    settle();
    EXPECT_TRUE(host_->overlay.hudFolded());
    EXPECT_EQ(host_->presses, 0);
    const QRectF folded = host_->overlay.lastRects().hud;
    // One line (the header's height, spacing included) plus the window's padding (6 px each
    // side at scale 1, +2 for rounding): a second line would add another 18 px.
    EXPECT_LE(folded.height(), header.height() + 14.0);
    EXPECT_LT(folded.height(), open.height() / 3);
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().hudHeader, 0.6));
    settle();
    EXPECT_FALSE(host_->overlay.hudFolded());
    EXPECT_NEAR(host_->overlay.lastRects().hud.height(), open.height(), 1.0);
}

TEST_F(ImGuiOverlayTest, QuickPanelOpensFromAnywhereOnItsHeader) {
    host_->overlay.setQuickPanelOpen(false);
    settle();
    ASSERT_TRUE(host_->overlay.lastRects().sliders.empty());
    const QRectF header = host_->overlay.lastRects().quickHeader;
    ASSERT_FALSE(header.isEmpty());
    // On the label, well right of the fold marker.
    QTest::mouseClick(host_.get(), Qt::LeftButton, {}, at(header, 0.75));
    settle();
    EXPECT_TRUE(host_->overlay.quickPanelOpen());
    EXPECT_EQ(host_->overlay.lastRects().sliders.size(), 2u);
    EXPECT_EQ(host_->presses, 0);
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().quickHeader, 0.5));
    settle();
    EXPECT_FALSE(host_->overlay.quickPanelOpen());
}

TEST_F(ImGuiOverlayTest, LegendsFoldToTheirTitles) {
    const double open = host_->overlay.lastRects().legend.height();
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().legendHeader, 0.5));
    settle();
    EXPECT_LT(host_->overlay.lastRects().legend.height(), open / 4);
    EXPECT_TRUE(host_->overlay.lastRects().legendBar.isEmpty());
    host_->overlay.setLegendsFolded(false);
    settle();
    EXPECT_NEAR(host_->overlay.lastRects().legend.height(), open, 1.0);
}

TEST_F(ImGuiOverlayTest, ColourRangeModeAndTypedBoundsAreReported) {
    std::vector<std::pair<std::string, app::RangeSetting>> chosen;
    host_->overlay.onColorRangeChosen(
        [&](const std::string& key, const app::RangeSetting& r) { chosen.emplace_back(key, r); });
    RangeControl c;
    c.key = "points:pressure";
    c.label = "pressure";
    c.lo = 2.0;
    c.hi = 8.0;
    host_->state.ranges = {c};
    settle();
    ASSERT_EQ(host_->overlay.lastRects().rangeModes.count(c.key), 1u);
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().rangeModes.at(c.key), 0.5));
    settle();
    ASSERT_EQ(host_->overlay.lastRects().rangeModeItems.size(), 3u);
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().rangeModeItems[2], 0.5));  // typed
    settle();
    ASSERT_EQ(chosen.size(), 1u);
    EXPECT_EQ(chosen[0].first, c.key);
    // Typed starts from the range in use.
    EXPECT_EQ(chosen[0].second, (app::RangeSetting{app::RangeMode::Typed, 2.0, 8.0}));
    EXPECT_EQ(host_->presses, 0);
    // A refusal from the callback is shown under the sliders, not thrown.
    host_->overlay.onColorRangeChosen(
        [](const std::string&, const app::RangeSetting&) { throw std::runtime_error("no range"); });
    host_->state.ranges[0].setting = chosen[0].second;
    settle();
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().rangeModes.at(c.key), 0.5));
    settle();
    QTest::mouseClick(host_.get(), Qt::LeftButton, {},
                      at(host_->overlay.lastRects().rangeModeItems[1], 0.5));  // locked
    settle();
    EXPECT_EQ(host_->overlay.lastError(), "no range");
}

TEST(HudText, UnitsDashesRatesAndSeparators) {
    // The labels: NaN reads as a dash without its unit, 4.19e7 us as seconds.
    EXPECT_EQ(hudMetricText(std::nan(""), "mV"),
              (std::pair<std::string, std::string>{"\u2014", ""}));
    EXPECT_EQ(hudMetricText(2048.0, "1"), (std::pair<std::string, std::string>{"2048", ""}));
    EXPECT_EQ(hudMetricText(4.87, "um"), (std::pair<std::string, std::string>{"4.87", "\u00b5m"}));
    EXPECT_EQ(hudMetricText(250.0, "ms"), (std::pair<std::string, std::string>{"250", "ms"}));
    OverlayState s;
    s.time = 4.19e7;
    s.timeUnit = "us";
    EXPECT_EQ(hudTimeText(s), "t = 41.9 s");
    s.timeUnit = "";
    s.time = 11.3;
    EXPECT_EQ(hudTimeText(s), "t = 11.3");
    // Slow models keep their significant digits; fast ones all integer digits.
    EXPECT_EQ(hudRateText(0.3), "0.3");
    EXPECT_EQ(hudRateText(0.0123), "0.012");
    EXPECT_EQ(hudRateText(12.34), "12");
    EXPECT_EQ(hudRateText(1234.6), "1235");
    EXPECT_EQ(hudRateText(0.0), "0");
    // After a failed open: no backend, but an upload path: no leading separator.
    s.backend = "";
    s.uploadPath = "host upload";
    EXPECT_EQ(hudWhereText(s), "host upload");
    s.backend = "cpu";
    EXPECT_EQ(hudWhereText(s), "cpu, host upload");
}

TEST_F(ImGuiOverlayTest, PausedRunAndNoModel) {
    // Paused: the rate line says so (its height is unchanged: one line either way).
    host_->state.running = false;
    settle();
    const double paused = host_->overlay.lastRects().hud.height();
    EXPECT_GT(paused, 0.0);
    // No model (a failed open): one dim line, no fold header, nothing dangling.
    OverlayState none;
    none.uploadPath = "host upload";
    host_->state = none;
    settle();
    EXPECT_TRUE(host_->overlay.lastRects().hudHeader.isEmpty());
    EXPECT_LT(host_->overlay.lastRects().hud.height(), paused / 3);
}

TEST(QuickParams, FromDeclaredParameters) {
    ParamSpec real;
    real.group = "cell";
    real.name = "division_rate";
    real.type = ParamType::Real;
    real.min = 1e-3;
    real.max = 10.0;
    real.unit = "1/h";
    real.description = "Mean divisions per hour.";
    real.defaultValue = 0.5;
    const auto q = makeQuickParam(real, ParamValue(0.5));
    ASSERT_TRUE(q);
    EXPECT_EQ(q->key, "cell.division_rate");
    EXPECT_EQ(q->label, "division rate");
    EXPECT_TRUE(q->logarithmic);  // 1e-3 .. 10 spans four decades
    EXPECT_FALSE(q->integer);
    EXPECT_DOUBLE_EQ(q->value, 0.5);

    ParamSpec count = real;
    count.name = "neighbours";
    count.type = ParamType::Integer;
    count.min = 0;
    count.max = 12;
    count.mutability = Mutability::Structural;
    count.defaultValue = std::int64_t{6};
    const auto c = makeQuickParam(count, ParamValue(std::int64_t{6}));
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->integer);
    EXPECT_FALSE(c->logarithmic);  // min 0
    EXPECT_NE(c->description.find("reset"), std::string::npos);

    ParamSpec flag = real;
    flag.name = "periodic";
    flag.type = ParamType::Boolean;
    flag.defaultValue = true;
    EXPECT_FALSE(makeQuickParam(flag, ParamValue(true)));

    // Text has no slider: it stays in the dock, even when live.
    ParamSpec text = real;
    text.name = "species";
    text.type = ParamType::Text;
    text.defaultValue = std::string("A, B");
    EXPECT_FALSE(makeQuickParam(text, ParamValue(std::string("A, B"))));

    const ParamTable table({real, count, flag, text});
    EXPECT_EQ(defaultQuickKeys(table), std::vector<std::string>{"cell.division_rate"});
}

}  // namespace
}  // namespace cf::gui

int main(int argc, char** argv) {
    return cf::test::runGlWidgetTests(argc, argv);
}
