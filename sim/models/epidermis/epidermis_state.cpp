// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/epidermis/epidermis_state.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "sim/core/rng.hpp"
#include "sim/models/epidermis/epidermis_model.hpp"
#include "sim/models/epidermis/epidermis_physics.hpp"

namespace cf::epidermis {

std::int64_t HostState::elements() const {
    std::int64_t n = 0;
    for (std::int32_t c = 0; c < cells; ++c)
        n += count[static_cast<std::size_t>(c)];
    return n;
}

void HostState::allocate(std::int32_t cap, std::int32_t slots) {
    capacity = cap;
    slotsPerCell = slots;
    cells = 0;
    const auto E = static_cast<std::size_t>(slots);
    const auto c = static_cast<std::size_t>(cap);
    x.assign(c * E, 0.0f);
    y.assign(c * E, 0.0f);
    z.assign(c * E, 0.0f);
    type.assign(c * E, 0);
    count.assign(c, 0);
    species.assign(kSpeciesCount * c, 0.0f);
}

void HostState::reserveCells(std::int32_t newCapacity) {
    if (newCapacity < cells) throw Error("epidermis: capacity below the active cells");
    const auto E = static_cast<std::size_t>(slotsPerCell);
    const auto oldCap = static_cast<std::size_t>(capacity);
    const auto cap = static_cast<std::size_t>(newCapacity);
    x.resize(cap * E);
    y.resize(cap * E);
    z.resize(cap * E);
    type.resize(cap * E);
    count.resize(cap);
    std::vector<float> sp(kSpeciesCount * cap, 0.0f);
    for (int k = 0; k < kSpeciesCount; ++k)
        for (std::size_t c = 0; c < std::min(oldCap, cap); ++c)
            sp[k * cap + c] = species[k * oldCap + c];
    species = std::move(sp);
    capacity = newCapacity;
}

HostState initialState(const EpidermisParams& p, std::uint32_t seed) {
    HostState s;
    s.allocate(p.initialCellCapacity > 0 ? p.initialCellCapacity : 2 * p.cells,
               p.maxElementsPerCell);
    s.cells = p.cells;

    const rng::Philox gen(seed, kInitStream);
    const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(p.cells))));
    const double pitchX = p.sizeX / side, pitchY = p.sizeY / side;
    for (std::int32_t c = 0; c < p.cells; ++c) {
        const double cx = (c % side + 0.5) * pitchX, cy = (c / side + 0.5) * pitchY;
        std::vector<std::pair<float, int>> heights;
        for (std::int32_t e = 0; e < p.elementsPerCell; ++e) {
            const auto entity = static_cast<std::uint32_t>(s.slot(c, e));
            const rng::Word4 a = gen(0, entity, 0);
            const rng::Word4 b = gen(0, entity, 1);
            const double ux = rng::uniformDouble(a.x, a.y), uy = rng::uniformDouble(a.z, a.w);
            const double uz = rng::uniformDouble(b.x, b.y);
            const std::size_t i = s.slot(c, e);
            s.x[i] = wrapPosition(static_cast<float>(cx + (2.0 * ux - 1.0) * p.initHalfWidth),
                                  p.sizeX, p.periodic);
            s.y[i] = wrapPosition(static_cast<float>(cy + (2.0 * uy - 1.0) * p.initHalfWidth),
                                  p.sizeY, p.periodic);
            s.z[i] = static_cast<float>(p.initZOffset + uz * p.initZRange);
            heights.emplace_back(s.z[i], e);
        }
        std::sort(heights.begin(), heights.end());
        for (std::int32_t k = 0; k < p.adhesivePerCell; ++k)
            s.type[s.slot(c, heights[static_cast<std::size_t>(k)].second)] = 1;
        s.count[static_cast<std::size_t>(c)] = p.elementsPerCell;
        if (p.initSpeciesNoise > 0) {
            const rng::Word4 w0 = gen(1, static_cast<std::uint32_t>(c), 0);
            const rng::Word4 w1 = gen(1, static_cast<std::uint32_t>(c), 1);
            const std::uint32_t words[8] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w};
            for (int k = 0; k < kSpeciesCount; ++k)
                if (k != kBma) s.s(k, c) = rng::uniformFloat(words[k]) * p.initSpeciesNoise;
        }
    }
    return s;
}

bool isSuprabasal(const EpidermisParams& p, const HostState& s, std::int32_t cell) {
    if (p.network) return s.s(kOvol1, cell) > s.s(kOvol2, cell);
    for (std::int32_t e = 0; e < s.count[static_cast<std::size_t>(cell)]; ++e)
        if (s.type[s.slot(cell, e)] == 1) return false;
    return true;
}

