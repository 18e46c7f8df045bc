// SPDX-License-Identifier: GPL-3.0-or-later
// The overlay's platform side (Qt events -> ImGuiIO), its life cycle and its frame. The
// windows' content is in imgui_overlay_panels.cpp.
#include "gui/imgui_overlay.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <QClipboard>
#include <QCursor>
#include <QFocusEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMetaObject>
#include <QMouseEvent>
#include <QStandardPaths>
#include <QWheelEvent>
#include <QWidget>
#include <algorithm>
#include <cfloat>
#include <cmath>

namespace cf::gui {

namespace {

constexpr float kFontPixels = 15.0f;  // logical pixels at scale 1

// Keeps the caller's ImGui context (another overlay's, say) around our calls.
class ContextScope {
public:
    explicit ContextScope(ImGuiContext* context) : previous_(ImGui::GetCurrentContext()) {
        ImGui::SetCurrentContext(context);
    }
    ~ContextScope() { ImGui::SetCurrentContext(previous_); }
    ContextScope(const ContextScope&) = delete;
    ContextScope& operator=(const ContextScope&) = delete;

private:
    ImGuiContext* previous_;
};

// 1.86 reads keys through io.KeysDown[io.KeyMap[ImGuiKey_X]]; we use the ImGuiKey values
// themselves as the indices, so KeyMap is the identity.
int imguiKey(int qtKey) {
    switch (qtKey) {
        case Qt::Key_Tab:
            return ImGuiKey_Tab;
        case Qt::Key_Left:
            return ImGuiKey_LeftArrow;
        case Qt::Key_Right:
            return ImGuiKey_RightArrow;
        case Qt::Key_Up:
            return ImGuiKey_UpArrow;
        case Qt::Key_Down:
            return ImGuiKey_DownArrow;
        case Qt::Key_PageUp:
            return ImGuiKey_PageUp;
        case Qt::Key_PageDown:
            return ImGuiKey_PageDown;
        case Qt::Key_Home:
            return ImGuiKey_Home;
        case Qt::Key_End:
            return ImGuiKey_End;
        case Qt::Key_Insert:
            return ImGuiKey_Insert;
        case Qt::Key_Delete:
            return ImGuiKey_Delete;
        case Qt::Key_Backspace:
            return ImGuiKey_Backspace;
        case Qt::Key_Space:
            return ImGuiKey_Space;
        case Qt::Key_Return:
            return ImGuiKey_Enter;
        case Qt::Key_Escape:
            return ImGuiKey_Escape;
        case Qt::Key_Enter:
            return ImGuiKey_KeyPadEnter;
        case Qt::Key_A:
            return ImGuiKey_A;
        case Qt::Key_C:
            return ImGuiKey_C;
        case Qt::Key_V:
            return ImGuiKey_V;
        case Qt::Key_X:
            return ImGuiKey_X;
        case Qt::Key_Y:
            return ImGuiKey_Y;
        case Qt::Key_Z:
            return ImGuiKey_Z;
        default:
            return -1;
    }
}

int mouseButtonIndex(Qt::MouseButton b) {
    switch (b) {
        case Qt::LeftButton:
            return 0;
        case Qt::RightButton:
            return 1;
        case Qt::MiddleButton:
            return 2;
        case Qt::BackButton:
            return 3;
        case Qt::ForwardButton:
            return 4;
        default:
            return -1;
    }
}

Qt::CursorShape qtCursor(int imguiCursor) {
    switch (imguiCursor) {
        case ImGuiMouseCursor_TextInput:
            return Qt::IBeamCursor;
        case ImGuiMouseCursor_ResizeAll:
            return Qt::SizeAllCursor;
        case ImGuiMouseCursor_ResizeNS:
            return Qt::SizeVerCursor;
        case ImGuiMouseCursor_ResizeEW:
            return Qt::SizeHorCursor;
        case ImGuiMouseCursor_ResizeNESW:
            return Qt::SizeBDiagCursor;
        case ImGuiMouseCursor_ResizeNWSE:
            return Qt::SizeFDiagCursor;
        case ImGuiMouseCursor_Hand:
            return Qt::PointingHandCursor;
        case ImGuiMouseCursor_NotAllowed:
            return Qt::ForbiddenCursor;
        default:
            return Qt::ArrowCursor;
    }
}

const char* clipboardText(void* userData) {
    auto* storage = static_cast<QByteArray*>(userData);
    *storage = QGuiApplication::clipboard()->text().toUtf8();
    return storage->constData();
}

void setClipboardText(void*, const char* text) {
    QGuiApplication::clipboard()->setText(QString::fromUtf8(text));
}

}  // namespace

ImGuiOverlay::ImGuiOverlay(QWidget* target) : QObject(target), target_(target) {
    IMGUI_CHECKVERSION();
    ImGuiContext* previous = ImGui::GetCurrentContext();
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the panels are anchored; nothing worth a file
    io.LogFilename = nullptr;
    io.BackendPlatformName = "cellforge_qt";
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
    for (int k = 0; k < ImGuiKey_COUNT; ++k)
        io.KeyMap[k] = k;
    io.GetClipboardTextFn = clipboardText;
    io.SetClipboardTextFn = setClipboardText;
    io.ClipboardUserData = &clipboard_;
    ImGui::SetCurrentContext(previous);
    target_->setMouseTracking(true);  // hover highlights need moves without a button
    target_->installEventFilter(this);
    clock_.start();
}

ImGuiOverlay::~ImGuiOverlay() {
    if (!context_) return;
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(context_);
    // No GL context may be current here, so GL objects cannot be deleted (the caller
    // skipped shutdown()): they die with their context.
    if (glReady_) abandonBackend();
    ImGui::DestroyContext(context_);
    ImGui::SetCurrentContext(previous == context_ ? nullptr : previous);
    context_ = nullptr;
}

// Forgets the renderer backend without GL calls (its GL objects are gone or unreachable).
// Its small bookkeeping struct leaks: its type is private to imgui_impl_opengl3.cpp.
void ImGuiOverlay::abandonBackend() {
    ImGuiIO& io = ImGui::GetIO();
    io.BackendRendererUserData = nullptr;
    io.BackendRendererName = nullptr;
    io.BackendFlags &= ~ImGuiBackendFlags_RendererHasVtxOffset;
    io.Fonts->SetTexID(0);
    glReady_ = false;
}

void ImGuiOverlay::initialize() {
    ContextScope scope(context_);
    // Called again without shutdown(): Qt made a new context and the old one went without
    // notice, taking the backend's objects with it.
    if (glReady_) abandonBackend();
    // "#version 450 core" selects the backend's GLSL 4.10 shaders, which Mesa and NVIDIA
    // both accept in a 4.5 core context.
    glReady_ = ImGui_ImplOpenGL3_Init("#version 450 core");
    deviceObjectsMade_ = false;
    fontDpr_ = 0.0;  // rebuilt at the first draw, for the dpr it gives
    lastFrameNs_ = -1;
}

void ImGuiOverlay::shutdown() {
    if (!glReady_) return;
    ContextScope scope(context_);
    ImGui_ImplOpenGL3_Shutdown();
    glReady_ = false;
    deviceObjectsMade_ = false;
}

void ImGuiOverlay::setScale(float scale) {
    scale_ = std::clamp(scale, 0.5f, 4.0f);
    if (target_) target_->update();
}

void ImGuiOverlay::setQuickPanelOpen(bool open) {
    quickOpen_ = open;
    if (target_) target_->update();
}

void ImGuiOverlay::setHudFolded(bool folded) {
    hudFolded_ = folded;
    if (target_) target_->update();
}

void ImGuiOverlay::setLegendsFolded(bool folded) {
    legendFolded_[0] = legendFolded_[1] = folded;
    if (target_) target_->update();
}

// Fonts are rasterised at the framebuffer's resolution (size x scale x dpr) and shown at
// 1/dpr, so that text stays crisp on high-density screens and in presentation mode.
void ImGuiOverlay::buildFonts(double dpr) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const float pixels = kFontPixels * scale_ * static_cast<float>(dpr);
    static const ImWchar ranges[] = {
        0x0020, 0x00FF,  // Basic Latin + Latin-1 (µ, °, ², ·)
        0x0370, 0x03FF,  // Greek (units and symbols)
        0x2010, 0x2044,  // dashes, quotes, bullet, ellipsis, fraction slash
        0x2070, 0x209F,  // superscripts and subscripts (s⁻¹)
        0x2190, 0x2193,  // arrows
        0x2212, 0x2212,  // minus sign
        0,
    };
    ImFont* font = nullptr;
    const QString path = QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                                                "fonts/truetype/dejavu/DejaVuSans.ttf");
    if (!path.isEmpty()) {
        ImFontConfig config;
        config.OversampleH = 2;
        config.PixelSnapH = true;
        font = io.Fonts->AddFontFromFileTTF(path.toUtf8().constData(), pixels, &config, ranges);
    }
    if (!font) {  // ImGui's built-in bitmap font, scaled: blurrier but always there
        ImFontConfig config;
        config.SizePixels = std::round(13.0f * scale_ * static_cast<float>(dpr));
        io.Fonts->AddFontDefault(&config);
    }
    io.FontGlobalScale = static_cast<float>(1.0 / dpr);
    fontDpr_ = dpr;
    fontScale_ = scale_;
    if (deviceObjectsMade_) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
}

