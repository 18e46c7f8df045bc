// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/motor_memory.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "sim/core/errors.hpp"

namespace cf::gliding {

namespace {

// "6.8 GiB", "12.0 MiB", "512 B": one decimal in the largest binary unit that is >= 1.
std::string formatBytes(std::size_t bytes) {
    const double b = static_cast<double>(bytes);
    char text[32];
    if (b >= 1024.0 * 1024.0 * 1024.0)
        std::snprintf(text, sizeof text, "%.1f GiB", b / (1024.0 * 1024.0 * 1024.0));
    else if (b >= 1024.0 * 1024.0)
        std::snprintf(text, sizeof text, "%.1f MiB", b / (1024.0 * 1024.0));
    else if (b >= 1024.0)
        std::snprintf(text, sizeof text, "%.1f KiB", b / 1024.0);
    else
        std::snprintf(text, sizeof text, "%zu B", bytes);
    return text;
}

// 65536 -> "65,536".
std::string withThousands(std::size_t v) {
    std::string digits = std::to_string(v), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::size_t cellsOf(const GlidingTables& t) {
    return static_cast<std::size_t>(t.n) * t.n;
}

// The anchors whose motors a process holds: every one (0), or a rank's rows.
std::size_t tailsOf(const GlidingTables& t, std::size_t anchors) {
    return anchors == 0 ? cellsOf(t) : anchors;
}

}  // namespace

std::size_t motorRealBytes(const GlidingParams& p) {
    return p.precision == static_cast<std::int32_t>(MotorPrecision::Double) ? 8 : 4;
}

std::size_t storedSliceSize(const GlidingParams& p, const GlidingTables& t) {
    if (p.motorStorage == static_cast<std::int32_t>(MotorStorage::Lanes))
        return t.chords.size() * static_cast<std::size_t>(t.maxChord);
    return static_cast<std::size_t>(t.sliceSize);
}

std::size_t boundMotorBytes(const GlidingParams& p, const GlidingTables& t, std::size_t anchors) {
    return tailsOf(t, anchors) * storedSliceSize(p, t) * motorRealBytes(p);
}

std::size_t motorDeviceBytes(const GlidingParams& p, const GlidingTables& t, std::size_t anchors) {
    const std::size_t cells = cellsOf(t), tails = tailsOf(t, anchors), real = motorRealBytes(p);
    const std::size_t configs = static_cast<std::size_t>(t.ntheta) * t.ns;
    std::size_t bytes = boundMotorBytes(p, t, anchors);
    bytes += cells * configs * real;              // W (every row: a rank's anchors reach further)
    bytes += 2 * tails * real;                    // Mb,coarse, Mf
    bytes += 2 * cells * sizeof(double);          // F2 (fx, fy)
    bytes += tails * (sizeof(std::int32_t) * 2);  // substeps and clamps per tail
    bytes += sizeof(std::int32_t);                // the failed-tail flag
    bytes += t.chords.size() * (sizeof(Chord) + sizeof(std::int32_t));  // chords, orbit order
    bytes += (configs + 1) * sizeof(std::int32_t) + t.gather.size() * sizeof(GatherEntry);
    bytes += configs * sizeof(PeskinStencil) + 2 * t.ntheta * sizeof(double);  // Peskin, p_j
    return bytes;
}

void checkMotorMemory(const GlidingParams& p, const GlidingTables& t, std::size_t freeBytes,
                      const std::string& deviceName, std::size_t otherBytes, std::size_t anchors) {
    const std::size_t need = motorDeviceBytes(p, t, anchors) + otherBytes;
    // 0.9 x free, in integers (free sizes reach 1e11; no rounding question).
    if (need <= freeBytes / 10 * 9) return;
    const bool dbl = motorRealBytes(p) == 8;
    throw SimulationError(
        "gliding: the run needs " + formatBytes(need) + " of device memory (bound motors " +
        formatBytes(boundMotorBytes(p, t, anchors)) + " = " + withThousands(tailsOf(t, anchors)) +
        " tails × " + withThousands(storedSliceSize(p, t)) + " configurations × " +
        std::to_string(motorRealBytes(p)) + " B); " + formatBytes(freeBytes) + " are free on " +
        deviceName + ". Use " +
        (dbl ? "motors.precision = float or a smaller grid.n / grid.ninner"
             : "a smaller grid.n / grid.ninner"));
}

std::size_t hostRunBytes(const GlidingParams& p, const GlidingTables& t, std::size_t anchors) {
    const std::size_t cells = static_cast<std::size_t>(p.n) * static_cast<std::size_t>(p.n);
    const std::size_t configs = static_cast<std::size_t>(t.ntheta) * static_cast<std::size_t>(t.ns);
    std::size_t bytes =
        tailsOf(t, anchors) * static_cast<std::size_t>(t.sliceSize) * sizeof(double);  // Mb
    bytes += cells * configs * sizeof(double);                                         // W
    bytes += 8 * cells * static_cast<std::size_t>(t.ntheta) * sizeof(double);  // Psi and co.
    bytes += 40 * cells * sizeof(double);  // moments, stresses, flow, motor sums, FFT fields
    return bytes;
}

void checkHostMemory(const GlidingParams& p, const GlidingTables& t, std::size_t availableBytes,
                     std::size_t anchors) {
    const std::size_t need = hostRunBytes(p, t, anchors);
    if (availableBytes == 0 || need <= availableBytes / 10 * 9) return;
    throw SimulationError(
        "gliding: the run needs " + formatBytes(need) + " of memory (bound motors " +
        formatBytes(tailsOf(t, anchors) * static_cast<std::size_t>(t.sliceSize) * sizeof(double)) +
        " = " + withThousands(tailsOf(t, anchors)) + " tails × " +
        withThousands(static_cast<std::size_t>(t.sliceSize)) + " configurations × 8 B); " +
        formatBytes(availableBytes) +
        " are available on this computer. Use a smaller grid.n / grid.ninner or the CUDA backend");
}

std::size_t availableHostMemory() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return 0;
}

}  // namespace cf::gliding
