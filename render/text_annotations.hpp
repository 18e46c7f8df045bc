// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What an exported picture or movie frame shows over the scene, placed as the window shows
// it: the colour legends in the overlay's corners (a cloud's bottom right, a volume's bottom
// left; gui/imgui_overlay_panels.cpp) and the captions (an optional title and a time stamp)
// top left, where the window's HUD shows the model and its time. Everything is sized from
// the image's height (relativeTextPx), so a 640x360 preview and a 3840x2160 frame look
// alike.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "render/legend.hpp"

namespace cf::render {

// What the user chose to caption images with.
struct ImageCaptions {
    std::string title;      // one line; empty: none
    bool timestamp = true;  // "t = 41.9 s · step 3200"
};

// "t = 41.9 s · step 3200": the time through cf::formatQuantity (sim/core/quantity_format.hpp,
// rescaled to a readable unit; a unit of "" or "1" prints the bare number).
std::string formatTimestamp(double time, std::string_view timeUnit, std::uint64_t step);
// Empty when `title` can be a caption, else why not (invalid UTF-8, a control character
// such as a line break, more than 200 characters), for the option or dialog to report.
std::string titleProblem(std::string_view title);

struct CaptionLayout {
    PixelRect panel{};  // the translucent backing of both lines
    int titlePx = 0, textPx = 0;
    PixelRect title{}, timestamp{};        // text boxes (empty rectangles when absent)
    std::string titleText, timestampText;  // as drawn (the title elided with "…" to fit)
};
// The title (1.4 text sizes) over the time stamp, top left. Nothing (nullopt) when both
// are empty.
std::optional<CaptionLayout> layoutCaptions(const Font& font, std::string_view title,
                                            std::string_view timestamp, int viewportWidth,
                                            int viewportHeight);

struct ImageOverlayContent {
    const LegendSpec* cloud = nullptr;    // bottom right, as in the window
    const LegendSpec* volume = nullptr;   // bottom left, as in the window
    const LegendSpec* vectors = nullptr;  // bottom right; above the cloud's when both
    std::string title;                    // top left; empty: none
    std::string timestamp;                // under the title; empty: none
};
struct ImageOverlayLayout {
    std::optional<LegendLayout> cloud, volume, vectors;
    std::optional<CaptionLayout> captions;
    LegendStyle cloudStyle, volumeStyle, vectorStyle;
};
// Legends without content (no ticks, no entries) are left out.
ImageOverlayLayout layoutImageOverlay(const Font& font, const ImageOverlayContent& content,
                                      int viewportWidth, int viewportHeight);
// Draws the overlay laid out so into the bound framebuffer (one batch, one draw call).
void drawImageOverlay(LegendOverlay& overlay, const ImageOverlayContent& content, int viewportWidth,
                      int viewportHeight);

}  // namespace cf::render
