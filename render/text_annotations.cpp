// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/text_annotations.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/core/quantity_format.hpp"

namespace cf::render {

std::string formatTimestamp(double time, std::string_view timeUnit, std::uint64_t step) {
    return "t = " + formatQuantity(time, timeUnit) + " \u00B7 step " + std::to_string(step);
}

std::string titleProblem(std::string_view title) {
    const std::u32string points = decodeUtf8(title);
    if (points.size() > 200)
        return "is " + std::to_string(points.size()) + " characters long; at most 200 fit a line";
    for (char32_t c : points) {
        if (c == U'\uFFFD' && title.find("\xEF\xBF\xBD") == std::string_view::npos)
            return "is not valid UTF-8";
        if (c < 0x20 || c == 0x7F) {
            char code[8];
            std::snprintf(code, sizeof code, "%04X", static_cast<unsigned>(c));
            return std::string("holds a control character (U+") + code + "); a title is one line";
        }
    }
    return {};
}

namespace {
int scaled(double factor, int textPx) {
    return std::max(1, static_cast<int>(std::lround(factor * textPx)));
}
}  // namespace

std::optional<CaptionLayout> layoutCaptions(const Font& font, std::string_view title,
                                            std::string_view timestamp, int viewportWidth,
                                            int viewportHeight) {
    if (title.empty() && timestamp.empty()) return std::nullopt;
    CaptionLayout c;
    c.textPx = relativeTextPx(viewportHeight);
    c.titlePx = static_cast<int>(std::lround(1.4 * c.textPx));
    const int pad = scaled(0.5, c.textPx), m = scaled(0.6, c.textPx);
    const int maxContent = std::max(1, viewportWidth - 2 * m - 2 * pad);
    int width = 0, y = m + pad;
    if (!title.empty()) {
        c.titleText = font.elide(title, c.titlePx, maxContent);
        c.title = {m + pad, y, font.textWidth(c.titleText, c.titlePx),
                   font.metrics(c.titlePx).height()};
        width = c.title.width;
        y = c.title.bottom();
    }
    if (!timestamp.empty()) {
        c.timestampText = font.elide(timestamp, c.textPx, maxContent);
        c.timestamp = {m + pad, y, font.textWidth(c.timestampText, c.textPx),
                       font.metrics(c.textPx).height()};
        width = std::max(width, c.timestamp.width);
        y = c.timestamp.bottom();
    }
    c.panel = {m, m, width + 2 * pad, y + pad - m};
    return c;
}

ImageOverlayLayout layoutImageOverlay(const Font& font, const ImageOverlayContent& content,
                                      int viewportWidth, int viewportHeight) {
    ImageOverlayLayout out;
    out.captions =
        layoutCaptions(font, content.title, content.timestamp, viewportWidth, viewportHeight);
    // Bottom legends stay below the captions' panel.
    const int topLimit = out.captions ? out.captions->panel.bottom() : 0;
    const auto shown = [](const LegendSpec* s) { return s != nullptr && legendHasContent(*s); };
    out.cloudStyle.corner = LegendCorner::BottomRight;
    out.cloudStyle.topLimitPx = topLimit;
    if (shown(content.cloud))
        out.cloud =
            layoutLegend(*content.cloud, viewportWidth, viewportHeight, out.cloudStyle, font);
    out.volumeStyle.corner = LegendCorner::BottomLeft;
    out.volumeStyle.topLimitPx = topLimit;
    if (shown(content.volume))
        out.volume =
            layoutLegend(*content.volume, viewportWidth, viewportHeight, out.volumeStyle, font);
    out.vectorStyle.corner = LegendCorner::BottomRight;
    out.vectorStyle.topLimitPx = topLimit;
    if (out.cloud)  // stacked above the cloud's legend, one margin apart
        out.vectorStyle.offsetPx = out.cloud->panel.height + scaled(0.6, out.cloud->textPx);
    if (shown(content.vectors))
        out.vectors =
            layoutLegend(*content.vectors, viewportWidth, viewportHeight, out.vectorStyle, font);
    return out;
}

void drawImageOverlay(LegendOverlay& overlay, const ImageOverlayContent& content, int viewportWidth,
                      int viewportHeight) {
    const ImageOverlayLayout l =
        layoutImageOverlay(overlay.text().font(), content, viewportWidth, viewportHeight);
    TextBatch batch;
    if (l.cloud) appendLegend(batch, *content.cloud, *l.cloud, l.cloudStyle);
    if (l.volume) appendLegend(batch, *content.volume, *l.volume, l.volumeStyle);
    if (l.vectors) appendLegend(batch, *content.vectors, *l.vectors, l.vectorStyle);
    if (l.captions) {
        const LegendStyle style;  // the legends' colours
        const CaptionLayout& c = *l.captions;
        batch.rect(c.panel, style.panelRgba);
        batch.text(c.titleText, c.title.x, c.title.y, c.titlePx, style.textRgba);
        batch.text(c.timestampText, c.timestamp.x, c.timestamp.y, c.textPx, style.textRgba);
    }
    overlay.text().draw(batch, viewportWidth, viewportHeight);
}

}  // namespace cf::render
