// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A colormap as a 1D GL texture (256 RGB8 entries, linear filtering), shared by the field
// renderers. Their shaders sample it at (u * 255 + 0.5) / 256 for a normalised value u, so
// that the range ends land on the centres of the first and last texels: the drawn colour
// is colormapTable(map, 256) interpolated at u * 255, with no half-texel shift.
#include "render/colormap.hpp"
#include "render/gl_program.hpp"

namespace cf::render {

inline constexpr int kColormapTextureSize = 256;

Texture createColormapTexture(Colormap map);
void uploadColormap(GLuint texture, Colormap map);

}  // namespace cf::render
