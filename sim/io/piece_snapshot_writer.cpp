// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/piece_snapshot_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <span>
#include <system_error>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/io/atomic_file.hpp"
#include "sim/io/snapshot_file.hpp"
#include "sim/io/snapshot_writer.hpp"

namespace cf::io {

namespace fs = std::filesystem;
using detail::where;
using nlohmann::json;

namespace {

// What rank 0 needs of every rank's piece travels through Communicator::gather as JSON
// (doubles round-trip exactly, so the .xmf holds the same origins as one written serially).
json toJson(const XdmfEntry& e) {
    json fields = json::array();
    for (const auto& f : e.fields)
        fields.push_back({{"name", f.name},
                          {"type", static_cast<int>(f.type)},
                          {"role", static_cast<int>(f.role)},
                          {"count", f.count},
                          {"components", f.components}});
    return {{"file", e.file},
            {"step", e.step},
            {"time", e.time},
            {"box_lo", e.boxLo},
            {"box_hi", e.boxHi},
            {"grid_dims", e.gridDims},
            {"whole_dims", e.wholeDims},
            {"vertex_dataset", e.vertexDataset},
            {"fields", fields}};
}

XdmfEntry entryFromJson(const json& j) {
    XdmfEntry e;
    e.file = j.at("file").get<std::string>();
    e.step = j.at("step").get<std::uint64_t>();
    e.time = j.at("time").get<double>();
    for (int i = 0; i < 3; ++i) {
        e.boxLo[i] = j.at("box_lo").at(i).get<double>();
        e.boxHi[i] = j.at("box_hi").at(i).get<double>();
        e.gridDims[i] = j.at("grid_dims").at(i).get<std::size_t>();
        e.wholeDims[i] = j.at("whole_dims").at(i).get<std::size_t>();
    }
    e.vertexDataset = j.at("vertex_dataset").get<std::string>();
    for (const json& f : j.at("fields"))
        e.fields.push_back({f.at("name").get<std::string>(),
                            static_cast<ScalarType>(f.at("type").get<int>()),
                            static_cast<FieldRole>(f.at("role").get<int>()),
                            f.at("count").get<std::size_t>(), f.at("components").get<int>()});
    return e;
}

std::vector<std::vector<std::byte>> gatherText(dist::Communicator& comm, const std::string& text) {
    return comm.gather(std::as_bytes(std::span<const char>(text.data(), text.size())), 0);
}

std::string textOf(const std::vector<std::byte>& bytes) {
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// Rank 0's `text` on every rank.
std::string broadcastText(dist::Communicator& comm, const std::string& text) {
    std::vector<std::byte> bytes(text.size());
    if (!text.empty()) std::memcpy(bytes.data(), text.data(), text.size());
    comm.broadcast(bytes, 0);
    return textOf(bytes);
}

std::string rankFailure(int rank, const std::string& what) {
    return "rank " + std::to_string(rank) + ": " + what;
}

// The step of `name` when it is rank `rank`'s piece file of `model`.
std::optional<std::uint64_t> pieceStep(const std::string& name, const std::string& model,
                                       int rank) {
    const std::string prefix = model + "_";
    char tail[32];
    std::snprintf(tail, sizeof tail, ".r%04d.h5", rank);
    if (name.size() != prefix.size() + 9 + std::strlen(tail) ||
        name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(prefix.size() + 9, std::string::npos, tail) != 0)
        return std::nullopt;
    const std::string digits = name.substr(prefix.size(), 9);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return std::stoull(digits);
}

XdmfEntry describePiece(const Snapshot& s, const fs::path& path, const std::size_t wholeDims[3]) {
    XdmfEntry entry = XdmfEntry::describe(s, "snapshots/" + path.filename().string());
    for (int i = 0; i < 3; ++i)
        entry.wholeDims[i] = wholeDims[i];
    return entry;
}

std::string dimsText(const std::size_t d[3]) {
    return std::to_string(d[0]) + " x " + std::to_string(d[1]) + " x " + std::to_string(d[2]);
}

}  // namespace

fs::path snapshotPiecePath(const fs::path& dir, const std::string& model, std::uint64_t step,
                           int rank) {
    char tail[32];
    std::snprintf(tail, sizeof tail, ".r%04d.h5", rank);
    return dir / "snapshots" / (detail::snapshotStem(model, step) + tail);
}

PieceSnapshotWriter::PieceSnapshotWriter(fs::path dir, std::string modelName,
                                         dist::Communicator& comm)
    : dir_(std::move(dir)), model_(std::move(modelName)), comm_(comm) {
    if (!hdf5Available())
        throw IoError(where(dir_,
                            "this build has no HDF5 support (configure with CELLFORGE_HDF5=ON "
                            "and libhdf5-dev installed to write snapshots)"));
    detail::checkModelName(dir_, model_);
    std::error_code ec;
    fs::create_directories(dir_ / "snapshots", ec);
    if (ec) throw IoError(where(dir_ / "snapshots", "cannot create directory: " + ec.message()));
}

fs::path PieceSnapshotWriter::xdmfPath() const {
    return dir_ / (model_ + ".xmf");
}

fs::path PieceSnapshotWriter::gridXdmfPath() const {
    return dir_ / (model_ + "_grid.xmf");
}

void PieceSnapshotWriter::writeXdmf() const {
    const auto any = [&](XdmfMesh mesh) {
        return std::any_of(steps_.begin(), steps_.end(), [&](const auto& pieces) {
            return std::any_of(pieces.begin(), pieces.end(),
                               [&](const XdmfEntry& e) { return holdsMesh(e, mesh); });
        });
    };
    const bool particles = any(XdmfMesh::Particles), grid = any(XdmfMesh::Grid);
    const auto write = [&](const fs::path& path, XdmfMesh mesh) {
        const std::string xml = xdmfPiecesDocument(model_, steps_, mesh);
        detail::writeAtomically(path, [&](std::ostream& out) { out << xml; });
    };
    // The same choice of documents as SnapshotWriter::writeXdmf.
    write(xdmfPath(), particles || !grid ? XdmfMesh::Particles : XdmfMesh::Grid);
    if (particles && grid) {
        write(gridXdmfPath(), XdmfMesh::Grid);
    } else {
        std::error_code ignored;
        fs::remove(gridXdmfPath(), ignored);
    }
}

void PieceSnapshotWriter::agree(const std::string& error) const {
    const std::string failure = broadcastText(comm_, error);
    if (!failure.empty()) throw IoError(failure);
}

fs::path PieceSnapshotWriter::write(const Snapshot& piece, const dist::GridPiece& at) {
    const int rank = comm_.rank(), ranks = comm_.size();
    const fs::path path = snapshotPiecePath(dir_, model_, piece.step, rank);
    std::string error;
    XdmfEntry entry;
    // Every rank reaches the gather below whatever happens here: a rank that threw past it
    // would leave the others waiting.
    try {
        if (piece.gridDims[0] != at.dims[0] || piece.gridDims[1] != at.dims[1] ||
            piece.gridDims[2] != at.dims[2])
            throw IoError(where(path, "the piece's grid is " + dimsText(piece.gridDims) +
                                          ", its GridPiece says " + dimsText(at.dims)));
        entry = describePiece(piece, path, at.globalDims);
        detail::PieceAttributes attributes;
        for (int i = 0; i < 3; ++i) {
            attributes.offset[i] = at.offset[i];
            attributes.globalDims[i] = at.globalDims[i];
        }
        attributes.rank = rank;
        attributes.ranks = ranks;
        detail::writeSnapshotFile(path, model_, piece, xdmfParticleCount(entry), &attributes);
    } catch (const std::exception& e) {
        error = e.what();
    }
    const json mine = {{"error", error}, {"entry", toJson(entry)}};
    const auto all = gatherText(comm_, mine.dump());
    std::string failure;
    if (rank == 0) {
        try {
            std::vector<XdmfEntry> pieces;
            for (std::size_t r = 0; r < all.size() && failure.empty(); ++r) {
                const json theirs = json::parse(textOf(all[r]));
                const std::string e = theirs.at("error").get<std::string>();
                if (!e.empty()) failure = rankFailure(static_cast<int>(r), e);
                pieces.push_back(entryFromJson(theirs.at("entry")));
                if (failure.empty() && pieces.back().step != piece.step)
                    failure =
                        rankFailure(static_cast<int>(r),
                                    "wrote step " + std::to_string(pieces.back().step) +
                                        " while rank 0 wrote step " + std::to_string(piece.step));
            }
            if (failure.empty()) {
                // Rewriting a step (a restart) replaces it rather than adding it again.
                const auto same = std::find_if(steps_.begin(), steps_.end(), [&](const auto& s) {
                    return s.front().step == piece.step;
                });
                if (same != steps_.end())
                    *same = std::move(pieces);
                else
                    steps_.push_back(std::move(pieces));
                writeXdmf();
            }
        } catch (const std::exception& e) {
            failure = rankFailure(0, e.what());
        }
    }
    agree(failure);
    if (std::find(files_.begin(), files_.end(), path) == files_.end()) files_.push_back(path);
    return path;
}

void PieceSnapshotWriter::adoptExisting(std::uint64_t upToStep) {
    const int rank = comm_.rank(), ranks = comm_.size();
    std::vector<std::pair<std::uint64_t, fs::path>> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_ / "snapshots", ec)) {
        const auto step = pieceStep(e.path().filename().string(), model_, rank);
        if (step && *step <= upToStep) found.emplace_back(*step, e.path());
    }
    std::sort(found.begin(), found.end());
    // Each rank describes its own pieces from their headers; rank 0 keeps the steps every
    // rank of this run wrote.
    std::string error;
    json mine = json::array();
    try {
        for (const auto& [step, path] : found) {
            const detail::SnapshotFile file = detail::readSnapshotFile(path, false);
            if (!file.piece || file.piece->ranks != ranks || file.piece->rank != rank)
                continue;  // an earlier run on another number of ranks
            std::size_t whole[3];
            for (int i = 0; i < 3; ++i)
                whole[i] = file.piece->globalDims[i];
            XdmfEntry entry = describePiece(file.snapshot, path, whole);
            if (!entry.vertexDataset.empty() && !detail::holdsDataset(path, kVertexDataset))
                entry.vertexDataset.clear();
            mine.push_back(toJson(entry));
        }
    } catch (const std::exception& e) {
        error = e.what();
    }
    const auto all = gatherText(comm_, json{{"error", error}, {"entries", mine}}.dump());
    std::string failure;
    json kept = json::array();
    if (rank == 0) {
        try {
            std::vector<std::vector<XdmfEntry>> byRank;
            for (std::size_t r = 0; r < all.size(); ++r) {
                const json theirs = json::parse(textOf(all[r]));
                const std::string e = theirs.at("error").get<std::string>();
                if (!e.empty() && failure.empty()) failure = rankFailure(static_cast<int>(r), e);
                byRank.emplace_back();
                for (const json& j : theirs.at("entries"))
                    byRank.back().push_back(entryFromJson(j));
            }
            steps_.clear();
            for (const XdmfEntry& first : byRank.front()) {
                std::vector<XdmfEntry> pieces{first};
                for (std::size_t r = 1; r < byRank.size(); ++r) {
                    const auto it =
                        std::find_if(byRank[r].begin(), byRank[r].end(),
                                     [&](const XdmfEntry& e) { return e.step == first.step; });
                    if (it == byRank[r].end()) break;
                    pieces.push_back(*it);
                }
                if (pieces.size() != byRank.size()) continue;  // a step some rank never wrote
                kept.push_back(first.step);
                steps_.push_back(std::move(pieces));
            }
            if (failure.empty()) writeXdmf();
        } catch (const std::exception& e) {
            failure = rankFailure(0, e.what());
        }
    }
    const json verdict =
        json::parse(broadcastText(comm_, json{{"error", failure}, {"steps", kept}}.dump()));
    const std::string verdictError = verdict.at("error").get<std::string>();
    if (!verdictError.empty()) throw IoError(verdictError);
    files_.clear();
    for (const json& s : verdict.at("steps"))
        files_.push_back(snapshotPiecePath(dir_, model_, s.get<std::uint64_t>(), rank));
}

