// SPDX-License-Identifier: GPL-3.0-or-later
// Smallest and largest |v| over the nodes, as float bits: for non-negative floats the bit
// patterns order like the values, so integer atomics do the reduction. The buffer starts as
// (+inf, 0); non-finite magnitudes are left out.
#version 450 core
layout(local_size_x = 256) in;

uniform samplerBuffer uVectors;
uniform uint uCount;
layout(std430, binding = 0) buffer Stats {
    uint minBits;
    uint maxBits;
};

shared uint sMin;
shared uint sMax;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        sMin = 0x7f800000u;
        sMax = 0u;
    }
    barrier();
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < uCount; i += stride) {
        float m = length(texelFetch(uVectors, int(i)).xyz);
        if (!isnan(m) && !isinf(m)) {
            atomicMin(sMin, floatBitsToUint(m));
            atomicMax(sMax, floatBitsToUint(m));
        }
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        atomicMin(minBits, sMin);
        atomicMax(maxBits, sMax);
    }
}
