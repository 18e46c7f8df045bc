// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The 3D viewport: a QOpenGLWidget that draws the newest views the simulation thread
// published (sim/run/view_exchange.hpp) with the renderer. It never waits for the
// simulation: without new views it draws the buffers it already has. Device views reach
// the GL buffers and the volume texture through CUDA-GL interop, host views by upload
// (app/cloud_upload.hpp, app/volume_upload.hpp, app/vector_upload.hpp). A model's first point
// cloud is drawn as spheres, one volume (the first unless chosen) as axis-aligned slices,
// one vector view (the first unless chosen) as arrows and/or a LIC.
// Mouse: left drag orbits, right or middle drag pans, the wheel zooms, double click fits.
// Keys (with the viewport focused): H hides or shows the overlay.
// Fitting: the scene (every structure drawn: the cloud's spheres, the volume's box, the
// vector field, the domain box and the model's planes) is fitted, in both width and height,
// into the part of the view the overlay's panels leave free (freeRect()). A new scenario is
// fitted at its first views, and the fit is kept (again when the window or the panels
// change size, or the scene grows out of the free area) until the camera is moved by hand.
// libepoxy replaces the system GL headers, so it must come before Qt's OpenGL headers.
#include <epoxy/gl.h>

#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/color_range.hpp"
#include "app/vector_upload.hpp"
#include "app/volume_settings.hpp"
#include "gui/imgui_overlay.hpp"
#include "render/camera.hpp"
#include "render/text_annotations.hpp"
#include "sim/run/view_exchange.hpp"

namespace cf::render {
struct LegendSpec;  // render/legend.hpp includes libepoxy, which must precede Qt's GL
}

namespace cf::gui {

class Viewport : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit Viewport(QWidget* parent = nullptr);
    ~Viewport() override;

    // Where views come from; nullptr shows an empty scene.
    void setExchange(std::shared_ptr<ViewExchange> exchange);
    // Channel to colour by (a category or scalar name; empty: the view's first). Shown at
    // the next paint, also while the run is paused.
    void setColorBy(const std::string& channel);
    const std::string& colorBy() const { return colorBy_; }

    // The volume: which of the model's volumes is drawn (a name; empty or one the views
    // lack: the first; forgotten when a new set of volumes arrives, after a reset or a
    // scenario change), which channel the slices show (a name; empty: the first category,
    // else the first scalar; a name the volume lacks falls back to that) and where the
    // slices are. All take effect at the next paint, also while the run is paused.
    void setVolumeView(const std::string& name);
    const std::string& volumeView() const { return volumeView_; }
    void setVolumeChannel(const std::string& channel);
    const std::string& volumeChannel() const { return volumeChannel_; }
    void setSlices(const app::SliceSettings& slices);
    const app::SliceSettings& slices() const { return slices_; }
    // What the shown volume offers and the model's volumes; name empty when the views
    // have none.
    const app::VolumeInfo& volumeInfo() const { return volumeInfo_; }
    const render::LegendSpec& volumeLegend() const;
    std::string volumeUploadPath() const;  // "interop", "host upload" or "none"
    // The vector view drawn and how (arrows, stride, LIC; a name the views lack falls back
    // to the first). Takes effect at the next paint, also while the run is paused.
    void setVectorSettings(const app::VectorSettings& settings);
    const app::VectorSettings& vectorSettings() const { return vectorSettings_; }
    // The names of the vector views the model offers (vectorViewsChanged() when they change).
    const std::vector<std::string>& vectorViews() const { return vectorViews_; }
    const render::LegendSpec& vectorLegend() const;
    // Fits the scene into freeRect() less a margin of kFitMarginPx, and keeps it fitted
    // until the camera is moved (mouse, or camera() used to set it).
    void fitToScene();
    static constexpr double kFitMarginPx = 8.0;
    // Logical pixels, y down: the projected bounds (the corners of every drawn structure's
    // box) of the scene drawn in the last frame; empty when nothing was drawn.
    QRectF sceneRectOnScreen() const { return sceneRect_; }
    // The viewport less the overlay's panels drawn in the last frame: the largest rectangle
    // clear of them for the scene's shape (the whole widget while the overlay is hidden).
    QRectF freeRect() const { return freeRect_; }
    // Non-const access takes the camera out of the automatic fit (a recorded camera path, a
    // test's view).
    render::OrbitCamera& camera() {
        autoFit_ = false;
        return camera_;
    }
    const render::OrbitCamera& camera() const { return camera_; }