void ImGuiOverlay::resetStyle() {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 4.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.WindowPadding = ImVec2(8.0f, 6.0f);
    style.ItemSpacing = ImVec2(6.0f, 3.0f);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.55f);
    style.Colors[ImGuiCol_TitleBg] = ImVec4(0.10f, 0.12f, 0.16f, 0.85f);
    style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.14f, 0.20f, 0.30f, 0.90f);
    style.Colors[ImGuiCol_TitleBgCollapsed] = ImVec4(0.10f, 0.12f, 0.16f, 0.70f);
    style.ScaleAllSizes(scale_);
    styleDirty_ = false;
}

void ImGuiOverlay::draw(int framebufferWidth, int framebufferHeight, double dpr,
                        const OverlayState& state) {
    if (!glReady_ || framebufferWidth <= 0 || framebufferHeight <= 0) return;
    if (!(dpr > 0.0) || !std::isfinite(dpr)) dpr = 1.0;
    {
        ContextScope scope(context_);
        ImGuiIO& io = ImGui::GetIO();
        if (fontDpr_ != dpr || fontScale_ != scale_) {
            buildFonts(dpr);
            styleDirty_ = true;
        }
        if (styleDirty_) resetStyle();
        io.DisplaySize = ImVec2(static_cast<float>(framebufferWidth / dpr),
                                static_cast<float>(framebufferHeight / dpr));
        io.DisplayFramebufferScale = ImVec2(static_cast<float>(dpr), static_cast<float>(dpr));
        const qint64 now = clock_.nsecsElapsed();
        io.DeltaTime = lastFrameNs_ < 0
                           ? 1.0f / 60.0f
                           : std::max(1e-5f, static_cast<float>(now - lastFrameNs_) * 1e-9f);
        lastFrameNs_ = now;
        applyPendingInput();

        ImGui_ImplOpenGL3_NewFrame();
        deviceObjectsMade_ = true;
        ImGui::NewFrame();
        rects_ = OverlayRects{};
        interactive_.clear();
        // The legends first: the HUD above the bottom-left one shows only the metric rows
        // that fit over it (a short view, a model with many metrics).
        if (state.showLegend) {
            drawLegend(state.legend, state.legendNote, "##legend", 1.0f, legendFolded_[0],
                       rects_.legend, rects_.legendBar, rects_.legendHeader);
            drawLegend(state.volumeLegend, state.volumeLegendNote, "##volumeLegend", 0.0f,
                       legendFolded_[1], rects_.volumeLegend, rects_.volumeLegendBar,
                       rects_.volumeLegendHeader);
        }
        if (state.showHud) drawHud(state);
        if (state.showQuick) drawQuick(state);
        if (!state.caption.empty()) drawCaption(state);
        ImGui::Render();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        wantKeyboard_ = io.WantCaptureKeyboard;
        wantText_ = io.WantTextInput;
        updateCursor();
    }
    // 1.86 sees one button or key change per frame: ask for frames until all are shown.
    if (!pending_.empty()) QMetaObject::invokeMethod(target_, "update", Qt::QueuedConnection);
    runCallbacks();
}

