// SPDX-License-Identifier: GPL-3.0-or-later
// A 2D scalar field through a colormap: bilinear between cell centres or the cell's value.
#version 450 core
in vec2 vUV;

uniform ivec2 uSize;
uniform vec2 uRange;
uniform bool uLinear;
uniform sampler2D uValues;
uniform sampler1D uColormap;

layout(location = 0) out vec4 fragColor;

void main() {
    ivec2 cell = clamp(ivec2(floor(vUV * vec2(uSize))), ivec2(0), uSize - 1);
    float value = uLinear ? texture(uValues, vUV).r : texelFetch(uValues, cell, 0).r;
    float u = clamp((value - uRange.x) / max(uRange.y - uRange.x, 1e-30), 0.0, 1.0);
    // Range ends on the centres of the first and last of the 256 colormap texels.
    fragColor = vec4(texture(uColormap, (u * 255.0 + 0.5) / 256.0).rgb, 1.0);
}
