// SPDX-License-Identifier: GPL-3.0-or-later
// Screen-space overlay quads (legends): positions in viewport pixels, y down as in images.
#version 450 core
layout(location = 0) in vec2 aPixel;
layout(location = 1) in vec4 aColor;
uniform vec2 uViewport;
out vec4 vColor;
void main() {
    vColor = aColor;
    gl_Position = vec4(2.0 * aPixel.x / uViewport.x - 1.0, 1.0 - 2.0 * aPixel.y / uViewport.y,
                       0.0, 1.0);
}
