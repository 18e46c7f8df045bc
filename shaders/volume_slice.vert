// SPDX-License-Identifier: GPL-3.0-or-later
// One axis-aligned slice of a volume box: a quad across the box at uCoord on axis uAxis,
// built from gl_VertexID (triangle strip of 4, no vertex buffer).
#version 450 core
uniform mat4 uViewProjection;
uniform vec3 uLo;
uniform vec3 uHi;
uniform int uAxis;  // 0 x, 1 y, 2 z
uniform float uCoord;

out vec3 vWorld;

void main() {
    const vec2 corners[4] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 1));
    vec2 c = corners[gl_VertexID];
    int a1 = (uAxis + 1) % 3;
    int a2 = (uAxis + 2) % 3;
    vec3 p;
    p[uAxis] = uCoord;
    p[a1] = mix(uLo[a1], uHi[a1], c.x);
    p[a2] = mix(uLo[a2], uHi[a2], c.y);
    vWorld = p;
    gl_Position = uViewProjection * vec4(p, 1.0);
}
