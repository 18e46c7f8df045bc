// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Device memory of the CUDA bound motors of `gliding` and the memory check of
// docs/design/gliding.md section 4 item 4. Host code without CUDA, so that the message is
// testable on any machine with an injected free size.
#include <cstddef>
#include <string>

#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding {

// Bytes of one motor real on the device: 4 (motors.precision = float) or 8 (double).
std::size_t motorRealBytes(const GlidingParams& p);

// `anchors` below: the tails whose motors this process holds (a rank of a distributed run holds
// its rows', anchor_rows.hpp); 0 = every anchor.
// Bytes of the packed bound motors alone: N^2 tails x S configurations x motorRealBytes.
std::size_t boundMotorBytes(const GlidingParams& p, const GlidingTables& t,
                            std::size_t anchors = 0);

// Everything MotorsCuda allocates (motors_cuda.hpp): packed Mb, W, Mb,coarse and Mf in the
// motor real; F2 (fx, fy) in double; the per-tail counters and the uploaded tables.
std::size_t motorDeviceBytes(const GlidingParams& p, const GlidingTables& t,
                             std::size_t anchors = 0);

// Throws SimulationError when need = motorDeviceBytes + otherBytes exceeds 0.9 x freeBytes
// (the margin leaves room for the driver, cuFFT plans and fragmentation), with the message of
// design 4 item 4, e.g. "gliding: the run needs 6.8 GiB of device memory (bound motors 6.3 GiB
// = 65,536 tails × 12,928 configurations × 8 B); 5.1 GiB are free on NVIDIA H100. Use
// motors.precision = float or a smaller grid.n / grid.ninner". otherBytes is what the rest of
// the run holds on the device (filament arrays, cuFFT work areas, profiles): 0 when only the
// motors are checked.
// Values a tail's bound motors take in device memory: S, or chords x the longest chord with
// motors.storage = lanes (motor_kernels.cuh).
std::size_t storedSliceSize(const GlidingParams& p, const GlidingTables& t);
void checkMotorMemory(const GlidingParams& p, const GlidingTables& t, std::size_t freeBytes,
                      const std::string& deviceName, std::size_t otherBytes = 0,
                      std::size_t anchors = 0);

// The CPU backend (double everywhere): the packed motors, W, the filament arrays (Psi, the AB2
// history, the operators and the FFT buffers: about 8 copies) and the per-cell fields. Throws
// SimulationError like checkMotorMemory when the need exceeds 0.9 x availableBytes ("... of
// memory ...; N GiB are available on this computer. Use a smaller grid.n / grid.ninner or the
// CUDA backend"), before anything is allocated (a large std::vector would otherwise be killed
// by the kernel's out-of-memory handler instead of failing cleanly).
std::size_t hostRunBytes(const GlidingParams& p, const GlidingTables& t, std::size_t anchors = 0);
void checkHostMemory(const GlidingParams& p, const GlidingTables& t, std::size_t availableBytes,
                     std::size_t anchors = 0);
// MemAvailable of /proc/meminfo in bytes; 0 when it cannot be read (then nothing is checked).
std::size_t availableHostMemory();

}  // namespace cf::gliding
