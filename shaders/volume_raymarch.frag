// SPDX-License-Identifier: GPL-3.0-or-later
// Emission-absorption ray-march through the volume box, front to back. A sample of
// normalised value u emits the colormap colour at u with extinction uOpacityScale * u per
// world unit (categories: palette colour, full extinction, empty sites none). The steps
// split the path inside the box evenly (about half a cell each), so a uniform medium of
// extinction s along a path of length L gives alpha = 1 - exp(-s L) exactly.
#version 450 core
in vec3 vWorld;  // on the back face: where the ray leaves the box

uniform mat4 uViewProjection;
uniform vec3 uEye;
uniform vec3 uLo;
uniform vec3 uHi;
uniform ivec3 uSize;
uniform int uFormat;  // 0 scalar (R32F), 1 category (R8UI)
uniform bool uLinear;
uniform bool uEmptyTransparent;
uniform vec2 uRange;
uniform float uOpacityScale;
uniform vec3 uPalette[16];
uniform sampler3D uScalars;
uniform usampler3D uCategories;
uniform sampler1D uColormap;

layout(location = 0) out vec4 fragColor;  // premultiplied

void main() {
    vec3 toExit = vWorld - uEye;
    float tExit = length(toExit);
    vec3 dir = toExit / tExit;
    // Slab entry distance; an axis the ray runs parallel to gives -inf/+inf (never the max).
    vec3 safeDir = mix(dir, vec3(1e-30), equal(dir, vec3(0.0)));
    vec3 t0 = (uLo - uEye) / safeDir;
    vec3 t1 = (uHi - uEye) / safeDir;
    vec3 tMin = min(t0, t1);
    float tEnter = max(max(max(tMin.x, tMin.y), tMin.z), 0.0);  // 0: the eye is inside
    if (tExit <= tEnter) discard;

    // Depth of the entry point: opaque geometry in front of it hides the volume.
    vec4 clip = uViewProjection * vec4(uEye + tEnter * dir, 1.0);
    gl_FragDepth = clip.w > 0.0 ? clamp(0.5 * clip.z / clip.w + 0.5, 0.0, 1.0) : 0.0;

    vec3 cellSize = (uHi - uLo) / vec3(uSize);
    float stepLength = 0.5 * min(min(cellSize.x, cellSize.y), cellSize.z);
    float pathLength = tExit - tEnter;
    int steps = clamp(int(ceil(pathLength / stepLength)), 1, 4096);
    float dt = pathLength / float(steps);
    vec3 color = vec3(0.0);
    float alpha = 0.0;
    for (int i = 0; i < steps && alpha < 0.996; ++i) {
        vec3 p = uEye + (tEnter + (float(i) + 0.5) * dt) * dir;
        vec3 t = (p - uLo) / (uHi - uLo);
        vec3 emitted;
        float extinction;
        if (uFormat == 1) {
            ivec3 cell = clamp(ivec3(floor(t * vec3(uSize))), ivec3(0), uSize - 1);
            uint category = texelFetch(uCategories, cell, 0).r;
            emitted = uPalette[category % 16u];
            extinction = (category == 0u && uEmptyTransparent) ? 0.0 : uOpacityScale;
        } else {
            ivec3 cell = clamp(ivec3(floor(t * vec3(uSize))), ivec3(0), uSize - 1);
            float value = uLinear ? texture(uScalars, t).r : texelFetch(uScalars, cell, 0).r;
            // NaN is "no value": transparent.
            float u = isnan(value) ? 0.0
                                   : clamp((value - uRange.x) / max(uRange.y - uRange.x, 1e-30),
                                           0.0, 1.0);
            emitted = texture(uColormap, (u * 255.0 + 0.5) / 256.0).rgb;
            extinction = uOpacityScale * u;
        }
        float a = 1.0 - exp(-extinction * dt);
        color += (1.0 - alpha) * a * emitted;
        alpha += (1.0 - alpha) * a;
    }
    fragColor = vec4(color, alpha);
}
