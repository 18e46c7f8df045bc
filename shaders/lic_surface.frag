// SPDX-License-Identifier: GPL-3.0-or-later
// The LIC image as it is (unlit: its brightness is data).
#version 450 core
in vec2 vTexCoord;
uniform sampler2D uLic;
layout(location = 0) out vec4 fragColor;

void main() {
    fragColor = vec4(texture(uLic, vTexCoord).rgb, 1.0);
}
