// SPDX-License-Identifier: GPL-3.0-or-later
// What the overlay shows: the HUD, the colour legend and the Quick panel; and the Quick
// panel entries made from declared parameters.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "gui/imgui_overlay.hpp"
#include "sim/core/quantity_format.hpp"

namespace cf::gui {

namespace {

constexpr ImGuiWindowFlags kInfoWindow =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
    ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoMove;

const ImVec4 kDim(0.68f, 0.70f, 0.74f, 1.0f);
const ImVec4 kRunning(0.45f, 0.85f, 0.45f, 1.0f);
const ImVec4 kPaused(0.95f, 0.75f, 0.35f, 1.0f);
const ImVec4 kError(1.0f, 0.45f, 0.40f, 1.0f);

ImU32 rgba8(int r, int g, int b, int a = 255) {
    return static_cast<ImU32>(r) | (static_cast<ImU32>(g) << 8) | (static_cast<ImU32>(b) << 16) |
           (static_cast<ImU32>(a) << 24);
}

std::string withUnit(const std::string& text, const std::string& unit) {
    return unit.empty() || unit == "1" ? text : text + " [" + unit + "]";
}

QRectF windowRect() {
    const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    return {p.x, p.y, s.x, s.y};
}

void text(const std::string& s) {
    ImGui::TextUnformatted(s.c_str(), s.c_str() + s.size());
}

void dimText(const std::string& s) {
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    text(s);
    ImGui::PopStyleColor();
}

}  // namespace

// Bottom centre, wrapped to two thirds of the view, larger than the HUD: what a lecture
// audience reads from the back of the room.
void ImGuiOverlay::drawCaption(const OverlayState& state) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float margin = 16.0f * scale_;
    // Two thirds of the view, narrowed to stay clear of the colour legends in the bottom
    // corners (drawn earlier in the frame), but never below 40 % of the view.
    const float centre = display.x * 0.5f;
    float half = display.x / 3.0f;
    if (!rects_.legend.isEmpty() && rects_.legend.left() > centre)
        half = std::min(half, static_cast<float>(rects_.legend.left()) - margin - centre);
    if (!rects_.volumeLegend.isEmpty() && rects_.volumeLegend.right() < centre)
        half = std::min(half, centre - static_cast<float>(rects_.volumeLegend.right()) - margin);
    const float width = 2.0f * std::max(half, display.x * 0.2f);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y - margin), ImGuiCond_Always,
                            ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(width, display.y * 0.3f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    if (ImGui::Begin("##caption", nullptr, kInfoWindow)) {
        ImGui::SetWindowFontScale(1.4f);
        ImGui::PushTextWrapPos(width - 2.0f * ImGui::GetStyle().WindowPadding.x);
        ImGui::TextUnformatted(state.caption.c_str());
        ImGui::PopTextWrapPos();
        rects_.caption = windowRect();
    }
    ImGui::End();
}

// The fold marker (a triangle) at the cursor, the cursor left after it on the same line. A
// click anywhere on the line, across the window's width (last frame's), toggles `folded`.
void ImGuiOverlay::foldMarker(bool& folded, QRectF& header) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImVec2 wp = ImGui::GetWindowPos();
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    header = QRectF(wp.x, p.y - 0.5 * spacing, std::max(ImGui::GetWindowWidth(), 3.0f * fs),
                    fs + spacing);
    interactive_.push_back(header);
    const ImGuiIO& io = ImGui::GetIO();
    const bool hovered = header.contains(QPointF(io.MousePos.x, io.MousePos.y));
    if (hovered && ImGui::IsMouseClicked(0)) folded = !folded;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 c = hovered ? rgba8(255, 255, 255) : rgba8(175, 180, 190);
    if (folded)
        dl->AddTriangleFilled(ImVec2(p.x + fs * 0.25f, p.y + fs * 0.2f),
                              ImVec2(p.x + fs * 0.25f, p.y + fs * 0.8f),
                              ImVec2(p.x + fs * 0.75f, p.y + fs * 0.5f), c);
    else
        dl->AddTriangleFilled(ImVec2(p.x + fs * 0.2f, p.y + fs * 0.3f),
                              ImVec2(p.x + fs * 0.8f, p.y + fs * 0.3f),
                              ImVec2(p.x + fs * 0.5f, p.y + fs * 0.75f), c);
    ImGui::Dummy(ImVec2(fs * 0.9f, fs));
    ImGui::SameLine();
}

