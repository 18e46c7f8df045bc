// SPDX-License-Identifier: GPL-3.0-or-later
// libepoxy before any Qt OpenGL header (it replaces the system GL headers).
#include "gui/viewport.hpp"

#include <epoxy/gl.h>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "app/cloud_upload.hpp"
#include "app/volume_upload.hpp"
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
    app::CloudUploader uploader;
    bool hasCloud = false;
    // Made for the volume view drawn; the uploader (its interop registration) goes first.
    std::unique_ptr<render::VolumeGrid> volume;
    app::VolumeUploader volumeUploader;
    std::unique_ptr<app::VectorLayer> vectors;  // made for the first vector view shown
    glm::vec3 focusLo{0.0f}, focusHi{1.0f};
    // What is drawn, as world boxes (for fitting): the guides (domain box, planes) as
    // framed, and the cloud, volume and vectors as last uploaded (lo > hi: none).
    std::vector<render::WorldBox> guideBoxes;
    render::WorldBox cloudBox{glm::vec3(1.0f), glm::vec3(0.0f)};
    render::WorldBox volumeBox{glm::vec3(1.0f), glm::vec3(0.0f)};
    render::WorldBox vectorBox{glm::vec3(1.0f), glm::vec3(0.0f)};
    std::string cloudRangeKey, volumeRangeKey, vectorRangeKey;  // empty: not scalar
    ~Scene() { volumeUploader.release(); }
};

namespace {
glm::vec3 toVec(const double v[3]) {
    return {static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])};
}

const render::WorldBox kNoBox{glm::vec3(1.0f), glm::vec3(0.0f)};

// The domain box and the planes, as frameScene draws them (render/guides.cpp's corners).
std::vector<render::WorldBox> guideBoxes(const ModelViews& views) {
    std::vector<render::WorldBox> boxes;
    glm::vec3 hi = toVec(views.boxHi);
    hi.z = static_cast<float>(views.focusHi[2]);
    boxes.push_back({toVec(views.boxLo), hi});
    for (const PlaneView& p : views.planes) {
        const glm::vec3 n = glm::normalize(toVec(p.normal)), c = toVec(p.point);
        const glm::vec3 helper = std::abs(n.z) < 0.9f ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
        const glm::vec3 u =
            glm::normalize(glm::cross(helper, n)) * (0.5f * static_cast<float>(p.extent[0]));
        const glm::vec3 w =
            glm::normalize(glm::cross(n, u)) * (0.5f * static_cast<float>(p.extent[1]));
        const glm::vec3 half = glm::abs(u) + glm::abs(w);
        boxes.push_back({c - half, c + half});
    }
    return boxes;
}

// The name of the cloud channel drawn: `color`, or the first category, else the first scalar.
std::string cloudChannel(const PointCloudView& cloud, const std::string& color) {
    if (!color.empty()) return color;
    if (!cloud.categories.empty()) return cloud.categories.front().name;
    return cloud.scalars.empty() ? std::string() : cloud.scalars.front().name;
}

bool isScalar(const PointCloudView& cloud, const std::string& name) {
    return std::any_of(cloud.scalars.begin(), cloud.scalars.end(),
                       [&](const ScalarChannel& c) { return c.name == name; }) &&
           std::none_of(cloud.categories.begin(), cloud.categories.end(),
                        [&](const CategoryChannel& c) { return c.name == name; });
}

QRectF toQt(const render::ScreenRect& r) {
    return r.empty() ? QRectF() : QRectF(QPointF(r.x0, r.y0), QPointF(r.x1, r.y1));
}

