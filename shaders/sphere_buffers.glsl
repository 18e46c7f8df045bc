// SPDX-License-Identifier: GPL-3.0-or-later
// The point cloud's buffers read as storage buffers (the splat path and the raster draw of
// large spheres pull per-sphere data by index instead of through vertex attributes).
layout(std430, binding = 0) readonly buffer SpherePoints { vec4 spherePoints[]; };
layout(std430, binding = 1) readonly buffer SphereScalars { float sphereScalars[]; };
layout(std430, binding = 2) readonly buffer SphereCategories { uint sphereCategoryWords[]; };
// Spheres too large to splat: an indirect draw command {count, instanceCount, first,
// baseInstance} followed by the sphere indices the raster path draws.
layout(std430, binding = 3) buffer LargeSpheres {
    uint largeCommand[4];
    uint largeIndex[];
};

uint sphereCategory(uint i) {
    return (sphereCategoryWords[i >> 2] >> ((i & 3u) * 8u)) & 0xffu;
}
