// SPDX-License-Identifier: GPL-3.0-or-later
// Screen-space text and rectangles (render/text_renderer.cpp): positions in viewport pixels,
// y down as in images; atlas coordinates in texels.
#version 450 core
layout(location = 0) in vec2 aPixel;
layout(location = 1) in vec2 aTexel;
layout(location = 2) in vec4 aColor;
uniform vec2 uViewport;
out vec2 vTexel;
out vec4 vColor;
void main() {
    vTexel = aTexel;
    vColor = aColor;
    gl_Position = vec4(2.0 * aPixel.x / uViewport.x - 1.0, 1.0 - 2.0 * aPixel.y / uViewport.y,
                       0.0, 1.0);
}
