// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A whole grid snapshot whose values tell where they are, and its pieces as the ranks of a
// distributed run hold them (grid fields cut with dist::cutPiece, boxes shifted to the
// piece's place): shared by the io unit tests, the rank test and the ParaView test's writer.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/snapshot.hpp"
#include "sim/dist/grid_gather.hpp"
#include "sim/dist/slab.hpp"

namespace cf::io::testing {

// A grid of `dims` cells over [lo, hi): "index" (u64, the cell's index in the whole grid, x
// fastest), "where" (f64 x 3: the cell centre) and "odd" (f32: index / 7, not exact in
// binary), plus, with `particles`, 5 particles ("positions", f64 x 3, and "id", u32).
inline Snapshot makeWholeGrid(const std::size_t dims[3], const double lo[3], const double hi[3],
                              std::uint64_t step, bool particles = false) {
    Snapshot s;
    s.step = step;
    s.time = 0.125 * static_cast<double>(step);
    s.timeUnit = "ms";
    for (int i = 0; i < 3; ++i) {
        s.gridDims[i] = dims[i];
        s.boxLo[i] = lo[i];
        s.boxHi[i] = hi[i];
    }
    const std::size_t n = dims[0] * dims[1] * dims[2];
    std::vector<std::uint64_t> index(n);
    std::vector<double> where(3 * n);
    std::vector<float> odd(n);
    for (std::size_t c = 0; c < n; ++c) {
        index[c] = c + 1000 * step;
        const std::size_t at[3] = {c % dims[0], c / dims[0] % dims[1], c / (dims[0] * dims[1])};
        for (int i = 0; i < 3; ++i)
            where[3 * c + i] = lo[i] + (static_cast<double>(at[i]) + 0.5) * (hi[i] - lo[i]) /
                                           static_cast<double>(dims[i]);
        odd[c] = static_cast<float>(index[c]) / 7.0f;
    }
    s.fields.push_back(Field::of<std::uint64_t>("index", "1", FieldRole::Grid, 1, index));
    s.fields.push_back(Field::of<double>("where", "um", FieldRole::Grid, 3, where));
    s.fields.push_back(Field::of<float>("odd", "1", FieldRole::Grid, 1, odd));
    if (particles) {
        std::vector<double> pos(15);
        std::vector<std::uint32_t> id(5);
        for (std::size_t i = 0; i < 5; ++i) {
            id[i] = static_cast<std::uint32_t>(i);
            for (int a = 0; a < 3; ++a)
                pos[3 * i + a] = lo[a] + 0.1 * static_cast<double>(i + 1) * (hi[a] - lo[a]);
        }
        s.fields.push_back(Field::of<double>("positions", "um", FieldRole::Positions, 3, pos));
        s.fields.push_back(Field::of<std::uint32_t>("id", "1", FieldRole::PerEntity, 1, id));
    }
    return s;
}

// The piece `where` of `whole`: grid fields cut out, gridDims and box the piece's (the
// whole's own bounds where the piece reaches them, as a model computes them). Particles
// (non-grid fields) all go to the piece at the whole's origin, the others get none.
inline Snapshot pieceOfWhole(const Snapshot& whole, const dist::GridPiece& where) {
    Snapshot p;
    p.step = whole.step;
    p.time = whole.time;
    p.timeUnit = whole.timeUnit;
    bool first = true;
    for (int i = 0; i < 3; ++i) {
        const double h = (whole.boxHi[i] - whole.boxLo[i]) / static_cast<double>(whole.gridDims[i]);
        p.gridDims[i] = where.dims[i];
        p.boxLo[i] = where.offset[i] == 0
                         ? whole.boxLo[i]
                         : whole.boxLo[i] + static_cast<double>(where.offset[i]) * h;
        p.boxHi[i] =
            where.offset[i] + where.dims[i] == whole.gridDims[i]
                ? whole.boxHi[i]
                : whole.boxLo[i] + static_cast<double>(where.offset[i] + where.dims[i]) * h;
        first = first && where.offset[i] == 0;
    }
    for (const Field& f : whole.fields) {
        Field piece = f;
        if (f.role == FieldRole::Grid) {
            piece.bytes =
                dist::cutPiece(where, std::span<const std::byte>(f.bytes.data(), f.bytes.size()),
                               static_cast<std::size_t>(f.components) * sizeOf(f.type));
            piece.count = where.dims[0] * where.dims[1] * where.dims[2];
        } else if (!first) {
            piece.bytes.clear();
            piece.count = 0;
        }
        p.fields.push_back(std::move(piece));
    }
    return p;
}

// The pieces of `ranks` ranks splitting a grid of `dims` along `axis` (dist::slabOf).
inline std::vector<dist::GridPiece> slabPieces(const std::size_t dims[3], int axis, int ranks) {
    std::vector<dist::GridPiece> out;
    for (int r = 0; r < ranks; ++r)
        out.push_back(dist::pieceOf(
            dist::slabOf(axis, static_cast<int>(dims[axis]), r, ranks, false, "test grid"), dims));
    return out;
}

}  // namespace cf::io::testing
