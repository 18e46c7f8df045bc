// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <system_error>

#include "sim/core/errors.hpp"

namespace cf::io::detail {

namespace fs = std::filesystem;

std::string where(const fs::path& path, const std::string& what) {
    return path.string() + ": " + what;
}

fs::path temporarySibling(const fs::path& path) {
    // A per-process random tag plus a counter: two writers (threads or processes) never
    // pick the same temporary name for the same target.
    static const std::uint64_t tag = [] {
        std::random_device rd;
        return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
    }();
    static std::atomic<std::uint64_t> counter{0};
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".tmp-%016llx-%llu", static_cast<unsigned long long>(tag),
                  static_cast<unsigned long long>(counter.fetch_add(1)));
    fs::path tmp = path;
    tmp += suffix;
    return tmp;
}

void commitFile(const fs::path& tmp, const fs::path& path) {
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw IoError(where(path, "cannot move the finished file into place: " + ec.message()));
    }
}

void writeAtomically(const fs::path& path, const std::function<void(std::ostream&)>& fill) {
    ensureParentDirectory(path);
    const fs::path tmp = temporarySibling(path);
    try {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw IoError(where(path, "cannot create temporary file " + tmp.string()));
        errno = 0;
        fill(out);
        out.flush();
        if (!out)
            throw IoError(where(path, std::string("cannot write: ") +
                                          (errno != 0 ? std::strerror(errno) : "write failed") +
                                          "; the previous file, if any, is kept"));
        out.close();
        if (out.fail())
            throw IoError(where(path, std::string("closing the file failed: ") +
                                          (errno != 0 ? std::strerror(errno) : "unknown error")));
    } catch (...) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw;
    }
    commitFile(tmp, path);
}

void ensureParentDirectory(const fs::path& path) {
    const fs::path parent = path.parent_path();
    if (parent.empty()) return;
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) throw IoError(where(parent, "cannot create directory: " + ec.message()));
}

}  // namespace cf::io::detail
