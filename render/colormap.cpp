// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/colormap.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "render/render_error.hpp"

namespace cf::render {

namespace {

using Stops = std::vector<std::uint32_t>;  // 0xRRGGBB, evenly spaced

const Stops& stopsOf(Colormap c) {
    static const Stops viridis = {0x440154, 0x482878, 0x3e4989, 0x31688e, 0x26828e,
                                  0x1f9e89, 0x35b779, 0x6ece58, 0xb5de2b, 0xfde725};
    static const Stops magma = {0x000004, 0x180f3d, 0x440f76, 0x721f81, 0x9e2f7f,
                                0xcd4071, 0xf1605d, 0xfd9668, 0xfeca8d, 0xfcfdbf};
    static const Stops cividis = {0x00224e, 0x123570, 0x3b496c, 0x575d6d, 0x707173,
                                  0x8a8678, 0xa59c74, 0xc3b369, 0xe1cc55, 0xfee838};
    static const Stops coolwarm = {0x3b4cc0, 0x6282ea, 0x8db0fe, 0xb8d0f9, 0xdddcdc,
                                   0xf5c4ad, 0xf49a7b, 0xde604d, 0xb40426};
    switch (c) {
        case Colormap::Viridis:
            return viridis;
        case Colormap::Magma:
            return magma;
        case Colormap::Cividis:
            return cividis;
        case Colormap::Coolwarm:
            return coolwarm;
    }
    return viridis;
}

}  // namespace

std::string_view toString(Colormap c) {
    switch (c) {
        case Colormap::Viridis:
            return "viridis";
        case Colormap::Magma:
            return "magma";
        case Colormap::Cividis:
            return "cividis";
        case Colormap::Coolwarm:
            return "coolwarm";
    }
    return "viridis";
}

std::optional<Colormap> parseColormap(std::string_view name) {
    for (Colormap c : {Colormap::Viridis, Colormap::Magma, Colormap::Cividis, Colormap::Coolwarm})
        if (toString(c) == name) return c;
    return std::nullopt;
}

std::vector<std::uint8_t> colormapTable(Colormap c, int n) {
    const Stops& s = stopsOf(c);
    n = std::max(n, 2);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(3 * n));
    const double segments = static_cast<double>(s.size() - 1);
    for (int i = 0; i < n; ++i) {
        const double t = segments * i / (n - 1);
        const auto k = std::min(static_cast<std::size_t>(t), s.size() - 2);
        const double f = t - static_cast<double>(k);
        for (int ch = 0; ch < 3; ++ch) {
            const int shift = 16 - 8 * ch;
            const double a = (s[k] >> shift) & 0xff, b = (s[k + 1] >> shift) & 0xff;
            out[static_cast<std::size_t>(3 * i + ch)] =
                static_cast<std::uint8_t>(std::lround(a + f * (b - a)));
        }
    }
    return out;
}

std::array<float, 3> rgbOf(std::uint32_t hex) {
    std::array<float, 3> rgb{};
    for (int ch = 0; ch < 3; ++ch)
        rgb[static_cast<std::size_t>(ch)] =
            static_cast<float>((hex >> (16 - 8 * ch)) & 0xffu) / 255.0f;
    return rgb;
}

const CategoryPalette& categoricalPalette() {
    static const CategoryPalette palette = [] {
        const std::uint32_t hex[16] = {0xd62728, 0x1f77b4, 0xffbf00, 0x2ca02c, 0x9467bd, 0x8c564b,
                                       0xe377c2, 0x7f7f7f, 0x17becf, 0xbcbd22, 0xff7f0e, 0xaec7e8,
                                       0x98df8a, 0xff9896, 0xc5b0d5, 0xc49c94};
        CategoryPalette p{};
        for (std::size_t i = 0; i < p.size(); ++i)
            p[i] = rgbOf(hex[i]);
        return p;
    }();
    return palette;
}

CategoryPalette categoryPalette(const std::vector<std::uint32_t>& declared,
                                std::size_t labelCount) {
    if (declared.empty()) return categoricalPalette();
    CategoryPalette p{};
    if (declared.size() > p.size())
        throw RenderError(std::to_string(declared.size()) +
                          " category colours declared; a channel draws at most " +
                          std::to_string(p.size()));
    if (labelCount != 0 && declared.size() != labelCount)
        throw RenderError(std::to_string(declared.size()) + " category colours declared for " +
                          std::to_string(labelCount) + " labels");
    for (std::size_t i = 0; i < declared.size(); ++i)
        p[i] = rgbOf(declared[i]);
    return p;
}

}  // namespace cf::render