void ImGuiOverlay::runCallbacks() {
    auto edits = std::move(edits_);
    edits_.clear();
    auto chosen = std::move(chosenColorBy_);
    chosenColorBy_.reset();
    auto ranges = std::move(chosenRanges_);
    chosenRanges_.clear();
    try {
        for (const auto& [key, value] : edits) {
            if (paramEdited_) paramEdited_(key, value);
            error_.clear();
        }
        if (chosen && colorByChosen_) colorByChosen_(*chosen);
        for (const auto& [key, range] : ranges) {
            if (rangeChosen_) rangeChosen_(key, range);
            error_.clear();
        }
    } catch (const std::exception& e) {
        error_ = e.what();
        shown_.clear();  // the refused value is not the value: show the state's again
    }
}

void ImGuiOverlay::showRefusal(const std::string& message) {
    error_ = message;
    shown_.clear();
    QMetaObject::invokeMethod(target_, "update", Qt::QueuedConnection);
}

void ImGuiOverlay::updateCursor() {
    const ImGuiIO& io = ImGui::GetIO();
    const int cursor = io.WantCaptureMouse ? ImGui::GetMouseCursor() : -1;
    if (cursor == cursor_) return;
    cursor_ = cursor;
    if (cursor < 0 || cursor == ImGuiMouseCursor_Arrow)
        target_->unsetCursor();
    else
        target_->setCursor(qtCursor(cursor));
}