Snapshot makeSnapshot(const EpidermisParams& p, const HostState& s) {
    Snapshot snap;
    snap.step = s.step;
    snap.time = s.time;
    snap.timeUnit = "T";
    snap.boxLo[0] = snap.boxLo[1] = snap.boxLo[2] = 0.0;
    snap.boxHi[0] = p.sizeX;
    snap.boxHi[1] = p.sizeY;
    snap.boxHi[2] = p.height;
    const auto n = static_cast<std::size_t>(s.elements());
    std::vector<float> pos;
    std::vector<std::uint8_t> type, state;
    std::vector<std::int32_t> cellOf;
    pos.reserve(3 * n);
    type.reserve(n);
    state.reserve(n);
    cellOf.reserve(n);
    for (std::int32_t c = 0; c < s.cells; ++c) {
        const bool supra = isSuprabasal(p, s, c);
        for (std::int32_t e = 0; e < s.count[static_cast<std::size_t>(c)]; ++e) {
            const std::size_t i = s.slot(c, e);
            pos.insert(pos.end(), {s.x[i], s.y[i], s.z[i]});
            type.push_back(s.type[i]);
            state.push_back(s.type[i] == 1 ? 0 : (supra ? 2 : 1));
            cellOf.push_back(c);
        }
    }
    snap.fields.push_back(Field::of<float>("position", "L", FieldRole::Positions, 3, pos));
    snap.fields.push_back(
        Field::of<std::uint8_t>("element_type", "1", FieldRole::PerEntity, 1, type));
    snap.fields.push_back(
        Field::of<std::int32_t>("element_cell", "1", FieldRole::PerEntity, 1, cellOf));
    snap.fields.push_back(
        Field::of<std::uint8_t>("element_state", "1", FieldRole::PerEntity, 1, state));
    const std::vector<std::int32_t> counts(s.count.begin(), s.count.begin() + s.cells);
    snap.fields.push_back(
        Field::of<std::int32_t>("cell_elements", "1", FieldRole::Internal, 1, counts));
    for (int k = 0; k < kSpeciesCount; ++k) {
        const auto begin = s.species.begin() + static_cast<std::ptrdiff_t>(k) * s.capacity;
        const std::vector<float> v(begin, begin + s.cells);
        snap.fields.push_back(Field::of<float>(speciesName(k), "1", FieldRole::Internal, 1, v));
    }
    return snap;
}

std::vector<StateArray> stateArraysOf(const StatePointers& s, MemorySpace space) {
    const auto cells = static_cast<std::size_t>(s.cells);
    const int slots = s.slotsPerCell;
    std::vector<StateArray> out;
    const char* axis[3] = {"x", "y", "z"};
    const float* coordinate[3] = {s.x, s.y, s.z};
    for (int a = 0; a < 3; ++a)
        out.push_back(stateArray(std::string("element.") + axis[a], "L",
                                 std::string("Element position per cell and slot, ") + axis[a] +
                                     " (slots from cell_elements on are unused)",
                                 coordinate[a], cells, space, slots));
    out.push_back(stateArray("element_type", "1",
                             "1: the element adheres to the basement membrane, per cell and slot",
                             s.type, cells, space, slots));
    out.push_back(stateArray("cell_elements", "1", "Elements of the cell", s.count, cells, space)
                      .holds("cell_elements"));
    for (int k = 0; k < kSpeciesCount; ++k)
        out.push_back(stateArray(speciesName(k), "1", "Gene-network species level of the cell",
                                 s.species + static_cast<std::size_t>(k) * s.capacity, cells, space)
                          .holds(speciesName(k)));
    return out;
}

HostState readSnapshot(const EpidermisParams& p, const Snapshot& snap) {
    const std::vector<std::int32_t> counts = snap.at("cell_elements").as<std::int32_t>();
    const std::vector<float> pos = snap.at("position").as<float>();
    const std::vector<std::uint8_t> type = snap.at("element_type").as<std::uint8_t>();
    HostState s;
    const auto cells = static_cast<std::int32_t>(counts.size());
    s.allocate(std::max({cells, 2 * cells,
                         p.initialCellCapacity > 0 ? p.initialCellCapacity : 2 * p.cells}),
               p.maxElementsPerCell);
    s.cells = cells;
    std::size_t n = 0;
    for (std::int32_t c = 0; c < s.cells; ++c) {
        const std::int32_t m = counts[static_cast<std::size_t>(c)];
        if (m < 0 || m > s.slotsPerCell)
            throw IoError("epidermis: cell " + std::to_string(c) + " has " + std::to_string(m) +
                          " elements, outside [0, capacity.elements_per_cell = " +
                          std::to_string(s.slotsPerCell) + "]");
        s.count[static_cast<std::size_t>(c)] = m;
        n += static_cast<std::size_t>(m);
    }
    if (pos.size() != 3 * n || type.size() != n)
        throw IoError("epidermis: snapshot holds " + std::to_string(type.size()) +
                      " elements but its cells count " + std::to_string(n));
    std::size_t i = 0;
    for (std::int32_t c = 0; c < s.cells; ++c) {
        for (std::int32_t e = 0; e < s.count[static_cast<std::size_t>(c)]; ++e, ++i) {
            const std::size_t slot = s.slot(c, e);
            s.x[slot] = pos[3 * i];
            s.y[slot] = pos[3 * i + 1];
            s.z[slot] = pos[3 * i + 2];
            s.type[slot] = type[i];
        }
    }
    for (int k = 0; k < kSpeciesCount; ++k) {
        const std::vector<float> v = snap.at(speciesName(k)).as<float>();
        if (v.size() != static_cast<std::size_t>(s.cells))
            throw IoError(std::string("epidermis: field '") + speciesName(k) + "' has " +
                          std::to_string(v.size()) + " values for " + std::to_string(s.cells) +
                          " cells");
        for (std::int32_t c = 0; c < s.cells; ++c)
            s.s(k, c) = v[static_cast<std::size_t>(c)];
    }
    s.step = snap.step;
    s.time = snap.time;
    return s;
}

}  // namespace cf::epidermis
