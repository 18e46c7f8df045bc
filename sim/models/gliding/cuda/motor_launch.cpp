// SPDX-License-Identifier: GPL-3.0-or-later
// The host-side sizes of the motor sub-cycle launch (motor_kernels.cuh), shared by both builds of
// motor_kernels.cu and by MotorsCuda's shared-memory check.
#include <cstddef>

#include "sim/models/gliding/cuda/motor_kernels.cuh"

namespace cf::gliding::cuda {

int motorBusyLanes(const MotorTables& t, std::int32_t mapping) {
    return mapping == static_cast<std::int32_t>(MotorLaneMapping::Runs) ? t.sliceSize
                                                                        : t.chords * t.segment;
}

int motorOrbitPad(const MotorTables& t) {
    return nextPow2Of(t.chords / 4);
}

std::size_t motorSharedBytes(const MotorTables& t, std::size_t realBytes, const MotorLaunch& l) {
    std::size_t bytes =
        (2 * static_cast<std::size_t>(t.chords) + motorOrbitPad(t)) * sizeof(double);
    if (l.mapping == static_cast<std::int32_t>(MotorLaneMapping::Strided))
        bytes += static_cast<std::size_t>(l.threads) * realBytes;
    if (l.mapping == static_cast<std::int32_t>(MotorLaneMapping::Runs))
        bytes += static_cast<std::size_t>(t.sliceSize) * realBytes;
    if (l.sliceInShared) bytes += static_cast<std::size_t>(t.sliceSize) * realBytes;
    return bytes;
}

}  // namespace cf::gliding::cuda
