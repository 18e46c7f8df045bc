// SPDX-License-Identifier: GPL-3.0-or-later
// libepoxy before any Qt OpenGL header (it replaces the system GL headers).
#include "gui/viewport.hpp"

#include <epoxy/gl.h>

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QTimer>
#include <QWheelEvent>
#include <cmath>

#include "gui/view_upload.hpp"
#include "render/guides.hpp"
#include "render/legend.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "render/render_error.hpp"

namespace cf::gui {

struct Viewport::Scene {
    render::PointCloud cloud;
    render::Guides guides;
    render::LegendOverlay legend;
    CloudUploader uploader;
    glm::vec3 focusLo{0.0f}, focusHi{1.0f};
};

namespace {
glm::vec3 toVec(const double v[3]) {
    return {static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])};
}
}  // namespace

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent) {
    setMinimumSize(320, 240);
    setFocusPolicy(Qt::StrongFocus);
    overlay_ = new ImGuiOverlay(this);
    auto* timer = new QTimer(this);  // redraws at the display's rate; vsync paces it
    connect(timer, &QTimer::timeout, this, qOverload<>(&QWidget::update));
    timer->start(16);
    fpsClock_.start();
}

Viewport::~Viewport() {
    if (scene_ || overlay_->initialized()) {
        makeCurrent();
        releaseScene();
        overlay_->shutdown();
        doneCurrent();
    }
}

void Viewport::setExchange(std::shared_ptr<ViewExchange> exchange) {
    exchange_ = std::move(exchange);
    framed_ = false;
}

void Viewport::setColorBy(const std::string& channel) {
    colorBy_ = channel;
}

void Viewport::fitToScene() {
    if (scene_) camera_.fit(scene_->focusLo, scene_->focusHi);
}

std::string Viewport::uploadPath() const {
    return scene_ ? scene_->uploader.path() : "none";
}

const render::LegendSpec& Viewport::legend() const {
    static const render::LegendSpec none;
    return scene_ ? scene_->uploader.legend() : none;
}

void Viewport::setFrameSink(FrameSink sink, int width, int height) {
    sink_ = std::move(sink);
    sinkWidth_ = width;
    sinkHeight_ = height;
}

void Viewport::initializeGL() {
    // The renderer's objects belong to this context: drop them when Qt destroys it (a
    // window moved to another screen, a lost context) and make them again afterwards.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        releaseScene();
        overlay_->shutdown();
        doneCurrent();
    });
    try {
        scene_ = std::make_unique<Scene>();
        framed_ = false;
    } catch (const render::RenderError& e) {
        emit renderError(QString::fromStdString(e.what()));
    }
    overlay_->initialize();
}

void Viewport::releaseScene() {
    scene_.reset();
}

bool Viewport::takeViews() {
    if (!exchange_ || !scene_) return false;
    auto lease = exchange_->takeNewest();
    if (!lease) return false;
    const ModelViews& views = lease->views();
    if (views.clouds.empty()) return false;
    const PointCloudView& cloud = views.clouds.front();
    scene_->uploader.upload(cloud, scene_->cloud, colorBy_);
    channels_.clear();
    for (const auto& c : cloud.categories)
        channels_ << QString::fromStdString(c.name);
    for (const auto& c : cloud.scalars)
        channels_ << QString::fromStdString(c.name);
    if (!framed_) {
        scene_->focusLo = toVec(views.focusLo);
        scene_->focusHi = toVec(views.focusHi);
        frameScene(views, scene_->guides, &camera_);
        framed_ = true;
    }
    shownStep_ = lease->step();
    return true;
}

void Viewport::drawScene(int width, int height, bool legend) {
    glViewport(0, 0, width, height);
    glClearColor(0.12f, 0.12f, 0.14f, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (!scene_) return;
    const glm::mat4 proj =
        camera_.projection(static_cast<float>(width) / static_cast<float>(std::max(height, 1)));
    const glm::mat4 view = camera_.view();
    scene_->guides.drawLines(proj * view);
    scene_->cloud.draw(view, proj);
    scene_->guides.drawPlanes(proj * view);
    if (legend && !scene_->uploader.legend().title.empty())
        scene_->legend.draw(scene_->uploader.legend(), width, height);
}

void Viewport::paintGL() {
    try {
        const bool fresh = takeViews();
        const qreal dpr = devicePixelRatioF();
        const int w = static_cast<int>(std::lround(width() * dpr));
        const int h = static_cast<int>(std::lround(height() * dpr));
        drawScene(w, h, /*legend=*/false);  // on screen the overlay draws the legend
        overlayState_.framesPerSecond = fps_;
        overlayState_.uploadPath = uploadPath();
        overlayState_.legend = legend();
        overlayState_.colorBy = colorBy_;
        overlayState_.channels.clear();
        for (const QString& c : channels_)
            overlayState_.channels.push_back(c.toStdString());
        overlay_->draw(w, h, dpr, overlayState_);
        if (fresh && sink_) {
            render::OffscreenTarget target(sinkWidth_, sinkHeight_);
            target.bind();
            drawScene(sinkWidth_, sinkHeight_);
            const std::vector<std::uint8_t> pixels = target.readPixels();
            glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
            sink_(QImage(pixels.data(), sinkWidth_, sinkHeight_, QImage::Format_RGBA8888).copy(),
                  shownStep_);
        }
        if (fresh) emit viewsShown(shownStep_);
    } catch (const std::exception& e) {
        emit renderError(QString::fromStdString(e.what()));
    }
    ++framesSinceClock_;
    if (fpsClock_.elapsed() >= 500) {
        fps_ = 1000.0 * framesSinceClock_ / static_cast<double>(fpsClock_.restart());
        framesSinceClock_ = 0;
    }
}

void Viewport::resizeGL(int, int) {}

QImage Viewport::renderImage(int width, int height) {
    makeCurrent();
    QImage image;
    try {
        render::OffscreenTarget target(width, height);
        target.bind();
        drawScene(width, height);
        const std::vector<std::uint8_t> pixels = target.readPixels();
        image = QImage(pixels.data(), width, height, QImage::Format_RGBA8888).copy();
    } catch (const std::exception& e) {
        emit renderError(QString::fromStdString(e.what()));
    }
    glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
    doneCurrent();
    return image;
}

void Viewport::mousePressEvent(QMouseEvent* e) {
    lastMouse_ = e->position().toPoint();
}

void Viewport::mouseMoveEvent(QMouseEvent* e) {
    const QPoint p = e->position().toPoint();
    const QPoint d = p - lastMouse_;
    lastMouse_ = p;
    if (e->buttons() & Qt::LeftButton) {
        camera_.yawDegrees -= 0.4f * static_cast<float>(d.x());
        camera_.pitchDegrees =
            std::clamp(camera_.pitchDegrees + 0.4f * static_cast<float>(d.y()), -89.0f, 89.0f);
    } else if (e->buttons() & (Qt::RightButton | Qt::MiddleButton)) {
        camera_.pan(static_cast<float>(d.x()), static_cast<float>(d.y()), height());
    }
    update();
}

void Viewport::wheelEvent(QWheelEvent* e) {
    camera_.zoom(std::pow(1.001f, static_cast<float>(e->angleDelta().y())));  // up: closer
    update();
}

void Viewport::mouseDoubleClickEvent(QMouseEvent*) {
    fitToScene();
    update();
}

}  // namespace cf::gui