// ---- input ---------------------------------------------------------------------------

bool ImGuiOverlay::wantsMouseAt(QPointF pos) const {
    if (capturedButtons_ != 0) return true;
    return std::any_of(interactive_.begin(), interactive_.end(),
                       [&](const QRectF& r) { return r.contains(pos); });
}

bool ImGuiOverlay::eventFilter(QObject* watched, QEvent* event) {
    if (watched != target_ || !context_) return false;
    switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonDblClick:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseMove:
        case QEvent::Wheel:
        case QEvent::Leave:
            return filterMouse(event);
        case QEvent::KeyPress:
        case QEvent::KeyRelease:
        case QEvent::ShortcutOverride:
            return filterKey(event);
        case QEvent::FocusIn:
        case QEvent::FocusOut: {
            Input in;
            in.kind = Input::Kind::Focus;
            in.group = nextGroup_++;
            in.down = event->type() == QEvent::FocusIn;
            push(in);
            if (!in.down) capturedButtons_ = 0;
            target_->update();
            return false;
        }
        default:
            return false;
    }
}

bool ImGuiOverlay::filterMouse(QEvent* event) {
    const int group = nextGroup_++;
    target_->update();
    if (event->type() == QEvent::Leave) {
        Input in;
        in.kind = Input::Kind::Leave;
        in.group = group;
        push(in);
        return false;
    }
    auto* pointer = static_cast<QSinglePointEvent*>(event);
    const QPointF pos = pointer->position();
    Input mods;
    mods.kind = Input::Kind::Modifiers;
    mods.group = group;
    mods.modifiers = static_cast<int>(pointer->modifiers());
    push(mods);
    Input move;
    move.kind = Input::Kind::Position;
    move.group = group;
    move.x = static_cast<float>(pos.x());
    move.y = static_cast<float>(pos.y());
    push(move);

    if (event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        Input in;
        in.kind = Input::Kind::Wheel;
        in.group = group;
        in.x = static_cast<float>(wheel->angleDelta().x()) / 120.0f;  // one notch = 1
        in.y = static_cast<float>(wheel->angleDelta().y()) / 120.0f;
        push(in);
        return wantsMouseAt(pos);
    }
    if (event->type() == QEvent::MouseMove) {
        // Hovering over a panel is ours; a drag that began in the scene stays the camera's.
        const bool dragging = static_cast<QMouseEvent*>(event)->buttons() != Qt::NoButton;
        return capturedButtons_ != 0 || (!dragging && wantsMouseAt(pos));
    }
    auto* mouse = static_cast<QMouseEvent*>(event);
    const int button = mouseButtonIndex(mouse->button());
    if (button < 0) return wantsMouseAt(pos);
    Input in;
    in.kind = Input::Kind::Button;
    in.group = group;
    in.index = button;
    in.down = event->type() != QEvent::MouseButtonRelease;
    push(in);
    const unsigned bit = 1u << button;
    if (in.down) {
        const bool consume = wantsMouseAt(pos);
        if (consume) capturedButtons_ |= bit;
        return consume;
    }
    const bool consume = (capturedButtons_ & bit) != 0;
    capturedButtons_ &= ~bit;
    return consume;
}

