// SPDX-License-Identifier: GPL-3.0-or-later
// The LIC's input: each node's vector projected onto the grid plane and written in plane
// coordinates (a, b) with v_plane = a * U + b * V (U, V the plane's edges), plus |v| for the
// colour. Non-finite vectors become zero (the streamline stops there).
#version 450 core
layout(local_size_x = 256) in;

uniform samplerBuffer uVectors;
layout(rgba32f, binding = 0) uniform writeonly image2D uVelocity;
uniform ivec2 uGrid;
uniform vec3 uEdgeU;
uniform vec3 uEdgeV;
uniform mat2 uInverseGram;  // inverse of [[U.U, U.V], [U.V, V.V]]

void main() {
    int count = uGrid.x * uGrid.y;
    int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    for (int i = int(gl_GlobalInvocationID.x); i < count; i += stride) {
        vec3 v = texelFetch(uVectors, i).xyz;
        float m = length(v);
        vec4 value = vec4(0.0);
        if (!isnan(m) && !isinf(m)) value = vec4(uInverseGram * vec2(dot(v, uEdgeU), dot(v, uEdgeV)), m, 0.0);
        imageStore(uVelocity, ivec2(i % uGrid.x, i / uGrid.x), value);
    }
}
