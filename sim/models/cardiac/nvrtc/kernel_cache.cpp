// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/nvrtc/kernel_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

namespace cf::cardiac {

namespace {

constexpr char kMagic[] = "cellforge-kernel 2\n";

std::mutex& cacheMutex() {
    static std::mutex m;
    return m;
}

std::map<std::string, CachedImage>& memory() {
    static std::map<std::string, CachedImage> entries;
    return entries;
}

std::filesystem::path entryPath(const std::string& key) {
    const std::string dir = kernelCacheDirectory();
    if (dir.empty()) return {};
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.kernel",
                  static_cast<unsigned long long>(kernelCacheHash(key)));
    return std::filesystem::path(dir) / name;
}

// Entry layout: magic, then "<key bytes> <image bytes> <ptx 0|1> <image hash>\n", the key,
// the image. The hash (FNV-1a of the image) catches a damaged image of the right length,
// which the driver would refuse to load.
std::optional<CachedImage> readEntry(const std::filesystem::path& path, const std::string& key) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string magic(sizeof kMagic - 1, '\0');
    in.read(magic.data(), static_cast<std::streamsize>(magic.size()));
    if (!in || magic != kMagic) return std::nullopt;
    std::size_t keySize = 0, imageSize = 0;
    int ptx = 0;
    unsigned long long imageHash = 0;
    in >> keySize >> imageSize >> ptx >> imageHash;
    in.get();  // the newline
    if (!in || keySize != key.size() || imageSize == 0 || imageSize > (std::size_t{1} << 30))
        return std::nullopt;
    std::string stored(keySize, '\0');
    in.read(stored.data(), static_cast<std::streamsize>(keySize));
    if (!in || stored != key) return std::nullopt;  // another key with the same hash
    CachedImage out;
    out.image.resize(imageSize);
    in.read(out.image.data(), static_cast<std::streamsize>(imageSize));
    if (!in) return std::nullopt;
    if (kernelCacheHash(std::string(out.image.begin(), out.image.end())) != imageHash)
        return std::nullopt;  // damaged
    out.ptx = ptx != 0;
    return out;
}

void writeEntry(const std::filesystem::path& path, const std::string& key, const CachedImage& k) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return;
    // Written aside and renamed: a reader never sees half an entry, and two processes
    // writing the same entry leave one whole copy.
    const std::filesystem::path tmp =
        path.string() + ".tmp" + std::to_string(static_cast<long long>(::getpid()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return;
        out << kMagic << key.size() << ' ' << k.image.size() << ' ' << (k.ptx ? 1 : 0) << ' '
            << static_cast<unsigned long long>(
                   kernelCacheHash(std::string(k.image.begin(), k.image.end())))
            << '\n';
        out.write(key.data(), static_cast<std::streamsize>(key.size()));
        out.write(k.image.data(), static_cast<std::streamsize>(k.image.size()));
        if (!out) {
            out.close();
            std::filesystem::remove(tmp, ec);
            return;
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace

std::string kernelCacheKey(const std::string& code, const std::string& name,
                           const std::string& arch, bool fastMath, const std::string& nvrtc) {
    return "nvrtc " + nvrtc + "\narch " + arch + "\nname " + name +
           (fastMath ? "\noptions --use_fast_math\n" : "\noptions\n") + code;
}

std::uint64_t kernelCacheHash(const std::string& key) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : key) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string kernelCacheDirectory() {
    if (const char* env = std::getenv("CELLFORGE_KERNEL_CACHE")) {
        const std::string dir = env;
        return dir == "off" ? std::string() : dir;
    }
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
        return (std::filesystem::path(xdg) / "cellforge" / "kernels").string();
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
        return (std::filesystem::path(home) / ".cache" / "cellforge" / "kernels").string();
    return "";
}

std::optional<CachedImage> findCachedKernel(const std::string& key, CacheHit* hit) {
    if (hit) *hit = CacheHit::None;
    std::lock_guard<std::mutex> lock(cacheMutex());
    if (auto it = memory().find(key); it != memory().end()) {
        if (hit) *hit = CacheHit::Memory;
        return it->second;
    }
    const std::filesystem::path path = entryPath(key);
    if (path.empty()) return std::nullopt;
    std::optional<CachedImage> found = readEntry(path, key);
    if (found) {
        memory().emplace(key, *found);
        if (hit) *hit = CacheHit::Disk;
    }
    return found;
}

void storeCachedKernel(const std::string& key, const CachedImage& image) {
    std::lock_guard<std::mutex> lock(cacheMutex());
    memory()[key] = image;
    if (const std::filesystem::path path = entryPath(key); !path.empty())
        writeEntry(path, key, image);
}

void clearKernelMemoryCache() {
    std::lock_guard<std::mutex> lock(cacheMutex());
    memory().clear();
}

}  // namespace cf::cardiac
