// SPDX-License-Identifier: GPL-3.0-or-later
// The snapshots of a distributed `gliding` run (anchor_rows.hpp): a rank's rows of every field.
// Built with the model (FFTW), apart from anchor_rows.cpp, which the CPU motors use everywhere.
#include <cstring>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/anchor_rows.hpp"
#include "sim/models/gliding/gliding_model.hpp"

namespace cf::gliding {

namespace {

// The per-cell fields of makeSnapshot (n^2 tuples); the others are not split by rows: the two
// AB2 scalars are the same on every rank and bound_packed holds this rank's anchors already.
bool splitByRows(const Field& f) {
    return f.name != "ab2_step" && f.name != "bound_packed";
}

}  // namespace

Snapshot rowsSnapshot(const GlidingParams& p, const GlidingTables& t, const RunState& s,
                      const AnchorRows& rows) {
    Snapshot snap = makeSnapshot(p, t, s);
    if (rows.whole()) return snap;
    const std::size_t cells = static_cast<std::size_t>(t.n) * t.n;
    for (Field& f : snap.fields) {
        if (!splitByRows(f) || f.count != cells) continue;
        const std::size_t tuple = f.bytes.size() / f.count;
        std::vector<std::byte> part(
            f.bytes.begin() + static_cast<std::ptrdiff_t>(rows.firstAnchor() * tuple),
            f.bytes.begin() +
                static_cast<std::ptrdiff_t>((rows.firstAnchor() + rows.anchors()) * tuple));
        f.bytes = std::move(part);
        f.count = rows.anchors();
    }
    snap.gridDims[1] = static_cast<std::size_t>(rows.end - rows.begin);
    snap.boxLo[1] = static_cast<double>(rows.begin) / t.n;
    snap.boxHi[1] = static_cast<double>(rows.end) / t.n;
    return snap;
}

RunState readRowsSnapshot(dist::Communicator& comm, const GlidingParams& p, const GlidingTables& t,
                          const Snapshot& piece, const AnchorRows& rows) {
    if (rows.whole()) return readSnapshot(p, t, piece);
    Snapshot whole = piece;
    const std::size_t cells = static_cast<std::size_t>(t.n) * t.n;
    for (Field& f : whole.fields) {
        if (!splitByRows(f)) continue;
        // A field of other rows is left as it is: readSnapshot names it (on every rank, after
        // the collective below, so that no rank waits alone).
        std::vector<double> values(cells * static_cast<std::size_t>(f.components), 0.0);
        if (f.count == rows.anchors() && f.type == ScalarType::F64) {
            const std::size_t at = rows.firstAnchor() * static_cast<std::size_t>(f.components);
            std::memcpy(values.data() + at, f.bytes.data(), f.bytes.size());
        }
        sumInRankOrder(comm, values);
        if (f.count == rows.anchors() && f.type == ScalarType::F64) {
            f = Field::of<double>(f.name, f.unit, f.role, f.components,
                                  std::span<const double>(values));
        }
    }
    // bound_packed holds this rank's anchors only.
    return readSnapshot(p, t, whole, rows.anchors());
}

}  // namespace cf::gliding
