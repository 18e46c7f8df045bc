// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/snapshot_writer.hpp"

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <system_error>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/io/atomic_file.hpp"
#include "sim/io/snapshot_file.hpp"

namespace cf::io {

namespace fs = std::filesystem;
using detail::where;

fs::path SnapshotWriter::xdmfPath() const {
    return dir_ / (model_ + ".xmf");
}

fs::path SnapshotWriter::gridXdmfPath() const {
    return dir_ / (model_ + "_grid.xmf");
}

void SnapshotWriter::writeXdmf() const {
    const auto any = [&](XdmfMesh mesh) {
        return std::any_of(entries_.begin(), entries_.end(),
                           [&](const XdmfEntry& e) { return holdsMesh(e, mesh); });
    };
    const bool particles = any(XdmfMesh::Particles), grid = any(XdmfMesh::Grid);
    const auto write = [&](const fs::path& path, XdmfMesh mesh) {
        const std::string xml = xdmfDocument(model_, entries_, mesh);
        detail::writeAtomically(path, [&](std::ostream& out) { out << xml; });
    };
    // <model>.xmf holds the particles, else the grid (an empty series when there is
    // neither yet); <model>_grid.xmf the grid when there are particles too.
    write(xdmfPath(), particles || !grid ? XdmfMesh::Particles : XdmfMesh::Grid);
    if (particles && grid) {
        write(gridXdmfPath(), XdmfMesh::Grid);
    } else {
        std::error_code ignored;  // one left by an earlier run in this folder would mislead
        fs::remove(gridXdmfPath(), ignored);
    }
}

void SnapshotWriter::adoptExisting(std::uint64_t upToStep) {
    std::vector<std::pair<std::uint64_t, fs::path>> found;
    const std::string prefix = model_ + "_";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_ / "snapshots", ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() != prefix.size() + 9 + 3 || name.compare(0, prefix.size(), prefix) != 0 ||
            e.path().extension() != ".h5")
            continue;
        const std::string digits = name.substr(prefix.size(), 9);
        if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::uint64_t step = std::stoull(digits);
        if (step <= upToStep) found.emplace_back(step, e.path());
    }
    std::sort(found.begin(), found.end());
    entries_.clear();
    files_.clear();
    for (const auto& [step, path] : found) {
        const Snapshot s = detail::readSnapshotFile(path, false).snapshot;
        XdmfEntry entry = XdmfEntry::describe(s, "snapshots/" + path.filename().string());
        if (!entry.vertexDataset.empty() && !detail::holdsDataset(path, kVertexDataset))
            entry.vertexDataset.clear();  // written before the vertex dataset existed
        entries_.push_back(std::move(entry));
        files_.push_back(path);
    }
    writeXdmf();
}

SnapshotWriter::SnapshotWriter(fs::path dir, std::string modelName)
    : dir_(std::move(dir)), model_(std::move(modelName)) {
    if (!hdf5Available())
        throw IoError(where(dir_,
                            "this build has no HDF5 support (configure with CELLFORGE_HDF5=ON "
                            "and libhdf5-dev installed to write snapshots)"));
    detail::checkModelName(dir_, model_);
    std::error_code ec;
    fs::create_directories(dir_ / "snapshots", ec);
    if (ec) throw IoError(where(dir_ / "snapshots", "cannot create directory: " + ec.message()));
}

fs::path SnapshotWriter::write(const Snapshot& snapshot) {
    const std::string name = detail::snapshotStem(model_, snapshot.step) + ".h5";
    const fs::path path = dir_ / "snapshots" / name;
    XdmfEntry entry = XdmfEntry::describe(snapshot, "snapshots/" + name);
    detail::writeSnapshotFile(path, model_, snapshot, xdmfParticleCount(entry));

    // Rewriting the same step (a restart) replaces its entry rather than duplicating it.
    bool replaced = false;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].file == entry.file) {
            entries_[i] = entry;
            replaced = true;
        }
    }
    if (!replaced) {
        entries_.push_back(std::move(entry));
        files_.push_back(path);
    }
    writeXdmf();
    return path;
}

}  // namespace cf::io