SnapshotPiece readSnapshotPiece(const fs::path& h5) {
    detail::SnapshotFile file = detail::readSnapshotFile(h5, true);
    if (!file.piece)
        throw IoError(where(h5, "not a piece of a distributed snapshot (no piece_offset)"));
    SnapshotPiece p;
    p.snapshot = std::move(file.snapshot);
    for (int i = 0; i < 3; ++i) {
        p.where.offset[i] = file.piece->offset[i];
        p.where.globalDims[i] = file.piece->globalDims[i];
        p.where.dims[i] = p.snapshot.gridDims[i];
    }
    p.rank = file.piece->rank;
    p.ranks = file.piece->ranks;
    return p;
}

Snapshot assembleSnapshotPieces(const std::vector<SnapshotPiece>& pieces) {
    if (pieces.empty()) throw IoError("no pieces to assemble");
    const SnapshotPiece& first = pieces.front();
    const auto failure = [&](const SnapshotPiece& p, const std::string& what) {
        return IoError("piece of rank " + std::to_string(p.rank) + " of step " +
                       std::to_string(p.snapshot.step) + ": " + what);
    };
    Snapshot whole;
    whole.step = first.snapshot.step;
    whole.time = first.snapshot.time;
    whole.timeUnit = first.snapshot.timeUnit;
    std::size_t cells = 1;
    for (int i = 0; i < 3; ++i) {
        whole.gridDims[i] = first.where.globalDims[i];
        whole.boxLo[i] = first.snapshot.boxLo[i];
        whole.boxHi[i] = first.snapshot.boxHi[i];
        cells *= whole.gridDims[i];
    }
    // Every cell of the whole grid in exactly one piece.
    std::vector<unsigned char> covered(cells, 0);
    for (std::size_t r = 0; r < pieces.size(); ++r) {
        const SnapshotPiece& p = pieces[r];
        if (p.rank != static_cast<int>(r) || p.ranks != static_cast<int>(pieces.size()))
            throw failure(p, "is rank " + std::to_string(p.rank) + " of " +
                                 std::to_string(p.ranks) + ", expected rank " + std::to_string(r) +
                                 " of " + std::to_string(pieces.size()));
        if (p.snapshot.step != whole.step)
            throw failure(p, "is not of step " + std::to_string(whole.step));
        for (int i = 0; i < 3; ++i) {
            if (p.where.globalDims[i] != whole.gridDims[i])
                throw failure(p, "belongs to a grid of " + dimsText(p.where.globalDims) + ", not " +
                                     dimsText(whole.gridDims));
            if (p.where.offset[i] + p.where.dims[i] > whole.gridDims[i])
                throw failure(p, "reaches past the whole grid");
            whole.boxLo[i] = std::min(whole.boxLo[i], p.snapshot.boxLo[i]);
            whole.boxHi[i] = std::max(whole.boxHi[i], p.snapshot.boxHi[i]);
        }
        const std::size_t* o = p.where.offset;
        const std::size_t* d = p.where.dims;
        const std::size_t* g = whole.gridDims;
        for (std::size_t z = 0; z < d[2]; ++z)
            for (std::size_t y = 0; y < d[1]; ++y)
                for (std::size_t x = 0; x < d[0]; ++x) {
                    unsigned char& c = covered[((o[2] + z) * g[1] + o[1] + y) * g[0] + o[0] + x];
                    if (c != 0) throw failure(p, "overlaps another piece");
                    c = 1;
                }
    }
    if (std::find(covered.begin(), covered.end(), 0) != covered.end())
        throw IoError("the pieces of step " + std::to_string(whole.step) +
                      " leave cells of the whole grid uncovered");

    for (const Field& f : first.snapshot.fields) {
        Field out = f;
        out.bytes.clear();
        out.count = 0;
        const std::size_t tuple = static_cast<std::size_t>(f.components) * sizeOf(f.type);
        if (f.role == FieldRole::Grid) {
            out.count = cells;
            out.bytes.resize(cells * tuple);
        }
        for (const SnapshotPiece& p : pieces) {
            const Field* mine = p.snapshot.find(f.name);
            if (mine == nullptr || mine->type != f.type || mine->role != f.role ||
                mine->components != f.components)
                throw failure(p, "has no field '" + f.name + "' like rank 0's");
            if (f.role != FieldRole::Grid) {  // the ranks' values in rank order
                out.bytes.insert(out.bytes.end(), mine->bytes.begin(), mine->bytes.end());
                out.count += mine->count;
                continue;
            }
            const std::size_t* o = p.where.offset;
            const std::size_t* d = p.where.dims;
            const std::size_t* g = whole.gridDims;
            if (mine->count != d[0] * d[1] * d[2] || mine->bytes.size() != mine->count * tuple)
                throw failure(p, "field '" + f.name + "' has " + std::to_string(mine->count) +
                                     " values for " + dimsText(d) + " cells");
            const std::size_t row = d[0] * tuple;
            for (std::size_t z = 0; z < d[2]; ++z)
                for (std::size_t y = 0; y < d[1]; ++y)
                    std::memcpy(
                        out.bytes.data() + (((o[2] + z) * g[1] + o[1] + y) * g[0] + o[0]) * tuple,
                        mine->bytes.data() + (z * d[1] + y) * row, row);
        }
        whole.fields.push_back(std::move(out));
    }
    return whole;
}

Snapshot readSnapshotPieces(const fs::path& dir, const std::string& model, std::uint64_t step) {
    std::vector<SnapshotPiece> pieces;
    pieces.push_back(readSnapshotPiece(snapshotPiecePath(dir, model, step, 0)));
    for (int r = 1; r < pieces.front().ranks; ++r)
        pieces.push_back(readSnapshotPiece(snapshotPiecePath(dir, model, step, r)));
    return assembleSnapshotPieces(pieces);
}

}  // namespace cf::io
