// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Perceptually uniform colormaps (viridis, magma, cividis) and a diverging one (coolwarm),
// sampled from published anchor colours, plus a categorical palette.
#include <array>
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

// Categorical palette; index 0-2 match the epidermis paper's figure colours (red,
// blue, yellow).
const std::array<std::array<float, 3>, 16>& categoricalPalette();

}  // namespace cf::render
