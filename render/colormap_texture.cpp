// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/colormap_texture.hpp"

#include <vector>

namespace cf::render {

Texture createColormapTexture(Colormap map) {
    Texture texture(createTexture(GL_TEXTURE_1D));
    glTextureStorage1D(texture.get(), 1, GL_RGB8, kColormapTextureSize);
    glTextureParameteri(texture.get(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(texture.get(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(texture.get(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    uploadColormap(texture.get(), map);
    return texture;
}

void uploadColormap(GLuint texture, Colormap map) {
    const std::vector<std::uint8_t> table = colormapTable(map, kColormapTextureSize);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // rows of 3 bytes
    glTextureSubImage1D(texture, 0, 0, kColormapTextureSize, GL_RGB, GL_UNSIGNED_BYTE,
                        table.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // back to GL's default for other uploads
}

}  // namespace cf::render
