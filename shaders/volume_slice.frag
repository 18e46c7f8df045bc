// SPDX-License-Identifier: GPL-3.0-or-later
// Colours a slice from the volume: scalars through the colormap (trilinear or the cell's
// own value), categories through the palette (always the cell's own value; category 0 may
// be an empty site, discarded so that what lies behind shows and no depth is written). A NaN
// scalar is "no value" (e.g. a node not yet activated) and shows grey.
#version 450 core
in vec3 vWorld;

uniform vec3 uLo;
uniform vec3 uHi;
uniform ivec3 uSize;
uniform int uAxis;
uniform float uCoord;
uniform int uFormat;  // 0 scalar (R32F), 1 category (R8UI)
uniform bool uLinear;
uniform bool uEmptyTransparent;
uniform vec2 uRange;
uniform vec3 uPalette[16];
uniform sampler3D uScalars;
uniform usampler3D uCategories;
uniform sampler1D uColormap;

layout(location = 0) out vec4 fragColor;

// Range ends on the centres of the first and last of the 256 colormap texels.
vec3 colormap(float value) {
    float u = clamp((value - uRange.x) / max(uRange.y - uRange.x, 1e-30), 0.0, 1.0);
    return texture(uColormap, (u * 255.0 + 0.5) / 256.0).rgb;
}

void main() {
    vec3 t = (vWorld - uLo) / (uHi - uLo);
    // The slice's own coordinate from the uniform, not the interpolated one: a slice placed
    // on a cell face then picks the same cell in every pixel.
    t[uAxis] = (uCoord - uLo[uAxis]) / (uHi[uAxis] - uLo[uAxis]);
    ivec3 cell = clamp(ivec3(floor(t * vec3(uSize))), ivec3(0), uSize - 1);
    vec3 color;
    if (uFormat == 1) {
        uint category = texelFetch(uCategories, cell, 0).r;
        if (category == 0u && uEmptyTransparent) discard;
        color = uPalette[category % 16u];
    } else {
        float value = uLinear ? texture(uScalars, t).r : texelFetch(uScalars, cell, 0).r;
        color = isnan(value) ? vec3(0.3) : colormap(value);
    }
    fragColor = vec4(color, 1.0);
}
