// SPDX-License-Identifier: GPL-3.0-or-later
// Heatmap rectangle origin + s * edgeU + t * edgeV, (s, t) in [0, 1]^2, from gl_VertexID.
#version 450 core
uniform mat4 uViewProjection;
uniform vec3 uOrigin;
uniform vec3 uEdgeU;
uniform vec3 uEdgeV;

out vec2 vUV;

void main() {
    const vec2 corners[4] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 1));
    vUV = corners[gl_VertexID];
    gl_Position = uViewProjection * vec4(uOrigin + vUV.x * uEdgeU + vUV.y * uEdgeV, 1.0);
}
