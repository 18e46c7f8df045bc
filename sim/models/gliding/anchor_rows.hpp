// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `gliding` over several ranks, as Cook & Shinar split it (ScalA'17 section 3.3;
// docs/SCALING.md "The gliding assay"): the bound motors, the memory- and compute-heavy part
// indexed by anchor r0 = iy * n + ix, are split by rows iy of anchors, one band of whole rows
// per rank in rank order. Every rank keeps the whole filament density Psi and the flow and
// advances them itself: the same arithmetic on the same inputs, so they stay identical on every
// rank and Psi is never broadcast. Each rank sub-cycles its own anchors (their local time steps
// make the ranks independent), computes the motor force of its anchors on the nodes they reach,
// and the force is summed over the ranks in rank order: the one reduction of an outer step.
//
// On one rank the band is the whole grid and every loop runs as before, bit for bit. On more,
// the force is summed in another order (per rank, then over ranks), so the results agree with
// one rank's to round-off that the flow carries into Psi (the rank tests state the tolerance).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/dist/slab.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding {

struct RunState;
struct GlidingParams;

// Rows first .. first + count - 1 of the periodic grid (mod n); count <= n.
struct RowBand {
    std::int32_t first = 0, count = 0;  // every band of an AnchorRows is set (count >= 1)
    bool whole(std::int32_t n) const { return first == 0 && count == n; }
};

struct AnchorRows {
    std::int32_t n = 0;
    std::int32_t begin = 0, end = 0;  // the anchor rows this rank owns: [begin, end)
    RowBand w;  // rows y of W(y, j, k) the owned anchors reach (y = anchor row + gather oy)
    RowBand f;  // node rows of F2 that W reaches through the Peskin heads
    bool whole() const { return begin == 0 && end == n; }
    std::size_t anchors() const { return static_cast<std::size_t>(end - begin) * n; }
    std::size_t firstAnchor() const { return static_cast<std::size_t>(begin) * n; }
};

// Every anchor row: one rank's layout.
AnchorRows wholeGrid(const GlidingTables& t);
// Rows [begin, end) and the bands their motors reach (from the gather lists' row offsets and
// the Peskin stencils' extent); a band that would cover the grid is the whole grid.
AnchorRows anchorRows(const GlidingTables& t, std::int32_t begin, std::int32_t end);
// This rank's rows of `comm` (dist::slabOf along y, periodic). Throws ParameterError naming
// grid.n when there are more ranks than rows.
AnchorRows anchorRows(const GlidingTables& t, const dist::Communicator& comm);

// Where this rank's snapshot lies in the whole grid (n x rows x 1 cells).
dist::GridPiece rowsPiece(const AnchorRows& rows);

// values[i] summed over the ranks, in rank order (a gather to rank 0, the sums there, a
// broadcast): the same bytes on every rank, whatever the MPI library's reduction algorithm.
void sumInRankOrder(dist::Communicator& comm, std::span<double> values);

// The whole grid's per-anchor bytes (n^2 x valueBytes, anchor-major) on every rank from every
// rank's own rows `mine` (rows.anchors() x valueBytes): gathered on rank 0, then broadcast.
std::vector<std::byte> allGatherRows(dist::Communicator& comm, const AnchorRows& rows,
                                     std::span<const std::byte> mine, std::size_t valueBytes);
// The same for `per` doubles per anchor.
std::vector<double> gatherAnchors(dist::Communicator& comm, const AnchorRows& rows,
                                  std::span<const double> mine, std::size_t per);

// A distributed snapshot: this rank's rows of every field of makeSnapshot(s) (s holds the
// whole grid's fields and this rank's packed bound motors), with the piece's grid and box.
Snapshot rowsSnapshot(const GlidingParams& p, const GlidingTables& t, const RunState& s,
                      const AnchorRows& rows);
// The inverse, collective: the whole grid's fields from every rank's piece, this rank's packed
// bound motors and motor sums. Throws IoError (as readSnapshot) for a piece of other rows.
RunState readRowsSnapshot(dist::Communicator& comm, const GlidingParams& p, const GlidingTables& t,
                          const Snapshot& piece, const AnchorRows& rows);

}  // namespace cf::gliding
