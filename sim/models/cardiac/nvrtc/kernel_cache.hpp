// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cache of compiled cell-model kernels (docs/design/cardiac.md section 4). A kernel is
// found by its key: the generated source, its name, the target architecture, the options and
// NVRTC's version, so any change to any of them compiles afresh. Kept in memory for the
// process (a hot reload back to an earlier text, a second model of the same kind) and on disk
// for the next start: CELLFORGE_KERNEL_CACHE names the folder ("off" disables it), else
// $XDG_CACHE_HOME/cellforge/kernels, else ~/.cache/cellforge/kernels. A disk entry holds its
// full key and is used only when the key matches; unreadable or foreign files are ignored and
// a failed write only costs the next start a compilation.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cf::cardiac {

struct CachedImage {
    std::vector<char> image;
    bool ptx = false;
    std::string log;
};

// The key of one compilation.
std::string kernelCacheKey(const std::string& code, const std::string& name,
                           const std::string& arch, bool fastMath, const std::string& nvrtc);
// FNV-1a, 64 bits: the file name of a key's disk entry.
std::uint64_t kernelCacheHash(const std::string& key);

enum class CacheHit { None, Memory, Disk };

// The image stored under `key`, from memory or else from disk (then kept in memory too).
std::optional<CachedImage> findCachedKernel(const std::string& key, CacheHit* hit = nullptr);
// Stores `image` in memory and, when a folder is set, on disk.
void storeCachedKernel(const std::string& key, const CachedImage& image);
// The disk folder in use; empty when disabled.
std::string kernelCacheDirectory();
// Forgets the in-memory entries (tests; the disk stays).
void clearKernelMemoryCache();

}  // namespace cf::cardiac