render::ScreenRect fromQt(const QRectF& r) {
    return {static_cast<float>(r.left()), static_cast<float>(r.top()),
            static_cast<float>(r.right()), static_cast<float>(r.bottom())};
}
}  // namespace

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent) {
    setMinimumSize(320, 240);
    setFocusPolicy(Qt::StrongFocus);
    overlay_ = new ImGuiOverlay(this);
    // The Quick panel's colour-range rows land here; a refused range is shown there.
    overlay_->onColorRangeChosen(
        [this](const std::string& key, const app::RangeSetting& r) { setColorRange(key, r); });
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

void Viewport::setOverlayVisible(bool visible) {
    if (visible == overlayVisible_) return;
    overlayVisible_ = visible;
    emit overlayVisibilityChanged(visible);
    update();
}

void Viewport::setColorRange(const std::string& key, const app::RangeSetting& setting) {
    if (setting.mode != app::RangeMode::Automatic)
        app::resolveRangeFromExtremes(setting, 0.0, 0.0);  // checks
    if (ranges_[key] == setting) return;
    ranges_[key] = setting;
    reupload_ = true;
    update();
}

app::RangeSetting Viewport::colorRange(const std::string& key) const {
    const auto it = ranges_.find(key);
    return it == ranges_.end() ? app::RangeSetting{} : it->second;
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

void Viewport::setVectorSettings(const app::VectorSettings& settings) {
    if (!(settings == vectorSettings_)) reupload_ = true;
    vectorSettings_ = settings;
}

const render::LegendSpec& Viewport::vectorLegend() const {
    static const render::LegendSpec none;
    return scene_ && scene_->vectors ? scene_->vectors->uploader.legend() : none;
}

void Viewport::setSlices(const app::SliceSettings& slices) {
    slices_ = slices;
}

const render::LegendSpec& Viewport::volumeLegend() const {
    static const render::LegendSpec none;
    return scene_ && scene_->volume ? scene_->volumeUploader.legend() : none;
}

std::string Viewport::volumeUploadPath() const {
    return scene_ && scene_->volume ? scene_->volumeUploader.path() : "none";
}

std::vector<render::WorldBox> Viewport::sceneBounds() const {
    std::vector<render::WorldBox> boxes;
    if (!scene_ || !lease_) return boxes;
    boxes = scene_->guideBoxes;
    for (const render::WorldBox& b : {scene_->cloudBox, scene_->volumeBox, scene_->vectorBox})
        if (b.lo.x <= b.hi.x) boxes.push_back(b);
    return boxes;
}

// The overlay's panels of the last frame, each with a gap round it, cut out of the widget.
QRectF Viewport::computeFreeRect(double sceneAspect) const {
    const render::ScreenRect whole{0.0f, 0.0f, static_cast<float>(width()),
                                   static_cast<float>(height())};
    if (!overlayVisible_) return toQt(whole);
    const OverlayRects& r = overlay_->lastRects();
    std::vector<render::ScreenRect> panels;
    const float gap = 4.0f;
    for (const QRectF& q : {r.hud, r.legend, r.volumeLegend, r.quick, r.caption})
        if (!q.isEmpty()) {
            render::ScreenRect p = fromQt(q);
            panels.push_back({p.x0 - gap, p.y0 - gap, p.x1 + gap, p.y1 + gap});
        }
    return toQt(render::largestFreeRect(whole, panels, static_cast<float>(sceneAspect)));
}

// Fits the camera into the free area for the scene's shape now; false when there is nothing
// to fit yet.
bool Viewport::fitNow() {
    const std::vector<render::WorldBox> boxes = sceneBounds();
    if (boxes.empty() || width() <= 0 || height() <= 0) return false;
    // The shape to place: the scene as the fitted camera sees it (yaw and pitch stay).
    render::OrbitCamera probe = camera_;
    probe.fitOnScreen(boxes, width(), height(),
                      {0.0f, 0.0f, static_cast<float>(width()), static_cast<float>(height())});
    const render::ScreenRect shape = render::projectBoxes(probe, boxes, width(), height());
    const double aspect = shape.empty() ? 0.0 : shape.width() / shape.height();
    const QRectF free = computeFreeRect(aspect);
    const QRectF area = free.adjusted(kFitMarginPx, kFitMarginPx, -kFitMarginPx, -kFitMarginPx);
    if (area.isEmpty()) return false;
    camera_.fitOnScreen(boxes, width(), height(), fromQt(area));
    fittedSize_ = size();
    fittedFree_ = free;
    fittedAspect_ = aspect;
    return true;
}

void Viewport::fitToScene() {
    autoFit_ = true;
    fitFrames_ = 0;
    fitNow();
    update();
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
        const std::string shown = cloudChannel(cloud, colorBy_);
        s.cloudRangeKey = isScalar(cloud, shown) ? "points:" + shown : std::string();
        s.uploader.upload(cloud, s.cloud, colorBy_, colorRange(s.cloudRangeKey));
        s.cloudBox = s.uploader.extent();  // unknown for device data: the domain box stands in
        for (const auto& c : cloud.categories)
            channels_ << QString::fromStdString(c.name);
        for (const auto& c : cloud.scalars)
            channels_ << QString::fromStdString(c.name);
    }
    if (!s.hasCloud) s.cloudBox = kNoBox;
    s.volumeBox = s.vectorBox = kNoBox;
    s.volumeRangeKey.clear();
    s.vectorRangeKey.clear();
    app::VolumeInfo info;
    if (!views.volumes.empty()) {
        // Another set of volumes (a reset, another scenario): the choice falls back to the
        // first, as a name the views lack does.
        const std::vector<std::string> volumes = app::volumeViewNames(views);
        if (volumes != volumeInfo_.volumes) volumeView_.clear();
        const bool chosen = std::find(volumes.begin(), volumes.end(), volumeView_) != volumes.end();
        const VolumeView& v = app::findVolumeView(views, chosen ? volumeView_ : std::string(), "");
        if (!s.volume) s.volume = std::make_unique<render::VolumeGrid>();
        // A channel chosen for another model (or none): the volume's default.
        const std::vector<std::string> names = app::volumeChannels(v);
        const bool known = std::find(names.begin(), names.end(), volumeChannel_) != names.end();
        // The channel the uploader will show (its default: the first category, else the
        // first scalar) names the range setting.
        std::string shown = known ? volumeChannel_ : std::string();
        if (shown.empty() && v.categories.empty() && !v.scalars.empty())
            shown = v.scalars.front().name;
        const bool scalar =
            std::any_of(v.scalars.begin(), v.scalars.end(),
                        [&](const VolumeScalarChannel& c) { return c.name == shown; });
        if (scalar) s.volumeRangeKey = "volume:" + v.name + "/" + shown;
        s.volumeUploader.upload(v, *s.volume, known ? volumeChannel_ : std::string(),
                                colorRange(s.volumeRangeKey));
        s.volumeBox = {toVec(v.lo), toVec(v.hi)};
        info = app::describeVolume(views, v, s.volumeUploader.channel());
    } else if (s.volume) {
        s.volumeUploader.release();
        s.volume.reset();
    }
    std::vector<std::string> vectorNames = app::vectorViewNames(views);
    const app::VectorSettings& vs = vectorSettings_;
    if (!views.vectors.empty() && (vs.arrows || vs.lic)) {
        const bool known =
            std::find(vectorNames.begin(), vectorNames.end(), vs.view) != vectorNames.end();
        const VectorFieldView& v = app::findVectorView(views, known ? vs.view : std::string(), "");
        app::VectorSettings shown = vs;
        shown.view = v.name;
        // A LIC only where the view is a plane; the arrows still show.
        shown.lic = vs.lic && v.dims[2] == 1 && v.dims[0] >= 2 && v.dims[1] >= 2;
        if (!s.vectors) s.vectors = std::make_unique<app::VectorLayer>();
        s.vectors->settings = shown;
        s.vectorRangeKey = "vectors:" + v.name;
        s.vectors->uploader.upload(v, s.vectors->field, shown, colorRange(s.vectorRangeKey));
        s.vectorBox = {toVec(v.lo), toVec(v.hi)};
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
        app::frameScene(views, s.guides, &camera_);
        s.guideBoxes = guideBoxes(views);
        framed_ = true;
        // A new scene: fitted into the free area at its first frames (the overlay's panels
        // take a frame or two to size themselves) and kept so until the camera is moved.
        autoFit_ = true;
        fitFrames_ = 3;
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
        app::applySlices(slices_, *scene_->volume);
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

namespace {

bool nearlyEqual(const QRectF& a, const QRectF& b) {
    const double tol = 1.0;  // px: panels re-measured to the same size do not refit
    return std::abs(a.left() - b.left()) <= tol && std::abs(a.top() - b.top()) <= tol &&
           std::abs(a.right() - b.right()) <= tol && std::abs(a.bottom() - b.bottom()) <= tol;
}

RangeControl rangeControl(const std::string& key, const std::string& label,
                          const app::RangeSetting& setting, const app::ColorRange& used) {
    RangeControl c;
    c.key = key;
    c.label = label;
    c.setting = setting;
    c.lo = used.lo;
    c.hi = used.hi;
    return c;
}

// The unit of a legend titled "label [unit]" (render/legend.hpp's legendTitle).
std::string unitOf(const render::LegendSpec& legend) {
    const std::size_t a = legend.title.rfind('['), b = legend.title.rfind(']');
    return a != std::string::npos && b != std::string::npos && b > a
               ? legend.title.substr(a + 1, b - a - 1)
               : std::string();
}

LegendNote legendNote(const app::ColorRange& used, const std::string& unit) {
    return {app::rangeModeText(used), app::outsideNote(used, unit)};
}

}  // namespace

// Before drawing: the automatic fit, at a new scene's first frames, then again when the
// widget or the free area changed or the scene left the free area.
void Viewport::maybeFit() {
    if (!autoFit_ || !scene_ || !lease_) return;
    if (fitFrames_ > 0) {
        if (fitNow()) --fitFrames_;
        return;
    }
    // Compared for the shape the fit used: two nearly equal candidates for another shape
    // must not make the camera jump between them.
    if (size() != fittedSize_ || !nearlyEqual(computeFreeRect(fittedAspect_), fittedFree_) ||
        (!sceneRect_.isEmpty() && !freeRect_.contains(sceneRect_)))
        fitNow();
}

// After drawing: what the tests and the next fit compare against.
void Viewport::afterFrame() {
    const render::ScreenRect r = render::projectBoxes(camera_, sceneBounds(), width(), height());
    sceneRect_ = toQt(r);
    // While fitted, the free area is the one found for the fitted shape.
    const double aspect = autoFit_ && fittedAspect_ > 0.0 ? fittedAspect_
                          : r.empty()                     ? 0.0
                                                          : r.width() / r.height();
    freeRect_ = computeFreeRect(aspect);
}

void Viewport::fillOverlayState() {
    OverlayState& o = overlayState_;
    o.framesPerSecond = fps_;
    o.uploadPath = lease_ ? uploadPath() : std::string();  // nothing shown: no path to name
    o.legend = legend();
    o.volumeLegend = volumeLegend();
    o.colorBy = colorBy_;
    o.channels.clear();
    for (const QString& c : channels_)
        o.channels.push_back(c.toStdString());
    o.ranges.clear();
    o.legendNote = {};
    o.volumeLegendNote = {};
    if (!scene_ || !lease_) return;
    const Scene& s = *scene_;
    if (s.hasCloud && !s.cloudRangeKey.empty()) {
        const app::ColorRange& used = s.uploader.range();
        o.ranges.push_back(rangeControl(s.cloudRangeKey, s.cloudRangeKey.substr(7),
                                        colorRange(s.cloudRangeKey), used));
        o.legendNote = legendNote(used, unitOf(s.uploader.legend()));
    } else if (!s.hasCloud && s.vectors && !s.vectorRangeKey.empty()) {
        const app::ColorRange& used = s.vectors->uploader.colorRange();
        o.ranges.push_back(rangeControl(s.vectorRangeKey, "|" + s.vectorRangeKey.substr(8) + "|",
                                        colorRange(s.vectorRangeKey), used));
        o.legendNote = legendNote(used, unitOf(s.vectors->uploader.legend()));
    }
    if (s.volume && !s.volumeRangeKey.empty()) {
        const app::ColorRange& used = s.volumeUploader.range();
        o.ranges.push_back(rangeControl(s.volumeRangeKey, s.volumeRangeKey.substr(7),
                                        colorRange(s.volumeRangeKey), used));
        o.volumeLegendNote = legendNote(used, unitOf(s.volumeUploader.legend()));
    }
}

void Viewport::paintGL() {
    try {
        const bool fresh = takeViews();
        const qreal dpr = devicePixelRatioF();
        const int w = static_cast<int>(std::lround(width() * dpr));
        const int h = static_cast<int>(std::lround(height() * dpr));
        maybeFit();
        drawScene(w, h, /*legend=*/false);  // on screen the overlay draws the legend
        fillOverlayState();
        if (overlayVisible_) {
            overlay_->draw(w, h, dpr, overlayState_);
        } else {  // drawn empty, so that nothing hidden takes the mouse
            OverlayState none;
            none.showHud = none.showLegend = none.showQuick = false;
            overlay_->draw(w, h, dpr, none);
        }
        afterFrame();
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

void Viewport::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_H && e->modifiers() == Qt::NoModifier) {
        setOverlayVisible(!overlayVisible_);
        return;
    }
    QOpenGLWidget::keyPressEvent(e);
}

void Viewport::mouseMoveEvent(QMouseEvent* e) {
    const QPoint p = e->position().toPoint();
    const QPoint d = p - lastMouse_;
    lastMouse_ = p;
    if (e->buttons() & (Qt::LeftButton | Qt::RightButton | Qt::MiddleButton))
        autoFit_ = false;  // moved by hand: the fit is the user's now
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
    autoFit_ = false;
    camera_.zoom(std::pow(1.001f, static_cast<float>(e->angleDelta().y())));  // up: closer
    update();
}

void Viewport::mouseDoubleClickEvent(QMouseEvent*) {
    fitToScene();
    update();
}

}  // namespace cf::gui
