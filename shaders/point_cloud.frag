// SPDX-License-Identifier: GPL-3.0-or-later
// Ray-cast sphere: exact silhouette, per-pixel normal and depth (spheres intersect
// correctly with each other and with meshes), head-light shading.
#version 450 core
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
    float b = dot(ray, vCenter);
    float c = dot(vCenter, vCenter) - vRadius * vRadius;
    float disc = b * b - c;
    if (disc < 0.0) discard;
    float t = b - sqrt(disc);
    vec3 hit = ray * t;
    vec3 normal = normalize(hit - vCenter);
    vec4 clip = uProjection * vec4(hit, 1.0);
    gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
    float diffuse = max(dot(normal, -ray), 0.0);
    float specular = pow(max(dot(reflect(ray, normal), -ray), 0.0), 32.0);
    fragColor = vec4(vColor * (0.25 + 0.75 * diffuse) + vec3(0.2 * specular), 1.0);
}
