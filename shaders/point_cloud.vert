// SPDX-License-Identifier: GPL-3.0-or-later
// Sphere impostors: one camera-facing quad per point (instanced), sized to cover the
// sphere's silhouette; the fragment shader ray-casts the exact sphere.
#version 450 core
layout(location = 0) in vec4 aCenterRadius;  // per instance: x, y, z, radius
layout(location = 1) in float aScalar;        // per instance
layout(location = 2) in uint aCategory;       // per instance

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
    const vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));
    float radius = uRadiusOverride > 0.0 ? uRadiusOverride : aCenterRadius.w;
    vec3 center = (uView * vec4(aCenterRadius.xyz, 1.0)).xyz;
    // The quad lies in the plane z = center.z + radius, in front of every point of the
    // sphere (view space looks down -z), and spans the sphere's silhouette there: per axis
    // the tangents from the eye bound x/-z (and y/-z). Being in front lets the fragment
    // shader declare depth_greater, which keeps early depth testing on despite
    // gl_FragDepth: hidden spheres cost no shading (dense clouds overdraw a lot).
    float zq = min(center.z + radius, -1e-5);
    vec2 lo, hi;
    bool inside = false;
    for (int axis = 0; axis < 2; ++axis) {
        float ca = center[axis];
        float d2 = ca * ca + center.z * center.z;
        inside = inside || d2 <= radius * radius;
        float theta = atan(ca, -center.z);
        float beta = asin(clamp(radius / sqrt(max(d2, 1e-30)), 0.0, 1.0));
        lo[axis] = -zq * tan(clamp(theta - beta, -1.55, 1.55));
        hi[axis] = -zq * tan(clamp(theta + beta, -1.55, 1.55));
    }
    vec2 corner = 0.5 * (corners[gl_VertexID] + 1.0);
    vViewPosition = vec3(mix(lo, hi, corner), zq);
    vCenter = center;
    vRadius = radius;
    if (uColorMode == 1) {
        float t = clamp((aScalar - uScalarRange.x) / max(uScalarRange.y - uScalarRange.x, 1e-30),
                        0.0, 1.0);
        vColor = texture(uColormap, t).rgb;
    } else if (uColorMode == 2) {
        vColor = uPalette[aCategory % 16u];
    } else {
        vColor = uUniformColor;
    }
    // The eye inside a sphere: nothing sensible to draw; put the quad outside the clip box.
    gl_Position = inside ? vec4(2.0, 2.0, 2.0, 1.0) : uProjection * vec4(vViewPosition, 1.0);
}
