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
    // Under perspective the silhouette is wider than the radius; the quad sits on the
    // near side of the sphere and is enlarged so that it covers it.
    float distance = max(length(center), 1e-6);
    float grow = distance / sqrt(max(distance * distance - radius * radius, 1e-12));
    vec3 quadCenter = center + normalize(-center) * radius;
    vec2 corner = corners[gl_VertexID];
    vViewPosition = quadCenter + vec3(corner * radius * grow * 1.05, 0.0);
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
    gl_Position = uProjection * vec4(vViewPosition, 1.0);
}
