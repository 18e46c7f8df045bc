// SPDX-License-Identifier: GPL-3.0-or-later
// Ray-cast sphere: exact silhouette, per-pixel normal and depth (spheres intersect
// correctly with each other and with meshes), head-light shading. Assembled after
// sphere_common.glsl.
in vec3 vViewPosition;
flat in vec3 vCenter;
flat in float vRadius;
flat in vec3 vColor;

uniform mat4 uProjection;

layout(location = 0) out vec4 fragColor;
// The quad is in front of the sphere, so the ray-cast depth is never nearer than the
// quad's: early depth testing stays valid.
layout(depth_greater) out float gl_FragDepth;

void main() {
    vec3 ray = normalize(vViewPosition);  // from the eye at the origin
    float t;
    if (!intersectSphere(ray, vCenter, vRadius, t)) discard;
    vec3 hit = ray * t;
    gl_FragDepth = windowDepth(uProjection, hit);
    fragColor = shadeSphere(vColor, ray, normalize(hit - vCenter));
}