void ImGuiOverlay::drawHud(const OverlayState& state) {
    const float margin = 8.0f * scale_;
    ImGui::SetNextWindowPos(ImVec2(margin, margin), ImGuiCond_Always);
    if (!ImGui::Begin("##hud", nullptr, kInfoWindow)) {
        ImGui::End();
        return;
    }
    // The window names no model (nothing opened, or an open that failed): say so, without
    // the lines that would be empty or dangling.
    if (state.title.empty() && state.backend.empty()) {
        dimText("no model loaded");
        rects_.hud = windowRect();
        ImGui::End();
        return;
    }
    foldMarker(hudFolded_, rects_.hudHeader);
    if (!state.title.empty()) {
        text(state.title);
        ImGui::SameLine();
    }
    ImGui::TextColored(state.running ? kRunning : kPaused, "%s",
                       state.running ? "running" : "paused");
    if (hudFolded_) {  // one line: what, whether it runs, and when
        ImGui::SameLine();
        text("  " + hudTimeText(state));
        rects_.hud = windowRect();
        ImGui::End();
        return;
    }

    // A paused run has no rate: its last one would read as if it still ran.
    char line[160];
    std::snprintf(
        line, sizeof line, "%.0f fps   %s", state.framesPerSecond,
        state.running ? (hudRateText(state.stepsPerSecond) + " steps/s").c_str() : "paused");
    text(line);
    std::snprintf(line, sizeof line, "%s   step %llu", hudTimeText(state).c_str(),
                  static_cast<unsigned long long>(state.step));
    text(line);
    const std::string where = hudWhereText(state);
    if (!where.empty()) dimText(where);

    if (!state.metrics.empty()) {
        ImGui::Separator();
        // Rows down to the bottom-left legend (or the view's bottom), the last one of them
        // saying how many more there are: a HUD never covers the legend or leaves the view.
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        float bottom = display.y - margin;
        if (!rects_.volumeLegend.isEmpty())
            bottom = std::min(bottom, static_cast<float>(rects_.volumeLegend.top()) - margin);
        const float row = ImGui::GetTextLineHeightWithSpacing();
        const float room =
            bottom - ImGui::GetCursorScreenPos().y - 2.0f * ImGui::GetStyle().WindowPadding.y;
        std::size_t shown = state.metrics.size();
        if (room < row * static_cast<float>(shown))
            shown = room > 2.0f * row ? static_cast<std::size_t>((room - row) / row) : 0;
        if (ImGui::BeginTable("##metrics", 3, ImGuiTableFlags_SizingFixedFit)) {
            for (std::size_t i = 0; i < shown; ++i) {
                const Metric& m = state.metrics[i];
                const auto [v, unit] = hudMetricText(m.value, m.unit);
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                dimText(m.name);
                ImGui::TableNextColumn();
                const float w = ImGui::CalcTextSize(v.c_str()).x;
                ImGui::SetCursorPosX(ImGui::GetCursorPosX() +
                                     std::max(0.0f, ImGui::GetContentRegionAvail().x - w));
                text(v);  // right-aligned: digits line up
                ImGui::TableNextColumn();
                if (!unit.empty()) dimText(unit);
            }
            ImGui::EndTable();
        }
        if (shown < state.metrics.size())
            dimText("+ " + std::to_string(state.metrics.size() - shown) +
                    " more in the Plots dock");
    }
    rects_.hud = windowRect();
    ImGui::End();
}

