// SPDX-License-Identifier: GPL-3.0-or-later
// The glyph's coverage (one texel per screen pixel, fetched, never filtered) scales the
// colour's alpha; rectangles read a fully covered block of the atlas.
#version 450 core
in vec2 vTexel;
in vec4 vColor;
uniform sampler2D uAtlas;
layout(location = 0) out vec4 fragColor;
void main() {
    float coverage = texelFetch(uAtlas, ivec2(floor(vTexel)), 0).r;
    fragColor = vec4(vColor.rgb, vColor.a * coverage);
}
