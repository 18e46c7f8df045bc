// SPDX-License-Identifier: GPL-3.0-or-later
// libepoxy before any Qt OpenGL header (it replaces the system GL headers).
#include "gui/viewport.hpp"

#include <epoxy/gl.h>

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gui/view_upload.hpp"
#include "gui/volume_upload.hpp"
#include "render/guides.hpp"
#include "render/legend.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "render/render_error.hpp"
#include "render/text_annotations.hpp"
#include "render/volume_grid.hpp"

namespace cf::gui {

struct Viewport::Scene {
    render::PointCloud cloud;
    render::Guides guides;
    render::LegendOverlay legend;
    CloudUploader uploader;
    bool hasCloud = false;
    // Made for the volume view drawn; the uploader (its interop registration) goes first.
    std::unique_ptr<render::VolumeGrid> volume;
    VolumeUploader volumeUploader;
    std::unique_ptr<VectorLayer> vectors;  // made for the first vector view shown
    glm::vec3 focusLo{0.0f}, focusHi{1.0f};
    ~Scene() { volumeUploader.release(); }
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
    lease_.reset();
    if (scene_ || overlay_->initialized()) {
        makeCurrent();
        releaseScene();
        overlay_->shutdown();
        doneCurrent();
    }
}

void Viewport::setExchange(std::shared_ptr<ViewExchange> exchange) {
    lease_.reset();  // a lease lives no longer than its exchange
    exchange_ = std::move(exchange);
    framed_ = false;
}

void Viewport::setColorBy(const std::string& channel) {
    if (channel != colorBy_) reupload_ = true;
    colorBy_ = channel;
}

void Viewport::setVolumeView(const std::string& name) {
    if (name != volumeView_) reupload_ = true;
    volumeView_ = name;
}

void Viewport::setVolumeChannel(const std::string& channel) {
    if (channel != volumeChannel_) reupload_ = true;
    volumeChannel_ = channel;
}

void Viewport::setVectorSettings(const VectorSettings& settings) {
    if (!(settings == vectorSettings_)) reupload_ = true;
    vectorSettings_ = settings;
}

const render::LegendSpec& Viewport::vectorLegend() const {
    static const render::LegendSpec none;
    return scene_ && scene_->vectors ? scene_->vectors->uploader.legend() : none;
}

void Viewport::setSlices(const SliceSettings& slices) {
    slices_ = slices;
}

const render::LegendSpec& Viewport::volumeLegend() const {
    static const render::LegendSpec none;
    return scene_ && scene_->volume ? scene_->volumeUploader.legend() : none;
}

std::string Viewport::volumeUploadPath() const {
    return scene_ && scene_->volume ? scene_->volumeUploader.path() : "none";
}

void Viewport::fitToScene() {
    if (scene_) camera_.fit(scene_->focusLo, scene_->focusHi);
}

std::string Viewport::uploadPath() const {
    if (scene_ && !scene_->hasCloud && scene_->volume) return scene_->volumeUploader.path();
    if (scene_ && !scene_->hasCloud && scene_->vectors) return scene_->vectors->uploader.path();
    return scene_ ? scene_->uploader.path() : "none";
}

const render::LegendSpec& Viewport::legend() const {
    static const render::LegendSpec none;
    // A model without a point cloud (a tissue) shows no cloud legend, not the last one's;
    // the vectors' |v| takes its place then.
    if (scene_ && !scene_->hasCloud && scene_->vectors) return vectorLegend();
    return scene_ && scene_->hasCloud ? scene_->uploader.legend() : none;
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
    // The held views were uploaded into the scene's buffers: a new scene needs them again.
    reupload_ = lease_.has_value();
}

// Uploads the held views into the scene: the first cloud, the chosen volume and vectors.
void Viewport::uploadHeld() {
    const ModelViews& views = lease_->views();
    Scene& s = *scene_;
    s.hasCloud = !views.clouds.empty();
    channels_.clear();
    if (s.hasCloud) {
        const PointCloudView& cloud = views.clouds.front();
        s.uploader.upload(cloud, s.cloud, colorBy_);
        for (const auto& c : cloud.categories)
            channels_ << QString::fromStdString(c.name);
        for (const auto& c : cloud.scalars)
            channels_ << QString::fromStdString(c.name);
    }
    VolumeInfo info;
    if (!views.volumes.empty()) {
        // Another set of volumes (a reset, another scenario): the choice falls back to the
        // first, as a name the views lack does.
        const std::vector<std::string> volumes = volumeViewNames(views);
        if (volumes != volumeInfo_.volumes) volumeView_.clear();
        const bool chosen = std::find(volumes.begin(), volumes.end(), volumeView_) != volumes.end();
        const VolumeView& v = findVolumeView(views, chosen ? volumeView_ : std::string(), "");
        if (!s.volume) s.volume = std::make_unique<render::VolumeGrid>();
        // A channel chosen for another model (or none): the volume's default.
        const std::vector<std::string> names = volumeChannels(v);
        const bool known = std::find(names.begin(), names.end(), volumeChannel_) != names.end();
        s.volumeUploader.upload(v, *s.volume, known ? volumeChannel_ : std::string());
        info = describeVolume(views, v, s.volumeUploader.channel());
    } else if (s.volume) {
        s.volumeUploader.release();
        s.volume.reset();
    }
    std::vector<std::string> vectorNames = vectorViewNames(views);
    const VectorSettings& vs = vectorSettings_;
    if (!views.vectors.empty() && (vs.arrows || vs.lic)) {
        const bool known =
            std::find(vectorNames.begin(), vectorNames.end(), vs.view) != vectorNames.end();
        const VectorFieldView& v = findVectorView(views, known ? vs.view : std::string(), "");
        VectorSettings shown = vs;
        shown.view = v.name;
        // A LIC only where the view is a plane; the arrows still show.
        shown.lic = vs.lic && v.dims[2] == 1 && v.dims[0] >= 2 && v.dims[1] >= 2;
        if (!s.vectors) s.vectors = std::make_unique<VectorLayer>();
        s.vectors->settings = shown;
        s.vectors->uploader.upload(v, s.vectors->field, shown);
    } else {
        s.vectors.reset();
    }
    if (vectorNames != vectorViews_) {
        vectorViews_ = std::move(vectorNames);
        emit vectorViewsChanged();
    }
    if (info != volumeInfo_) {
        volumeInfo_ = std::move(info);
        emit volumeChanged();
    }
    if (!framed_) {
        s.focusLo = toVec(views.focusLo);
        s.focusHi = toVec(views.focusHi);
        frameScene(views, s.guides, &camera_);
        framed_ = true;
    }
}

bool Viewport::takeViews() {
    if (!exchange_ || !scene_) return false;
    auto lease = exchange_->takeNewest();
    if (!lease) {
        if (reupload_ && lease_) {  // a new channel or a new scene, shown from the held views
            reupload_ = false;
            uploadHeld();
        }
        return false;
    }
    lease_.reset();  // gives its slot back before the newer one is held
    lease_.emplace(std::move(*lease));
    reupload_ = false;
    uploadHeld();
    shownStep_ = lease_->step();
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
    if (scene_->hasCloud) scene_->cloud.draw(view, proj);
    if (scene_->volume) {
        applySlices(slices_, *scene_->volume);
        scene_->volume->drawSlices(view, proj);  // opaque, before the translucent planes
    }
    if (scene_->vectors) scene_->vectors->field.draw(view, proj);  // opaque as well
    scene_->guides.drawPlanes(proj * view);
    if (!legend) return;
    // As the window shows them (cloud legend bottom right, volume bottom left; the vectors'
    // where the cloud's would be, or above it), captions top left where the HUD is.
    render::ImageOverlayContent overlay;
    if (scene_->hasCloud) overlay.cloud = &scene_->uploader.legend();
    if (scene_->volume) overlay.volume = &scene_->volumeUploader.legend();
    if (scene_->vectors) overlay.vectors = &scene_->vectors->uploader.legend();
    overlay.title = captions_.title;
    if (captions_.timestamp && lease_)  // the time of the views drawn, not of the newest frame
        overlay.timestamp =
            render::formatTimestamp(lease_->time(), overlayState_.timeUnit, lease_->step());
    render::drawImageOverlay(scene_->legend, overlay, width, height);
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
        overlayState_.volumeLegend = volumeLegend();
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