void ImGuiOverlay::drawLegend(const render::LegendSpec& spec, const LegendNote& note,
                              const char* id, float pivotX, bool& folded, QRectF& rect, QRectF& bar,
                              QRectF& header) {
    const bool continuous = spec.kind == render::LegendSpec::Kind::Continuous;
    if (continuous ? spec.ticks.empty() : spec.entries.empty()) return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float margin = 8.0f * scale_;
    const float anchorX = pivotX > 0.5f ? display.x - margin : margin;
    ImGui::SetNextWindowPos(ImVec2(anchorX, display.y - margin), ImGuiCond_Always,
                            ImVec2(pivotX, 1.0f));
    if (!ImGui::Begin(id, nullptr, kInfoWindow)) {
        ImGui::End();
        return;
    }
    foldMarker(folded, header);
    text(spec.title.empty() ? std::string("legend") : spec.title);
    if (folded) {
        rect = windowRect();
        ImGui::End();
        return;
    }
    const float fs = ImGui::GetFontSize();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 white = rgba8(255, 255, 255);

    if (continuous) {
        // Colour bar: hi at the top. One gradient quad per step of a 256-entry table, so the
        // bar shows what the points are coloured with, row for row.
        const float barW = std::round(fs * 0.9f);
        const float barH = std::round(std::clamp(fs * 10.0f, fs * 4.0f, display.y * 0.4f));
        float labelW = 0.0f;
        for (const render::LegendTick& t : spec.ticks)
            labelW = std::max(labelW, ImGui::CalcTextSize(t.label.c_str()).x);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const float x0 = std::round(origin.x), x1 = x0 + barW;
        const float top = std::round(origin.y + fs * 0.5f), bottom = top + barH;
        const int n = 256;
        const std::vector<std::uint8_t> table = render::colormapTable(spec.colormap, n);
        const auto color = [&](int i) {
            return rgba8(table[3 * i], table[3 * i + 1], table[3 * i + 2]);
        };
        for (int i = 0; i + 1 < n; ++i) {
            const float y0 = bottom - barH * static_cast<float>(i) / (n - 1);
            const float y1 = bottom - barH * static_cast<float>(i + 1) / (n - 1);
            const ImU32 lo = color(i), hi = color(i + 1);
            dl->AddRectFilledMultiColor(ImVec2(x0, y1), ImVec2(x1, y0), hi, hi, lo, lo);
        }
        const double span = spec.hi - spec.lo;
        for (const render::LegendTick& t : spec.ticks) {
            const double f = span > 0.0 && std::isfinite(span) ? (t.value - spec.lo) / span : 0.5;
            const float y = std::round(bottom - barH * static_cast<float>(std::clamp(f, 0.0, 1.0)));
            dl->AddLine(ImVec2(x1, y), ImVec2(x1 + fs * 0.3f, y), white, std::max(1.0f, scale_));
            dl->AddText(ImVec2(x1 + fs * 0.55f, y - fs * 0.5f), white, t.label.c_str());
        }
        ImGui::Dummy(ImVec2(barW + fs * 0.55f + labelW, barH + fs));
        bar = QRectF(x0, top, barW, barH);
        // How the range was chosen, and what lies outside it (drawn in the end colours).
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + fs * 16.0f);
        if (!note.mode.empty()) dimText(note.mode);
        // Below and above on lines of their own ("12 of 2198 above (max 31.2 mV)").
        for (std::size_t from = 0; from < note.outside.size();) {
            const std::size_t comma = note.outside.find(", ", from);
            const std::string part =
                note.outside.substr(from, comma == std::string::npos ? comma : comma - from);
            ImGui::TextColored(kPaused, "%s", part.c_str());
            from = comma == std::string::npos ? note.outside.size() : comma + 2;
        }
        ImGui::PopTextWrapPos();
    } else {
        const std::size_t shownEntries = std::min<std::size_t>(spec.entries.size(), 24);
        for (std::size_t i = 0; i < shownEntries; ++i) {
            const render::LegendEntry& e = spec.entries[i];
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float s = std::round(fs * 0.8f), pad = std::round((fs - s) * 0.5f);
            const auto c = [](float v) {
                return static_cast<int>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
            };
            dl->AddRectFilled(ImVec2(p.x, p.y + pad), ImVec2(p.x + s, p.y + pad + s),
                              rgba8(c(e.rgb[0]), c(e.rgb[1]), c(e.rgb[2])));
            ImGui::Dummy(ImVec2(s, fs));
            ImGui::SameLine();
            text(e.name);
        }
        if (spec.entries.size() > shownEntries)
            dimText("... " + std::to_string(spec.entries.size() - shownEntries) + " more");
    }
    rect = windowRect();
    ImGui::End();
}