bool ImGuiOverlay::filterKey(QEvent* event) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (event->type() == QEvent::ShortcutOverride) {
        // While a field is being typed into, its keys (space, digits, Delete) must not fire
        // the window's shortcuts: accepting the override sends them here as key presses.
        if (!wantText_) return false;
        event->accept();
        return true;
    }
    const bool press = event->type() == QEvent::KeyPress;
    const int group = nextGroup_++;
    Input mods;
    mods.kind = Input::Kind::Modifiers;
    mods.group = group;
    int m = static_cast<int>(key->modifiers());
    // X11 reports the state before the event: a Ctrl press carries no Ctrl yet.
    const auto toggle = [&](Qt::KeyboardModifier mod) {
        m = press ? (m | static_cast<int>(mod)) : (m & ~static_cast<int>(mod));
    };
    if (key->key() == Qt::Key_Control) toggle(Qt::ControlModifier);
    if (key->key() == Qt::Key_Shift) toggle(Qt::ShiftModifier);
    if (key->key() == Qt::Key_Alt) toggle(Qt::AltModifier);
    if (key->key() == Qt::Key_Meta) toggle(Qt::MetaModifier);
    mods.modifiers = m;
    push(mods);
    const int k = imguiKey(key->key());
    if (k >= 0 && !key->isAutoRepeat()) {  // ImGui repeats held keys itself
        Input in;
        in.kind = Input::Kind::Key;
        in.group = group;
        in.index = k;
        in.down = press;
        push(in);
    }
    if (press && !key->text().isEmpty()) {
        // Control characters (Return, Backspace, Ctrl+letter) travel as keys, not text.
        QString printable;
        for (QChar c : key->text())
            if (c.unicode() >= 0x20 && c.unicode() != 0x7f) printable += c;
        if (!printable.isEmpty()) {
            Input in;
            in.kind = Input::Kind::Text;
            in.group = group;
            in.text = printable.toStdString();
            push(in);
        }
    }
    target_->update();
    return wantKeyboard_;
}

// Dear ImGui 1.86 samples input as state at NewFrame: a press and release shown in the same
// frame would be lost, and a click shown together with the following moves would land where
// the mouse went, not where it was pressed. So a frame takes queued input up to the first
// button or key change (with the rest of that Qt event); later input waits for the next.
void ImGuiOverlay::applyPendingInput() {
    int changeGroup = -1;
    while (!pending_.empty()) {
        const Input& in = pending_.front();
        if (changeGroup >= 0 && in.group != changeGroup) break;
        applyInput(in);
        if (in.kind == Input::Kind::Button || in.kind == Input::Kind::Key) changeGroup = in.group;
        pending_.pop_front();
    }
}

void ImGuiOverlay::applyInput(const Input& in) {
    ImGuiIO& io = ImGui::GetIO();
    switch (in.kind) {
        case Input::Kind::Position:
            io.MousePos = ImVec2(in.x, in.y);
            break;
        case Input::Kind::Leave:
            io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            break;
        case Input::Kind::Button:
            io.MouseDown[in.index] = in.down;
            break;
        case Input::Kind::Wheel:
            io.MouseWheelH += in.x;
            io.MouseWheel += in.y;
            break;
        case Input::Kind::Key:
            io.KeysDown[in.index] = in.down;
            break;
        case Input::Kind::Text:
            io.AddInputCharactersUTF8(in.text.c_str());
            break;
        case Input::Kind::Modifiers:
            io.KeyCtrl = (in.modifiers & Qt::ControlModifier) != 0;
            io.KeyShift = (in.modifiers & Qt::ShiftModifier) != 0;
            io.KeyAlt = (in.modifiers & Qt::AltModifier) != 0;
            io.KeySuper = (in.modifiers & Qt::MetaModifier) != 0;
            break;
        case Input::Kind::Focus:
            io.AddFocusEvent(in.down);
            if (!in.down) std::fill(std::begin(io.MouseDown), std::end(io.MouseDown), false);
            break;
    }
}

}  // namespace cf::gui
