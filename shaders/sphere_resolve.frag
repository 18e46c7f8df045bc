// SPDX-License-Identifier: GPL-3.0-or-later
// Shades, per pixel, the sphere the splat passes found nearest, with the same ray cast,
// depth and lighting as the raster path; writes depth so the spheres composite with
// everything else drawn. Assembled after sphere_common.glsl and sphere_buffers.glsl.
layout(r32ui, binding = 1) uniform readonly uimage2D uWinner;

uniform mat4 uView;
uniform mat4 uProjection;
uniform mat4 uInverseProjection;
uniform ivec4 uViewport;

layout(location = 0) out vec4 fragColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) - uViewport.xy;
    uint i = imageLoad(uWinner, p).x;
    if (i == 0xffffffffu) discard;
    vec2 ndc = (vec2(p) + 0.5) / vec2(uViewport.zw) * 2.0 - 1.0;
    vec4 v = uInverseProjection * vec4(ndc, -1.0, 1.0);
    vec3 ray = normalize(v.xyz / v.w);
    vec4 centerRadius = spherePoints[i];
    float radius = sphereRadius(centerRadius.w);
    vec3 center = (uView * vec4(centerRadius.xyz, 1.0)).xyz;
    float t;
    if (!intersectSphere(ray, center, radius, t)) discard;
    vec3 hit = ray * t;
    gl_FragDepth = windowDepth(uProjection, hit);
    fragColor = shadeSphere(sphereColor(sphereScalars[i], sphereCategory(i)), ray,
                            normalize(hit - center));
}
