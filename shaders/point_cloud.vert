// SPDX-License-Identifier: GPL-3.0-or-later
// Sphere impostors by vertex pulling: one non-instanced draw of 6 vertices (two triangles)
// per sphere, reading the sphere from storage buffers; the fragment shader ray-casts the
// exact sphere. (Instanced 4-vertex quads pack vertices poorly and were 2x slower.)
#version 450 core
layout(std430, binding = 0) readonly buffer Centers { vec4 centerRadius[]; };  // x, y, z, r
layout(std430, binding = 1) readonly buffer Scalars { float scalars[]; };
layout(std430, binding = 2) readonly buffer Categories { uint categoryWords[]; };  // 4 per word

uniform mat4 uView;
uniform mat4 uProjection;
uniform float uRadiusOverride;  // > 0: every point gets this radius
uniform int uColorMode;         // 0 uniform, 1 scalar via colormap, 2 category palette
uniform vec3 uUniformColor;
uniform vec2 uScalarRange;
uniform sampler1D uColormap;
uniform vec3 uPalette[16];

out vec3 vViewPosition;  // of this quad corner, view space
flat out vec3 vCenter;   // sphere centre, view space
flat out float vRadius;
flat out vec3 vColor;

void main() {
    const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(0, 1), vec2(1, 0),
                                   vec2(1, 1));
    int sphere = gl_VertexID / 6;
    vec4 cr = centerRadius[sphere];
    float radius = uRadiusOverride > 0.0 ? uRadiusOverride : cr.w;
    vec3 center = (uView * vec4(cr.xyz, 1.0)).xyz;
    // The quad lies in the plane z = center.z + radius, in front of every point of the
    // sphere (view space looks down -z), and spans the silhouette there: per axis the two
    // tangents from the eye bound x/-z (and y/-z), s = (a b +- r sqrt(a^2 + b^2 - r^2)) /
    // (b^2 - r^2) with a the centre's coordinate and b its depth. Being in front lets the
    // fragment shader declare depth_greater (early depth testing stays on).
    float zq = center.z + radius;
    float b = -center.z;
    float b2r2 = b * b - radius * radius;
    bool visible = zq < 0.0 && b2r2 > 0.0;  // else the sphere reaches the eye's plane
    vec2 lo = vec2(0.0), hi = vec2(0.0);
    for (int axis = 0; axis < 2; ++axis) {
        float a = center[axis];
        float root = radius * sqrt(max(a * a + b2r2, 0.0));
        lo[axis] = -zq * (a * b - root) / b2r2;
        hi[axis] = -zq * (a * b + root) / b2r2;
    }
    vViewPosition = vec3(mix(lo, hi, corners[gl_VertexID % 6]), zq);
    vCenter = center;
    vRadius = radius;
    if (uColorMode == 1) {
        float t = clamp((scalars[sphere] - uScalarRange.x) /
                            max(uScalarRange.y - uScalarRange.x, 1e-30), 0.0, 1.0);
        vColor = texture(uColormap, t).rgb;
    } else if (uColorMode == 2) {
        uint category = (categoryWords[sphere >> 2] >> (8u * uint(sphere & 3))) & 0xffu;
        vColor = uPalette[category % 16u];
    } else {
        vColor = uUniformColor;
    }
    gl_Position = visible ? uProjection * vec4(vViewPosition, 1.0) : vec4(2.0, 2.0, 2.0, 1.0);
}
