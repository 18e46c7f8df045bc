// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Dear ImGui overlay drawn over the 3D viewport: a HUD (rates, time, step, backend,
// the model's metrics), the colour legend, and a small "Quick" panel (the most used
// parameters as sliders, the colour-by channel). Dear ImGui 1.86 has no Qt backend, so
// this class is its platform side: an event filter on the viewport widget turns Qt input
// into ImGuiIO state and swallows the events ImGui uses (the camera does not move while
// a slider is dragged); the OpenGL side is Dear ImGui's own imgui_impl_opengl3.
//
// Lifetime (all GL calls need the widget's context current):
//   ImGuiOverlay overlay(viewport);        // installs the event filter, no GL
//   overlay.initialize();                  // in initializeGL
//   overlay.draw(fbW, fbH, dpr, state);    // at the end of paintGL
//   overlay.shutdown();                    // before the GL context goes
// The overlay holds no pointer into OverlayState: the window fills a fresh one per frame.
// libepoxy replaces the system GL headers, so it must come before Qt's OpenGL headers.
#include <epoxy/gl.h>

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointF>
#include <QRectF>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/color_range.hpp"
#include "render/legend.hpp"
#include "sim/core/model.hpp"
#include "sim/core/params.hpp"

class QWidget;
struct ImGuiContext;

namespace cf::gui {

// One slider of the Quick panel.
struct QuickParam {
    std::string key;          // "group.name": what the edit callback reports
    std::string label;        // shown next to the slider
    std::string unit;         // shown as "label [unit]"; empty or "1": none
    std::string description;  // tooltip
    double value = 0.0;
    double min = 0.0, max = 1.0;
    bool logarithmic = false;          // slider position follows log(value); needs min > 0
    bool integer = false;              // whole numbers only
    bool reportWhileDragging = false;  // false: one report when the drag or typed edit ends
};

// One colour channel's range row in the Quick panel: Auto / Locked / Typed (min, max).
struct RangeControl {
    std::string key;    // what the callback reports (Viewport::setColorRange's key)
    std::string label;  // the channel's name
    app::RangeSetting setting;
    double lo = 0.0, hi = 1.0;  // the range in use (what Locked keeps)
};

// Under a continuous legend: how its range was chosen and what lies outside it.
struct LegendNote {
    std::string mode;     // "auto 1–99 %", "typed", ... (app/color_range.hpp)
    std::string outside;  // empty: all values inside the range
};

// Everything the overlay shows; plain data the window fills every frame.
struct OverlayState {
    // HUD (top left).
    std::string title;  // model or scenario name; empty: no title line
    bool running = false;
    double framesPerSecond = 0.0;
    double stepsPerSecond = 0.0;
    double time = 0.0;
    std::string timeUnit;
    std::uint64_t step = 0;
    std::string backend;     // "cpu", "cuda", ...
    std::string uploadPath;  // "interop", "host upload"
    std::vector<Metric> metrics;
    // Colour legend (bottom right); shown when it has ticks (continuous) or entries.
    render::LegendSpec legend;
    // The volume slices' legend (bottom left), the same way.
    render::LegendSpec volumeLegend;
    LegendNote legendNote, volumeLegendNote;  // the viewport fills them
    // Colour-range rows of the Quick panel (the viewport fills them).
    std::vector<RangeControl> ranges;
    // Quick panel (top right).
    std::vector<QuickParam> quick;
    std::vector<std::string> channels;  // colour-by choices
    std::string colorBy;                // the current one
    bool showHud = true, showLegend = true, showQuick = true;
    // Presentation: a line of text across the bottom of the view (empty: none).
    std::string caption;
};

// Where the last frame put things, in logical pixels (y down); empty when not drawn.
struct OverlayRects {
    QRectF hud, legend, legendBar, quick, colorByCombo;
    QRectF volumeLegend, volumeLegendBar;
    QRectF caption;
    // The clickable header lines that fold the HUD, the legends and the Quick panel.
    QRectF hudHeader, legendHeader, volumeLegendHeader, quickHeader;
    std::map<std::string, QRectF> rangeModes;  // the mode combo of each RangeControl::key
    std::vector<QRectF> rangeModeItems;        // auto, locked, typed while a list is open
    std::vector<QRectF> colorByItems;          // while the drop-down list is open
    std::map<std::string, QRectF> sliders;     // frames (no label), by QuickParam::key
};

class ImGuiOverlay : public QObject {
    Q_OBJECT
public:
    // Installs the event filter on `target` (and turns on its mouse tracking, for hover).
    explicit ImGuiOverlay(QWidget* target);
    ~ImGuiOverlay() override;
    ImGuiOverlay(const ImGuiOverlay&) = delete;
    ImGuiOverlay& operator=(const ImGuiOverlay&) = delete;

