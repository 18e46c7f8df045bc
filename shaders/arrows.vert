// SPDX-License-Identifier: GPL-3.0-or-later
// Instanced 3D arrows: one shaft cylinder + cone head mesh per (subsampled) grid node,
// oriented along the node's vector and as long as scale * |v| (or, as segments for
// directors, a capped cylinder of that length centred on the node). The mesh is built in
// "arrow units" (which end, which radius, which normal, angle around the axis) so that the
// shader can keep the head's proportions: shaft and head thickness follow the longest
// arrow, and arrows shorter than two head lengths shrink as a whole.
#version 450 core
// x: anchor along the axis (0 base, 1 head base, 2 tip); y: radius (0 on the axis, 1 shaft,
// 2 head); z: normal (0 radial, 1 cone, 2 facing back); w: angle around the axis.
layout(location = 0) in vec4 aVertex;

uniform samplerBuffer uVectors;  // float3 per node
// Magnitude range as float bits (x min, y max), computed by vector_stats.comp.
layout(std140, binding = 0) uniform Stats {
    uvec4 uStatsBits;
};
uniform mat4 uView;
uniform mat4 uProjection;
uniform ivec3 uGrid;     // nx, ny, nz
uniform ivec3 uSampled;  // arrows along each axis
uniform int uStride;
uniform vec3 uOrigin;
uniform vec3 uStep[3];     // world offset from one node to the next along i, j, k
uniform float uScale;      // > 0: world length per unit magnitude
uniform float uAutoLength; // uScale <= 0: length of the longest arrow
uniform int uColorMode;    // 0 uniform, 1 magnitude via colormap
uniform vec3 uUniformColor;
uniform int uGlyph;  // 0 arrow, 1 segment centred on the node (no head)
uniform vec2 uRange;  // colour range; x >= y: the data's range
uniform sampler1D uColormap;

out vec3 vViewPosition;
out vec3 vViewNormal;
flat out vec3 vColor;

void main() {
    int plane = uSampled.x * uSampled.y;
    ivec3 s = ivec3(gl_InstanceID % uSampled.x, (gl_InstanceID / uSampled.x) % uSampled.y,
                    gl_InstanceID / plane);
    ivec3 node = s * uStride;
    vec3 v = texelFetch(uVectors, node.x + uGrid.x * (node.y + uGrid.y * node.z)).xyz;
    float magnitude = length(v);
    vec2 range = vec2(uintBitsToFloat(uStatsBits.x), uintBitsToFloat(uStatsBits.y));
    float scale = uScale > 0.0 ? uScale : uAutoLength / max(range.y, 1e-30);
    float len = magnitude * scale;
    if (!(len > 0.0) || isinf(len)) {  // zero, NaN or infinite: no arrow
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume
        vViewPosition = vViewNormal = vColor = vec3(0.0);
        return;
    }
    float longest = range.y * scale;
    float headLength = 0.3 * longest, headRadius = 0.12 * longest, shaftRadius = 0.045 * longest;
    float shrink = min(1.0, len / (2.0 * headLength));
    float along = aVertex.x < 0.5 ? 0.0 : (aVertex.x < 1.5 ? len - headLength * shrink : len);
    float radius = aVertex.y < 0.5 ? 0.0 : (aVertex.y < 1.5 ? shaftRadius : headRadius) * shrink;
    if (uGlyph == 1) {
        // A segment (a director: +v and -v alike): the shaft centred on the node, the head
        // collapsed into a flat cap at the far end (head base and tip at the same place, head
        // radius = shaft radius, so the cone's normal becomes the axis). Thin segments do not
        // shrink: there is no head to keep in proportion.
        headLength = 0.0;
        headRadius = shaftRadius;
        along = aVertex.x < 0.5 ? -0.5 * len : 0.5 * len;
        radius = aVertex.y < 0.5 ? 0.0 : shaftRadius;
    }

    vec3 axis = v / magnitude;
    vec3 helper = abs(axis.z) < 0.9 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
    vec3 e1 = normalize(cross(helper, axis));
    vec3 e2 = cross(axis, e1);
    vec3 radial = cos(aVertex.w) * e1 + sin(aVertex.w) * e2;
    vec3 normal = aVertex.z < 0.5 ? radial
                : (aVertex.z < 1.5 ? normalize(radial * headLength + axis * headRadius) : -axis);

    vec3 base = uOrigin + float(node.x) * uStep[0] + float(node.y) * uStep[1] +
                float(node.z) * uStep[2];
    vec4 viewPosition = uView * vec4(base + along * axis + radius * radial, 1.0);
    vViewPosition = viewPosition.xyz;
    vViewNormal = mat3(uView) * normal;
    if (uColorMode == 1) {
        vec2 r = uRange.x < uRange.y ? uRange : range;
        vColor = texture(uColormap, clamp((magnitude - r.x) / max(r.y - r.x, 1e-30), 0.0, 1.0)).rgb;
    } else {
        vColor = uUniformColor;
    }
    gl_Position = uProjection * viewPosition;
}
