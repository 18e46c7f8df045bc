// SPDX-License-Identifier: GPL-3.0-or-later
// Sphere impostors: one quad per point (instanced), sized to cover the sphere's
// silhouette; the fragment shader ray-casts the exact sphere. Assembled after
// sphere_common.glsl (and, for CF_INDEXED, sphere_buffers.glsl: the draw then covers only
// the spheres the splat path listed as large).
layout(location = 0) in vec4 aCenterRadius;  // per instance: x, y, z, radius
layout(location = 1) in float aScalar;        // per instance
layout(location = 2) in uint aCategory;       // per instance

uniform mat4 uView;
uniform mat4 uProjection;

out vec3 vViewPosition;  // of this quad corner, view space
flat out vec3 vCenter;   // sphere centre, view space
flat out float vRadius;
flat out vec3 vColor;

void main() {
    const vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));
#ifdef CF_INDEXED
    uint index = largeIndex[gl_InstanceID];
    vec4 centerRadius = spherePoints[index];
    float scalar = sphereScalars[index];
    uint category = sphereCategory(index);
#else
    vec4 centerRadius = aCenterRadius;
    float scalar = aScalar;
    uint category = aCategory;
#endif
    float radius = sphereRadius(centerRadius.w);
    vec3 center = (uView * vec4(centerRadius.xyz, 1.0)).xyz;
    // The quad lies in the plane z = center.z + radius, in front of every point of the
    // sphere (view space looks down -z), and spans the sphere's silhouette there: per axis
    // the tangents from the eye bound x/-z (and y/-z). Being in front lets the fragment
    // shader declare depth_greater, which keeps early depth testing on despite
    // gl_FragDepth: hidden spheres cost no shading (dense clouds overdraw a lot).
    float zq = min(center.z + radius, -1e-5);
    vec2 lo, hi;
    bool inside = false;
    for (int axis = 0; axis < 2; ++axis) {
        float ca = center[axis];
        float d2 = ca * ca + center.z * center.z;
        inside = inside || d2 <= radius * radius;
        float theta = atan(ca, -center.z);
        float beta = asin(clamp(radius / sqrt(max(d2, 1e-30)), 0.0, 1.0));
        lo[axis] = -zq * tan(clamp(theta - beta, -1.55, 1.55));
        hi[axis] = -zq * tan(clamp(theta + beta, -1.55, 1.55));
    }
    vec2 corner = 0.5 * (corners[gl_VertexID] + 1.0);
    vViewPosition = vec3(mix(lo, hi, corner), zq);
    vCenter = center;
    vRadius = radius;
    vColor = sphereColor(scalar, category);
    // The eye inside a sphere: nothing sensible to draw; put the quad outside the clip box.
    gl_Position = inside ? vec4(2.0, 2.0, 2.0, 1.0) : uProjection * vec4(vViewPosition, 1.0);
}