    // With the target's GL context current. Again after shutdown(): new context, same UI
    // state (collapsed panels etc.). Again without shutdown(): the old context is taken to
    // be gone, and its objects with it.
    void initialize();
    // With the same context current; frees the overlay's GL objects.
    void shutdown();
    bool initialized() const { return glReady_; }

    // Draws over the bound framebuffer (framebuffer pixels; dpr = device pixel ratio).
    // Leaves the GL state as it found it: imgui_impl_opengl3 saves and restores program,
    // texture and sampler bindings, VAO, array buffer, blend, cull, depth, stencil,
    // scissor, primitive restart, polygon mode and viewport. Callbacks run at the end,
    // after rendering (an exception from one is shown in the Quick panel, not thrown).
    void draw(int framebufferWidth, int framebufferHeight, double dpr, const OverlayState& state);

    // Presentation mode: 1 normal, 1.5-2 for a projector. Fonts are re-rasterised at the new
    // size (crisp text, io.FontGlobalScale only undoes the device pixel ratio).
    void setScale(float scale);
    float scale() const { return scale_; }
    void setQuickPanelOpen(bool open);
    bool quickPanelOpen() const { return quickOpen_; }
    // The HUD folded to its first line (title, state, time) and the legends to their titles;
    // a click on a header line toggles them too.
    void setHudFolded(bool folded);
    bool hudFolded() const { return hudFolded_; }
    void setLegendsFolded(bool folded);
    bool legendsFolded() const { return legendFolded_[0] && legendFolded_[1]; }

    using ParameterEdited = std::function<void(const std::string& key, double value)>;
    using ColorByChosen = std::function<void(const std::string& channel)>;
    // A colour range chosen in the Quick panel (may throw: shown under the sliders).
    using ColorRangeChosen = std::function<void(const std::string& key, const app::RangeSetting&)>;
    void onColorRangeChosen(ColorRangeChosen callback) { rangeChosen_ = std::move(callback); }
    void onParameterEdited(ParameterEdited callback) { paramEdited_ = std::move(callback); }
    void onColorByChosen(ColorByChosen callback) { colorByChosen_ = std::move(callback); }

