// SPDX-License-Identifier: GPL-3.0-or-later
// The volume's box as 12 triangles built from gl_VertexID (36 vertices, no vertex buffer),
// wound counter-clockwise seen from outside, so that culling front faces keeps one
// fragment per covered pixel: the back face where the ray leaves the box.
#version 450 core
uniform mat4 uViewProjection;
uniform vec3 uLo;
uniform vec3 uHi;

out vec3 vWorld;

void main() {
    // Corner c is (c & 1, (c >> 1) & 1, (c >> 2) & 1) in units of the box.
    const int corners[36] = int[](0, 2, 3, 0, 3, 1,   // z = lo
                                  4, 5, 7, 4, 7, 6,   // z = hi
                                  0, 1, 5, 0, 5, 4,   // y = lo
                                  2, 6, 7, 2, 7, 3,   // y = hi
                                  0, 4, 6, 0, 6, 2,   // x = lo
                                  1, 3, 7, 1, 7, 5);  // x = hi
    int c = corners[gl_VertexID];
    vec3 f = vec3(float(c & 1), float((c >> 1) & 1), float((c >> 2) & 1));
    vWorld = mix(uLo, uHi, f);
    gl_Position = uViewProjection * vec4(vWorld, 1.0);
}
