// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every fuzz target shares. The contract under test: a parser given any bytes either
// returns or throws a typed cf::Error (the message a user sees). Anything else -- a crash, a
// sanitizer report, a hang, or any other exception escaping (std::bad_alloc from a length
// read off the input, std::out_of_range, ...) -- is a defect, reported by aborting.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <typeinfo>

#include "sim/core/errors.hpp"

namespace cf::fuzz {

template <class Body>
void expectTypedErrorsOnly(Body&& body) {
    try {
        body();
    } catch (const cf::Error&) {
        // The documented outcome of bad input.
    } catch (const std::exception& e) {
        std::fprintf(stderr, "untyped exception %s: %s\n", typeid(e).name(), e.what());
        std::abort();
    }
}

// Parsers that read files get the input through one scratch file per process (in /dev/shm
// when it exists: no disk traffic per execution).
inline std::filesystem::path scratchFile(const std::string& extension) {
    const std::filesystem::path dir =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    return dir / ("cellforge-fuzz-" + std::to_string(::getpid()) + extension);
}

inline void writeScratch(const std::filesystem::path& path, const std::uint8_t* data,
                         std::size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

}  // namespace cf::fuzz
