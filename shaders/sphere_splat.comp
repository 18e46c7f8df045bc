// SPDX-License-Identifier: GPL-3.0-or-later
// Compute splatting of small sphere impostors: one thread per sphere ray-casts the pixels
// of its silhouette's bounding rectangle. Tiny spheres cost the raster path two triangles
// and a quad's worth of fragments each; here they cost a few loop iterations.
// Pass 0 keeps the nearest depth per pixel (atomic min on the depth's bits: non-negative
// floats order like their bit patterns) and lists spheres too large to splat for the
// raster path; pass 1 writes the index of the sphere whose depth won. The resolve pass
// (sphere_resolve.frag) shades the winners. Assembled after sphere_common.glsl and
// sphere_buffers.glsl.
layout(local_size_x = 256) in;

layout(r32ui, binding = 0) uniform coherent uimage2D uDepthBits;
layout(r32ui, binding = 1) uniform writeonly uimage2D uWinner;

uniform mat4 uView;
uniform mat4 uProjection;
uniform mat4 uInverseProjection;
uniform ivec2 uSize;  // of the images (the viewport)
uniform uint uCount;
uniform int uPass;
uniform int uMaxSplatPixels;  // larger rectangles go to the raster path

// View-space direction of the ray through the centre of pixel `p`.
vec3 pixelRay(ivec2 p) {
    vec2 ndc = (vec2(p) + 0.5) / vec2(uSize) * 2.0 - 1.0;
    vec4 v = uInverseProjection * vec4(ndc, -1.0, 1.0);
    return normalize(v.xyz / v.w);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uCount) return;
    vec4 centerRadius = spherePoints[i];
    float radius = sphereRadius(centerRadius.w);
    vec3 center = (uView * vec4(centerRadius.xyz, 1.0)).xyz;
    if (center.z + radius >= 0.0) {
        // Reaches behind the eye: only the raster path clips this properly.
        if (uPass == 0 && dot(center, center) > radius * radius)
            largeIndex[atomicAdd(largeCommand[1], 1u)] = i;
        return;
    }
    // Silhouette bounds on the plane in front of the sphere, as in point_cloud.vert; that
    // plane is perpendicular to the view axis, so projecting its corners bounds the pixels.
    float zq = center.z + radius;
    vec2 lo, hi;
    for (int axis = 0; axis < 2; ++axis) {
        float ca = center[axis];
        float d2 = ca * ca + center.z * center.z;
        float theta = atan(ca, -center.z);
        float beta = asin(clamp(radius / sqrt(max(d2, 1e-30)), 0.0, 1.0));
        lo[axis] = -zq * tan(clamp(theta - beta, -1.55, 1.55));
        hi[axis] = -zq * tan(clamp(theta + beta, -1.55, 1.55));
    }
    vec4 clipLo = uProjection * vec4(lo, zq, 1.0);
    vec4 clipHi = uProjection * vec4(hi, zq, 1.0);
    vec2 pixLo = (clipLo.xy / clipLo.w * 0.5 + 0.5) * vec2(uSize);
    vec2 pixHi = (clipHi.xy / clipHi.w * 0.5 + 0.5) * vec2(uSize);
    // Pixels whose centres (k + 0.5) lie inside the rectangle, clipped to the image.
    ivec2 first = max(ivec2(ceil(pixLo - 0.5)), ivec2(0));
    ivec2 last = min(ivec2(floor(pixHi - 0.5)), uSize - 1);
    if (any(greaterThan(first, last))) return;
    ivec2 extent = last - first + 1;
    if (extent.x * extent.y > uMaxSplatPixels) {
        if (uPass == 0) largeIndex[atomicAdd(largeCommand[1], 1u)] = i;
        return;
    }
    for (int y = first.y; y <= last.y; ++y) {
        for (int x = first.x; x <= last.x; ++x) {
            ivec2 p = ivec2(x, y);
            vec3 ray = pixelRay(p);
            float t;
            if (!intersectSphere(ray, center, radius, t)) continue;
            float depth = windowDepth(uProjection, ray * t);
            if (depth < 0.0 || depth > 1.0) continue;
            uint bits = floatBitsToUint(depth);
            if (uPass == 0) {
                if (bits < imageLoad(uDepthBits, p).x) imageAtomicMin(uDepthBits, p, bits);
            } else if (bits == imageLoad(uDepthBits, p).x) {
                imageStore(uWinner, p, uvec4(i));
            }
        }
    }
}