    // The overlay (HUD, legends, Quick panel, caption): shown or hidden (H, a menu action,
    // presentation mode). Hidden, nothing of it is drawn and freeRect() is the whole widget.
    void setOverlayVisible(bool visible);
    bool overlayVisible() const { return overlayVisible_; }

    // Colour ranges per colour channel, keyed "points:NAME", "volume:VOLUME/NAME" or
    // "vectors:NAME" (the Quick panel sets them; app/color_range.hpp has the rule).
    void setColorRange(const std::string& key, const app::RangeSetting& setting);
    app::RangeSetting colorRange(const std::string& key) const;

    // Draws the current scene at any size into an image (screenshots, movie frames), with
    // the legends where the overlay shows them and these captions top left (a title and the
    // shown views' time stamp), all sized relative to the image.
    QImage renderImage(int width, int height);
    void setImageCaptions(render::ImageCaptions captions) { captions_ = std::move(captions); }
    const render::ImageCaptions& imageCaptions() const { return captions_; }
    // Called after each frame that showed new views, with that frame drawn at the given
    // size (recording). Empty function: off.
    using FrameSink = std::function<void(const QImage& frame, std::uint64_t step)>;
    void setFrameSink(FrameSink sink, int width, int height);

    double framesPerSecond() const { return fps_; }
    std::uint64_t shownStep() const { return shownStep_; }
    std::string uploadPath() const;  // "interop", "host upload" or "none" (no GL yet)
    const render::LegendSpec& legend() const;
    // Channel names of the shown cloud: categories first, then scalars.
    QStringList channels() const { return channels_; }
    // The ImGui overlay (HUD, legend, Quick panel); its callbacks are the window's to set.
    ImGuiOverlay& overlay() { return *overlay_; }
    // What the overlay shows; the viewport fills fps, upload path, legend and channels.
    void setOverlayState(OverlayState state) { overlayState_ = std::move(state); }
    const OverlayState& overlayState() const { return overlayState_; }

signals:
    void viewsShown(quint64 step);
    // The volume's name, size, box, channels or shown channel, or the model's list of
    // volumes, changed (volumeInfo()).
    void volumeChanged();
    void vectorViewsChanged();
    void renderError(const QString& message);
    void overlayVisibilityChanged(bool visible);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    struct Scene;  // renderer objects, tied to this widget's GL context
    void releaseScene();
    void drawScene(int width, int height, bool legend = true);
    bool takeViews();
    void uploadHeld();
    std::vector<render::WorldBox> sceneBounds() const;
    QRectF computeFreeRect(double sceneAspect) const;
    bool fitNow();
    void maybeFit();
    void afterFrame();
    void fillOverlayState();

    std::shared_ptr<ViewExchange> exchange_;
    // The newest views, held until newer ones arrive so that a change of channel can be
    // shown from them while the run is paused (the exchange keeps a held slot untouched).
    std::optional<ViewExchange::Lease> lease_;
    bool reupload_ = false;
    std::unique_ptr<Scene> scene_;
    render::OrbitCamera camera_;
    bool framed_ = false;
    std::string colorBy_;
    QStringList channels_;
    std::string volumeView_;
    std::string volumeChannel_;
    app::SliceSettings slices_{};
    app::VolumeInfo volumeInfo_;
    app::VectorSettings vectorSettings_;
    std::vector<std::string> vectorViews_;
    std::uint64_t shownStep_ = 0;
    QPoint lastMouse_;
    QElapsedTimer fpsClock_;
    int framesSinceClock_ = 0;
    double fps_ = 0.0;
    FrameSink sink_;
    int sinkWidth_ = 0, sinkHeight_ = 0;
    ImGuiOverlay* overlay_ = nullptr;  // child object: filters this widget's input
    OverlayState overlayState_;
    bool overlayVisible_ = true;
    // The automatic fit: on for a new scene and after fitToScene(), off once the camera is
    // moved by hand; refitted when the widget or the free area changes or the scene leaves it.
    bool autoFit_ = true;
    int fitFrames_ = 0;  // frames to fit at before anything else is compared
    QSize fittedSize_;
    QRectF fittedFree_;
    double fittedAspect_ = 0.0;  // the scene's shape (width / height) the last fit used
    QRectF sceneRect_, freeRect_;
    std::map<std::string, app::RangeSetting> ranges_;
    render::ImageCaptions captions_;
};

}  // namespace cf::gui
