// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cf {

enum class Backend { Cpu, Cuda };

std::string_view toString(Backend b);
// Parses "cpu" or "cuda" (case-sensitive); std::nullopt for anything else.
std::optional<Backend> parseBackend(std::string_view text);

// True when this build contains the CUDA backends (compiled with nvcc).
bool builtWithCuda();

// What this build *and* this machine can run: Cpu always; Cuda when the build has it
// and a CUDA device answers (a machine without an NVIDIA driver reports none).
std::vector<Backend> availableBackends();
bool isAvailable(Backend b);

// Why CUDA is unavailable ("built without CUDA", "CUDA driver version is insufficient",
// ...) or the device's name when it is available.
std::string cudaStatus();

// The one line a program logs when a run starts, saying which backend runs it and why:
// "cuda (NVIDIA H100 80GB HBM3)", "cpu (CUDA unavailable: no CUDA-capable device is
// detected)", "cpu (this build has no CUDA backend)" or "cpu (CUDA available, not chosen)".
std::string backendLine(Backend chosen);

// The best available backend: Cuda when available, else Cpu.
Backend defaultBackend();

// The backend a run uses: `requested` (a command-line name) when given, else `preferred`
// (a scenario's choice), else the best available. Throws ParameterError for an unknown
// name or an unavailable backend, with the reason.
Backend resolveBackend(const std::optional<std::string>& requested,
                       std::optional<Backend> preferred);

}  // namespace cf
