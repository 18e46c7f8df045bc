// SPDX-License-Identifier: GPL-3.0-or-later
// Line-integral convolution: per texel, the mean of a white-noise texture along the
// streamline through the texel centre, uSteps steps of one texel in each direction
// (midpoint rule on the normalised in-plane direction), stopping at the border or where
// the field vanishes. The mean is contrast-stretched by sqrt(samples) (white noise averages
// to grey otherwise) and optionally tints the magnitude's colormap colour.
#version 450 core
layout(local_size_x = 16, local_size_y = 16) in;

layout(rgba8, binding = 0) uniform writeonly image2D uLic;
uniform sampler2D uVelocity;  // nx x ny: (a, b, |v|, 0), read with texelFetch
uniform sampler2D uNoise;     // LIC size, R8, read with texelFetch
uniform sampler1D uColormap;
layout(std140, binding = 0) uniform Stats {
    uvec4 uStatsBits;
};
uniform ivec2 uGrid;
uniform int uSteps;
uniform int uColorByMagnitude;
uniform vec2 uRange;  // x >= y: the data's range

vec2 gSize;

// Bilinear interpolation done by hand: hardware filtering weights have only 8 fractional
// bits on some GPUs, which would make streamlines (and the image) differ between drivers.
vec3 velocityAt(vec2 p) {
    vec2 g = clamp(p / gSize, 0.0, 1.0) * vec2(uGrid - 1);
    ivec2 i0 = min(ivec2(floor(g)), uGrid - 2);
    vec2 f = g - vec2(i0);
    vec3 v00 = texelFetch(uVelocity, i0, 0).xyz;
    vec3 v10 = texelFetch(uVelocity, i0 + ivec2(1, 0), 0).xyz;
    vec3 v01 = texelFetch(uVelocity, i0 + ivec2(0, 1), 0).xyz;
    vec3 v11 = texelFetch(uVelocity, i0 + ivec2(1, 1), 0).xyz;
    return mix(mix(v00, v10, f.x), mix(v01, v11, f.x), f.y);
}

// Unit direction in texel units, or 0 where the field vanishes.
vec2 directionAt(vec2 p) {
    vec2 v = velocityAt(p).xy * gSize;
    float l = length(v);
    return l > 0.0 ? v / l : vec2(0.0);
}

// Bilinear noise: with nearest sampling, neighbouring points of one streamline, whose steps
// land at different offsets within the texels, would count texels unequally often and so
// differ by more than the few samples they do not share (aliasing across the streaks).
// By hand for the same reason as the velocity.
float noiseAt(vec2 p) {
    ivec2 last = ivec2(gSize) - 1;
    vec2 q = p - 0.5;
    ivec2 i0 = ivec2(floor(q));
    vec2 f = q - vec2(i0);
    ivec2 a = clamp(i0, ivec2(0), last), b = clamp(i0 + 1, ivec2(0), last);
    float n00 = texelFetch(uNoise, a, 0).r, n10 = texelFetch(uNoise, ivec2(b.x, a.y), 0).r;
    float n01 = texelFetch(uNoise, ivec2(a.x, b.y), 0).r, n11 = texelFetch(uNoise, b, 0).r;
    return mix(mix(n00, n10, f.x), mix(n01, n11, f.x), f.y);
}

void main() {
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(uLic);
    if (any(greaterThanEqual(texel, size))) return;
    gSize = vec2(size);
    vec2 start = vec2(texel) + 0.5;
    float sum = noiseAt(start);
    int samples = 1;
    for (int sense = -1; sense <= 1; sense += 2) {
        float h = float(sense);
        vec2 p = start;
        for (int s = 0; s < uSteps; ++s) {
            vec2 d1 = directionAt(p);
            if (d1 == vec2(0.0)) break;
            vec2 d2 = directionAt(p + 0.5 * h * d1);
            p += h * (d2 == vec2(0.0) ? d1 : d2);
            if (any(lessThan(p, vec2(0.0))) || any(greaterThanEqual(p, gSize))) break;
            sum += noiseAt(p);
            ++samples;
        }
    }
    float mean = sum / float(samples);
    // Bilinear white noise has a standard deviation of ~0.23 here after the stretch (a vortex
    // at 31 samples: ~3.5% of texels clip at black or white).
    float intensity = clamp(0.5 + (mean - 0.5) * sqrt(float(samples)), 0.0, 1.0);
    vec3 rgb = vec3(intensity);
    if (uColorByMagnitude == 1) {
        vec2 range = uRange.x < uRange.y
                         ? uRange
                         : vec2(uintBitsToFloat(uStatsBits.x), uintBitsToFloat(uStatsBits.y));
        float m = velocityAt(start).z;
        vec3 c = texture(uColormap, clamp((m - range.x) / max(range.y - range.x, 1e-30), 0.0, 1.0)).rgb;
        rgb = clamp(c * mix(0.35, 1.3, intensity), 0.0, 1.0);
    }
    imageStore(uLic, texel, vec4(rgb, 1.0));
}
