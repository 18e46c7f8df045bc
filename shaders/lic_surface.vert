// SPDX-License-Identifier: GPL-3.0-or-later
// The LIC image's rectangle: origin + s * U + t * V for (s, t) in the unit square.
#version 450 core
uniform mat4 uViewProjection;
uniform vec3 uOrigin;
uniform vec3 uEdgeU;
uniform vec3 uEdgeV;

out vec2 vTexCoord;

void main() {
    const vec2 corners[4] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 1));
    vTexCoord = corners[gl_VertexID];
    vec3 p = uOrigin + vTexCoord.x * uEdgeU + vTexCoord.y * uEdgeV;
    gl_Position = uViewProjection * vec4(p, 1.0);
}
