// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/dist/grid_gather.hpp"

#include "sim/core/errors.hpp"

namespace cf::dist {

namespace {

// A piece's description travels with its values: offset and dims, 6 x u64.
constexpr std::size_t kHeader = 6 * sizeof(std::uint64_t);

std::size_t nodesOf(const std::size_t d[3]) {
    return d[0] * d[1] * d[2];
}

// Copies the rows (x runs) of the box `dims` at `offset` between a piece and the whole grid.
template <bool ToWhole>
void copyRows(const std::size_t global[3], const std::size_t offset[3], const std::size_t dims[3],
              std::byte* whole, std::byte* piece, std::size_t valueBytes) {
    const std::size_t row = dims[0] * valueBytes;
    for (std::size_t k = 0; k < dims[2]; ++k)
        for (std::size_t j = 0; j < dims[1]; ++j) {
            const std::size_t w =
                ((offset[2] + k) * global[1] + (offset[1] + j)) * global[0] + offset[0];
            const std::size_t p = (k * dims[1] + j) * dims[0];
            if constexpr (ToWhole)
                std::memcpy(whole + w * valueBytes, piece + p * valueBytes, row);
            else
                std::memcpy(piece + p * valueBytes, whole + w * valueBytes, row);
        }
}

}  // namespace

std::vector<std::byte> gatherGridBytes(Communicator& comm, const GridPiece& piece,
                                       std::span<const std::byte> local, std::size_t valueBytes,
                                       int root) {
    if (local.size() != nodesOf(piece.dims) * valueBytes)
        throw Error("gatherGrid: a piece of " + std::to_string(local.size()) + " bytes for " +
                    std::to_string(nodesOf(piece.dims)) + " nodes");
    std::vector<std::byte> message(kHeader + local.size());
    const std::uint64_t header[6] = {piece.offset[0], piece.offset[1], piece.offset[2],
                                     piece.dims[0],   piece.dims[1],   piece.dims[2]};
    std::memcpy(message.data(), header, kHeader);
    if (!local.empty()) std::memcpy(message.data() + kHeader, local.data(), local.size());
    std::vector<std::vector<std::byte>> pieces = comm.gather(message, root);
    if (comm.rank() != root) return {};
    std::vector<std::byte> whole(nodesOf(piece.globalDims) * valueBytes);
    for (std::vector<std::byte>& m : pieces) {
        std::uint64_t h[6];
        std::memcpy(h, m.data(), kHeader);
        const std::size_t offset[3] = {h[0], h[1], h[2]}, dims[3] = {h[3], h[4], h[5]};
        copyRows<true>(piece.globalDims, offset, dims, whole.data(), m.data() + kHeader,
                       valueBytes);
    }
    return whole;
}

std::vector<std::byte> cutPiece(const GridPiece& piece, std::span<const std::byte> whole,
                                std::size_t valueBytes) {
    if (whole.size() != nodesOf(piece.globalDims) * valueBytes)
        throw Error("cutPiece: a grid of " + std::to_string(whole.size()) + " bytes");
    std::vector<std::byte> out(nodesOf(piece.dims) * valueBytes);
    copyRows<false>(piece.globalDims, piece.offset, piece.dims,
                    const_cast<std::byte*>(whole.data()), out.data(), valueBytes);
    return out;
}

}  // namespace cf::dist