void ImGuiOverlay::drawQuick(const OverlayState& state) {
    if (state.quick.empty() && state.channels.empty() && state.ranges.empty()) return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float margin = 8.0f * scale_;
    ImGui::SetNextWindowPos(ImVec2(display.x - margin, margin), ImGuiCond_Always,
                            ImVec2(1.0f, 0.0f));
    // No title bar of ImGui's (it folds only from its small arrow or a double click): the
    // header line is ours, and a click anywhere on it folds or opens the panel.
    const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoTitleBar |
                                   ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoFocusOnAppearing;
    ImGui::Begin("Quick", nullptr, flags);
    bool folded = !quickOpen_;
    {
        const float fs = ImGui::GetFontSize();
        const ImVec2 p = ImGui::GetCursorScreenPos(), wp = ImGui::GetWindowPos();
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_TitleBgActive];
        ImGui::GetWindowDrawList()->AddRectFilled(
            ImVec2(wp.x, wp.y), ImVec2(wp.x + ImGui::GetWindowWidth(), p.y + fs + 2.0f),
            ImGui::ColorConvertFloat4ToU32(bg), ImGui::GetStyle().WindowRounding);
        foldMarker(folded, rects_.quickHeader);
        text(folded ? "Quick" : "Quick parameters");
    }
    quickOpen_ = !folded;
    if (quickOpen_) {
        for (const QuickParam& p : state.quick)
            drawSlider(p);
        if (!state.channels.empty()) {
            if (!state.quick.empty()) ImGui::Separator();
            drawColorBy(state);
        }
        drawRanges(state);
        if (!error_.empty()) {
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 22.0f);
            ImGui::TextColored(kError, "%s", error_.c_str());
            ImGui::PopTextWrapPos();
        }
    }
    rects_.quick = windowRect();
    interactive_.push_back(rects_.quick);
    ImGui::End();
}

