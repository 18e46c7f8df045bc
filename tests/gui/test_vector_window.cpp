// SPDX-License-Identifier: GPL-3.0-or-later
// Vector views in the window (Xvfb, Mesa llvmpipe): a Runner on the vector test model
// (tests/support/vector_model.hpp) publishes through the ViewExchange into the Viewport; the
// Vectors dock lists the model's vector views, and the view, mode and stride chosen there
// are what the viewport draws. The run stays paused: changes are drawn from the held views.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QSurfaceFormat>
#include <QTest>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "gui/vector_controls.hpp"
#include "gui/viewport.hpp"
#include "render/legend.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/gl_widget_test_main.hpp"
#include "tests/support/vector_model.hpp"

namespace cf::gui {
namespace {

const ModelDescriptor& vectorModel() {
    static const ModelDescriptor d = test::vectorDescriptor();
    return d;
}

bool waitUntil(const std::function<bool()>& done, int timeoutMs = 10000) {
    for (int waited = 0; waited < timeoutMs; waited += 20) {
        if (done()) return true;
        QTest::qWait(20);
    }
    return done();
}

class VectorWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        runner = std::make_unique<Runner>(vectorModel(), Backend::Cpu,
                                          ParamSet(test::vectorTable()), 1u);
        exchange = std::make_shared<ViewExchange>();
        runner->setViewExchange(exchange);
        window = std::make_unique<QWidget>();
        auto* layout = new QHBoxLayout(window.get());
        viewport = new Viewport(window.get());
        controls = new VectorControls(window.get());
        layout->addWidget(viewport, 1);
        layout->addWidget(controls);
        bindVectorControls(*controls, *viewport);
        viewport->setExchange(exchange);
        window->resize(980, 540);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        ASSERT_TRUE(waitUntil([&] { return !viewport->vectorViews().empty(); }))
            << "no vector view reached the viewport";
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
    // renderImage() at 640 x 480, and the pixel showing plane point (x, y, 0) in it.
    QImage image() { return viewport->renderImage(kW, kH).convertToFormat(QImage::Format_RGB888); }
    QColor at(const QImage& im, float x, float y) const {
        const render::OrbitCamera& camera = viewport->camera();
        const glm::vec4 c =
            camera.projection(static_cast<float>(kW) / kH) * camera.view() * glm::vec4(x, y, 0, 1);
        const int col = static_cast<int>(std::floor((c.x / c.w * 0.5f + 0.5f) * kW));
        const int row = kH - 1 - static_cast<int>(std::floor((c.y / c.w * 0.5f + 0.5f) * kH));
        return im.pixelColor(col, row);
    }
    static bool background(const QColor& c) {
        return std::abs(c.red() - 31) <= 1 && std::abs(c.green() - 31) <= 1 &&
               std::abs(c.blue() - 36) <= 1;
    }
    void shot(const char* file) {
        if (const char* dir = std::getenv("CELLFORGE_VECTOR_SHOTS"))
            window->grab().save(QString(dir) + "/" + file);
    }

    static constexpr int kW = 640, kH = 480;
    std::unique_ptr<Runner> runner;
    std::shared_ptr<ViewExchange> exchange;
    std::unique_ptr<QWidget> window;
    Viewport* viewport = nullptr;
    VectorControls* controls = nullptr;
};

TEST_F(VectorWindowTest, DockListsTheViewsAndDrawsArrowsByDefault) {
    EXPECT_TRUE(controls->isEnabled());
    auto* view = widget<QComboBox>("vectorView");
    ASSERT_EQ(view->count(), 3);
    EXPECT_EQ(view->itemText(0), "flow");
    EXPECT_EQ(view->itemText(2), "column");
    EXPECT_EQ(view->currentText(), "flow");
    EXPECT_EQ(widget<QComboBox>("vectorMode")->currentText(), "Arrows");
    EXPECT_EQ(widget<QSpinBox>("vectorStride")->text(), "auto");
    EXPECT_EQ(viewport->vectorLegend().title, render::legendTitle("|flow|", "um/s"));
    EXPECT_EQ(viewport->uploadPath(), "host upload");  // no cloud: the vectors' path
    // The automatic stride is 1 here (16 nodes): an arrow on every row, e.g. row j = 2.
    const QImage im = image();
    EXPECT_FALSE(background(at(im, -8.0f + 4 + 0.9f, -6.0f + 2 + 0.5f)));
    shot("window_arrows.png");
}

TEST_F(VectorWindowTest, ModeAndStrideChosenInTheDockAreDrawn) {
    widget<QSpinBox>("vectorStride")->setValue(4);
    EXPECT_EQ(viewport->vectorSettings().stride, 4);
    QTest::qWait(100);  // a paint uploads the held views with the new settings
    QImage im = image();
    // Every 4th row: row 4's arrow is drawn, row 2 is empty.
    EXPECT_FALSE(background(at(im, -8.0f + 4 + 0.9f, -6.0f + 4 + 0.5f)));
    EXPECT_TRUE(background(at(im, -8.0f + 4 + 0.9f, -6.0f + 2 + 0.5f)));

    widget<QComboBox>("vectorMode")->setCurrentText("LIC");
    EXPECT_TRUE(viewport->vectorSettings().lic);
    EXPECT_FALSE(viewport->vectorSettings().arrows);
    EXPECT_FALSE(widget<QSpinBox>("vectorStride")->isEnabled());  // no arrows, no stride
    QTest::qWait(100);
    im = image();
    // The LIC covers the plane, blue where |v| = 0.5 (left), red where |v| = 1.5 (right).
    const QColor left = at(im, -7.0f, -3.5f), right = at(im, 7.0f, -3.5f);
    EXPECT_FALSE(background(at(im, -8.0f + 4 + 0.9f, -6.0f + 2 + 0.5f)));
    EXPECT_GT(left.blue(), left.red());
    EXPECT_GT(right.red(), right.blue());
    shot("window_lic.png");

    widget<QComboBox>("vectorMode")->setCurrentText("Off");
    QTest::qWait(100);
    im = image();
    EXPECT_TRUE(background(at(im, -7.0f, -3.5f)));
    EXPECT_TRUE(viewport->vectorLegend().title.empty());
}

}  // namespace
}  // namespace cf::gui

int main(int argc, char** argv) {
    return cf::test::runGlWidgetTests(argc, argv);
}