    // Whether a mouse event at `pos` (logical) would be consumed now.
    bool wantsMouseAt(QPointF pos) const;
    // Whether key events are consumed now (a field is being edited, a slider dragged).
    bool wantsKeyboard() const { return wantKeyboard_; }
    // Input that arrived but has not been shown to ImGui yet (1.86 reads input as state,
    // so a press and its release are shown in different frames).
    bool hasPendingInput() const { return !pending_.empty(); }
    const OverlayRects& lastRects() const { return rects_; }
    // The last message from a throwing callback; empty when the last edit went through.
    const std::string& lastError() const { return error_; }
    // A refusal that arrived later (the model refused an edit between steps): shown under
    // the sliders like a callback's exception; the sliders show the state's values again.
    void showRefusal(const std::string& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Input {
        enum class Kind { Position, Button, Wheel, Key, Text, Modifiers, Focus, Leave };
        Kind kind = Kind::Position;
        int group = 0;  // all entries made from one Qt event share it
        float x = 0.0f, y = 0.0f;
        int index = 0;  // mouse button or ImGuiKey
        bool down = false;
        std::string text;
        int modifiers = 0;
    };
    struct Shown {  // a value the user set that the state has not caught up with yet
        double value = 0.0;
        qint64 untilMs = 0;
    };

    void abandonBackend();
    void push(Input input) { pending_.push_back(std::move(input)); }
    bool filterMouse(QEvent* event);
    bool filterKey(QEvent* event);
    void applyPendingInput();
    void applyInput(const Input& input);
    void buildFonts(double dpr);
    void resetStyle();
    void updateCursor();
    void runCallbacks();

    void drawHud(const OverlayState& state);
    // One legend window anchored at the bottom right (pivot.x 1) or bottom left (0); `rect`
    // and `bar` receive where it went.
    void drawLegend(const render::LegendSpec& spec, const LegendNote& note, const char* id,
                    float pivotX, bool& folded, QRectF& rect, QRectF& bar, QRectF& header);
    void foldMarker(bool& folded, QRectF& header);
    void drawRanges(const OverlayState& state);
    void drawCaption(const OverlayState& state);
    void drawQuick(const OverlayState& state);
    bool drawSlider(const QuickParam& param);
    void drawColorBy(const OverlayState& state);

    QWidget* target_;
    ImGuiContext* context_ = nullptr;
    bool glReady_ = false;
    bool deviceObjectsMade_ = false;
    float scale_ = 1.0f;
    double fontDpr_ = 0.0;  // what the atlas was rasterised for
    float fontScale_ = 0.0f;
    bool styleDirty_ = true;
    bool quickOpen_ = true;
    bool hudFolded_ = false;
    bool legendFolded_[2] = {false, false};
    QElapsedTimer clock_;
    qint64 lastFrameNs_ = -1;

    std::deque<Input> pending_;
    int nextGroup_ = 1;
    unsigned capturedButtons_ = 0;     // presses ImGui took: their moves and releases too
    std::vector<QRectF> interactive_;  // windows that take the mouse, last frame
    bool wantKeyboard_ = false, wantText_ = false;
    int cursor_ = 0;
    QByteArray clipboard_;

    OverlayRects rects_;
    std::map<std::string, Shown> shown_;
    std::string editingKey_;  // slider being dragged or typed into
    double editingValue_ = 0.0;
    bool editingDirty_ = false;
    std::optional<std::string> shownColorBy_;
    qint64 shownColorByUntil_ = 0;
    std::vector<std::pair<std::string, double>> edits_;
    std::optional<std::string> chosenColorBy_;
    std::vector<std::pair<std::string, app::RangeSetting>> chosenRanges_;
    std::map<std::string, std::pair<double, double>> typedRanges_;  // fields being edited
    std::string error_;
    ParameterEdited paramEdited_;
    ColorByChosen colorByChosen_;
    ColorRangeChosen rangeChosen_;
};

// The HUD's text (sim/core/quantity_format.hpp for every value with a unit):
// A metric as number and unit: times and lengths rescaled ("41.9 s"), NaN a dash without a
// unit, whole numbers (counts) as integers ("12034"), others with four significant digits.
std::pair<std::string, std::string> hudMetricText(double value, const std::string& unit);
// Steps per second with the digits a rate needs: all its integer digits, at least two
// significant ("0.3", "12", "1235").
std::string hudRateText(double stepsPerSecond);
// "t = 41.9 s"; a dimensionless time (unit "" or "1") is the number alone.
std::string hudTimeText(const OverlayState& state);
// "cpu, host upload", or the one of them there is (no dangling separator).
std::string hudWhereText(const OverlayState& state);

// Quick-panel entries from the declared parameters: Real and Integer specs only (others
// give nullopt); logarithmic when min > 0 and max / min >= 100.
std::optional<QuickParam> makeQuickParam(const ParamSpec& spec, const ParamValue& value);
// The entries for `keys` (unknown or non-numeric keys are skipped), in that order.
std::vector<QuickParam> makeQuickParams(const ParamSet& values,
                                        const std::vector<std::string>& keys);
// The first `count` live numeric parameters: a default for the Quick panel.
std::vector<std::string> defaultQuickKeys(const ParamTable& table, std::size_t count = 6);

}  // namespace cf::gui