// One row per continuous colour channel: the range's mode, and for a typed range its two
// ends (applied when a field is left or Enter pressed).
void ImGuiOverlay::drawRanges(const OverlayState& state) {
    if (state.ranges.empty()) return;
    ImGui::Separator();
    dimText("Colour range");
    const float fs = ImGui::GetFontSize();
    static const char* const kModes[] = {"auto", "locked", "typed"};
    for (const RangeControl& r : state.ranges) {
        ImGui::PushID(r.key.c_str());
        const int current = static_cast<int>(r.setting.mode);
        ImGui::SetNextItemWidth(fs * 5.5f);
        const bool open = ImGui::BeginCombo("##mode", kModes[current]);
        {
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            rects_.rangeModes[r.key] = QRectF(a.x, a.y, b.x - a.x, b.y - a.y);
        }
        if (!open && ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "auto: 1st to 99th percentile (a near-constant field is not "
                "stretched); locked: keep the range shown; typed: min and max");
        if (open) {
            interactive_.push_back(windowRect());
            for (int m = 0; m < 3; ++m) {
                const bool clicked = ImGui::Selectable(kModes[m], m == current);
                const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
                rects_.rangeModeItems.emplace_back(a.x, a.y, b.x - a.x, b.y - a.y);
                if (clicked && m != current) {
                    // Locked and typed start from the range in use.
                    chosenRanges_.emplace_back(
                        r.key, app::RangeSetting{static_cast<app::RangeMode>(m), r.lo, r.hi});
                    typedRanges_[r.key] = {r.lo, r.hi};
                }
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        text(r.label);
        if (r.setting.mode == app::RangeMode::Typed) {
            auto& typed = typedRanges_.try_emplace(r.key, r.setting.lo, r.setting.hi).first->second;
            ImGui::SetNextItemWidth(fs * 5.5f);
            ImGui::InputDouble("##min", &typed.first, 0.0, 0.0, "%.6g");
            bool done = ImGui::IsItemDeactivatedAfterEdit();
            ImGui::SameLine();
            text("to");
            ImGui::SameLine();
            ImGui::SetNextItemWidth(fs * 5.5f);
            ImGui::InputDouble("##max", &typed.second, 0.0, 0.0, "%.6g");
            done = ImGui::IsItemDeactivatedAfterEdit() || done;
            if (done)
                chosenRanges_.emplace_back(
                    r.key, app::RangeSetting{app::RangeMode::Typed, typed.first, typed.second});
        } else {
            typedRanges_.erase(r.key);
        }
        ImGui::PopID();
    }
}

// The slider shows the state's value, except while the user drags or types (their value)
// and for a moment after an edit, until the state has caught up with it.
bool ImGuiOverlay::drawSlider(const QuickParam& p) {
    const qint64 now = clock_.elapsed();
    double value = p.value;
    if (editingKey_ == p.key) {
        value = editingValue_;
    } else if (auto it = shown_.find(p.key); it != shown_.end()) {
        const double tol = 1e-9 * std::max(1.0, std::fabs(it->second.value));
        if (now < it->second.untilMs && std::fabs(it->second.value - p.value) > tol)
            value = it->second.value;
        else
            shown_.erase(it);
    }
    const std::string id = withUnit(p.label, p.unit) + "##" + p.key;
    // No ImGuiSliderFlags_AlwaysClamp: a value typed after Ctrl+click outside the range is
    // reported as typed and refused by the callback (the message shows under the sliders),
    // never silently clamped. Dragging stays within the range.
    ImGuiSliderFlags flags = ImGuiSliderFlags_NoRoundToFormat;
    if (p.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
    const float width = ImGui::GetFontSize() * 10.0f;
    ImGui::SetNextItemWidth(width);
    bool changed = false;
    if (p.integer) {
        ImS64 v = std::llround(value);
        const ImS64 lo = static_cast<ImS64>(std::ceil(p.min)),
                    hi = static_cast<ImS64>(std::floor(p.max));
        changed = ImGui::SliderScalar(id.c_str(), ImGuiDataType_S64, &v, &lo, &hi, nullptr, flags);
        value = static_cast<double>(v);
    } else {
        double lo = p.min, hi = p.max;
        changed =
            ImGui::SliderScalar(id.c_str(), ImGuiDataType_Double, &value, &lo, &hi, "%.4g", flags);
    }
    // The item's rectangle includes the label; the slider's frame is its first `width`.
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    rects_.sliders[p.key] = QRectF(a.x, a.y, std::min(width, b.x - a.x), b.y - a.y);
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
        if (!p.description.empty()) text(p.description);
        dimText("range " + formatQuantity(p.min, "", 4) + " to " +
                formatQuantity(p.max, p.unit, 4) + (p.logarithmic ? ", logarithmic" : ""));
        dimText("Ctrl+click to type a value");
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }

    const bool active = ImGui::IsItemActive();
    if (changed) {
        editingKey_ = p.key;
        editingValue_ = value;
        editingDirty_ = true;
        if (p.reportWhileDragging) {
            edits_.emplace_back(p.key, value);
            shown_[p.key] = {value, now + 1000};
            editingDirty_ = false;
        }
    }
    if (editingKey_ == p.key && !active) {
        if (editingDirty_) {  // the drag or the typed value is done: one report
            edits_.emplace_back(p.key, editingValue_);
            shown_[p.key] = {editingValue_, now + 1000};
        }
        editingKey_.clear();
        editingDirty_ = false;
    }
    return changed;
}

void ImGuiOverlay::drawColorBy(const OverlayState& state) {
    const qint64 now = clock_.elapsed();
    if (shownColorBy_ && (now >= shownColorByUntil_ || *shownColorBy_ == state.colorBy))
        shownColorBy_.reset();
    const std::string current = shownColorBy_ ? *shownColorBy_ : state.colorBy;
    const std::string preview = current.empty() ? state.channels.front() : current;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
    const bool open = ImGui::BeginCombo("Colour by", preview.c_str());
    {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        rects_.colorByCombo = QRectF(a.x, a.y, b.x - a.x, b.y - a.y);
    }
    if (!open) {
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("What the points' colours show");
        return;
    }
    interactive_.push_back(windowRect());  // the drop-down list is a window of its own
    for (const std::string& name : state.channels) {
        const bool selected = name == preview;
        const bool clicked = ImGui::Selectable(name.c_str(), selected);
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        rects_.colorByItems.emplace_back(a.x, a.y, b.x - a.x, b.y - a.y);
        if (clicked && !selected) {
            chosenColorBy_ = name;
            shownColorBy_ = name;
            shownColorByUntil_ = now + 1000;
        }
        if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
}

// ---- the HUD's text ------------------------------------------------------------------

std::pair<std::string, std::string> hudMetricText(double v, const std::string& unit) {
    if (!std::isfinite(v)) return {formatQuantity(v, ""), ""};
    const ScaledQuantity q = scaleQuantity(v, unit);
    const std::string shownUnit = q.unit == "1" ? std::string() : q.unit;
    if (q.value == std::floor(q.value) && std::fabs(q.value) < 1e9) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", q.value);
        return {buf, shownUnit};
    }
    return {formatQuantity(q.value, "", 4), shownUnit};
}

std::string hudRateText(double rate) {
    if (!(rate > 0.0) || !std::isfinite(rate)) return formatQuantity(rate, "", 2);
    const int digits = std::max(2, static_cast<int>(std::floor(std::log10(rate))) + 1);
    return formatQuantity(rate, "", digits);
}

std::string hudTimeText(const OverlayState& state) {
    return "t = " + formatQuantity(state.time, state.timeUnit, 3);
}

std::string hudWhereText(const OverlayState& state) {
    std::string where = state.backend;
    if (!state.uploadPath.empty()) where += (where.empty() ? "" : ", ") + state.uploadPath;
    return where;
}

// ---- parameters -> Quick panel entries ------------------------------------------------

std::optional<QuickParam> makeQuickParam(const ParamSpec& spec, const ParamValue& value) {
    QuickParam p;
    if (spec.type == ParamType::Real && std::holds_alternative<double>(value)) {
        p.value = std::get<double>(value);
    } else if (spec.type == ParamType::Integer && std::holds_alternative<std::int64_t>(value)) {
        p.value = static_cast<double>(std::get<std::int64_t>(value));
        p.integer = true;
    } else {
        return std::nullopt;
    }
    p.key = spec.key();
    p.label = spec.name;
    std::replace(p.label.begin(), p.label.end(), '_', ' ');
    p.unit = spec.unit;
    p.description = spec.description;
    if (spec.mutability == Mutability::Structural)
        p.description += (p.description.empty() ? "" : " ") + std::string("(applies at reset)");
    p.min = spec.min;
    p.max = spec.max;
    p.logarithmic = spec.min > 0.0 && spec.max / spec.min >= 100.0;
    return p;
}

std::vector<QuickParam> makeQuickParams(const ParamSet& values,
                                        const std::vector<std::string>& keys) {
    std::vector<QuickParam> out;
    for (const std::string& key : keys) {
        const ParamSpec* spec = values.table().find(key);
        if (!spec) continue;
        if (auto p = makeQuickParam(*spec, values.get(key))) out.push_back(std::move(*p));
    }
    return out;
}

std::vector<std::string> defaultQuickKeys(const ParamTable& table, std::size_t count) {
    std::vector<std::string> keys;
    for (const ParamSpec& s : table.specs()) {
        if (keys.size() >= count) break;
        if (s.mutability == Mutability::Live &&
            (s.type == ParamType::Real || s.type == ParamType::Integer) && s.max > s.min)
            keys.push_back(s.key());
    }
    return keys;
}

}  // namespace cf::gui
