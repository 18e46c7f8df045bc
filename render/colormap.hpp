// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Perceptually uniform colormaps (viridis, magma, cividis) and a diverging one (coolwarm),
// sampled from published anchor colours, plus a categorical palette.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace cf::render {

enum class Colormap { Viridis, Magma, Cividis, Coolwarm };

std::string_view toString(Colormap c);
std::optional<Colormap> parseColormap(std::string_view name);

// `n` RGB8 entries from the first to the last colour (n >= 2).
std::vector<std::uint8_t> colormapTable(Colormap c, int n = 256);

// The 16 colours categories 0..15 are drawn in (shaders index palette[category % 16]).
using CategoryPalette = std::array<std::array<float, 3>, 16>;

// Default categorical palette, for channels that declare no colours; index 0-2 match the
// epidermis paper's figure colours (red, blue, yellow).
const CategoryPalette& categoricalPalette();

// An 0xRRGGBB colour as RGB in [0, 1].
std::array<float, 3> rgbOf(std::uint32_t hex);

// The palette of a category channel: its declared 0xRRGGBB colours (one per label, at most
// 16), or categoricalPalette() when it declares none. Entries past the declared ones are
// never drawn (no category has that index) and are left black. Throws RenderError for more
// than 16 colours, or for a colour count that differs from a non-zero label count (every
// label must say its colour: nothing falls back silently).
CategoryPalette categoryPalette(const std::vector<std::uint32_t>& declared, std::size_t labelCount);

}  // namespace cf::render
