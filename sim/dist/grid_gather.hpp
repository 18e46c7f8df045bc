// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A grid field held in pieces by the ranks (each piece x fastest over its own box),
// assembled on one rank in the whole grid's order: for metrics that must equal those of
// one rank, and for tests that compare a distributed run with a serial one.
#include <cstring>
#include <span>
#include <vector>

#include "sim/dist/communicator.hpp"
#include "sim/dist/slab.hpp"

namespace cf::dist {

// The whole grid of `components` values per node on `root` (empty elsewhere), from every
// rank's piece `local` laid out as `piece`.
std::vector<std::byte> gatherGridBytes(Communicator& comm, const GridPiece& piece,
                                       std::span<const std::byte> local, std::size_t valueBytes,
                                       int root);

template <typename T>
std::vector<T> gatherGrid(Communicator& comm, const GridPiece& piece, std::span<const T> local,
                          int root = 0) {
    const std::vector<std::byte> bytes =
        gatherGridBytes(comm, piece, std::as_bytes(local), sizeof(T), root);
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

// The values of `whole` (a grid laid out x fastest over piece.globalDims, `valueBytes` per
// node) inside `piece`, x fastest over the piece's box.
std::vector<std::byte> cutPiece(const GridPiece& piece, std::span<const std::byte> whole,
                                std::size_t valueBytes);

template <typename T>
std::vector<T> cutPiece(const GridPiece& piece, const std::vector<T>& whole) {
    const std::vector<std::byte> bytes =
        cutPiece(piece, std::as_bytes(std::span<const T>(whole)), sizeof(T));
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

}  // namespace cf::dist
