// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Faults a test injects into a real process, to show what a user sees when the machine
// fails: the environment variable CELLFORGE_FAULTS lists them, comma-separated, e.g.
//   CELLFORGE_FAULTS=device-memory=64M    device allocations fail (as cudaMalloc does when
//                                         memory is short) once this many bytes are held
//   CELLFORGE_FAULTS=nvrtc-compile        every NVRTC compilation fails with a log
// Only rare paths ask (allocations, compilations), and they read the variable each time,
// so a test may set it between steps. A disk that fills is injected from outside the
// process (tests/support/fault_fs.c, preloaded), as it must also reach FFmpeg and HDF5.
#include <cstddef>
#include <optional>
#include <string_view>

namespace cf {

// Whether `name` is listed in CELLFORGE_FAULTS (with or without a value).
bool faultInjected(std::string_view name);
// The value of `name=VALUE` in CELLFORGE_FAULTS as a byte count ("4096", "64K", "3M",
// "1G"); nullopt when absent or not a size.
std::optional<std::size_t> faultBytes(std::string_view name);

// Device memory held through cuda::DeviceBuffer, for the device-memory fault: an
// allocation of `bytes` that would pass the injected limit reports failure (true).
bool deviceAllocationFails(std::size_t bytes);
std::size_t deviceBytesHeld();
void deviceBytesAllocated(std::size_t bytes);
void deviceBytesReleased(std::size_t bytes);

}  // namespace cf
