// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared fixture and helpers of the `epidermis` tests: hand-made states (through
// makeSnapshot and Model::restore), snapshot field access and minimum-image comparisons.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/models/epidermis/epidermis_model.hpp"
#include "tests/support/backends.hpp"

namespace cf::test::epi {

using epidermis::kSpeciesCount;

// A backend-parameterized fixture; each test file derives its own suite from it.
class EpidermisFixture : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override { CF_REQUIRE_BACKEND(GetParam()); }
    const ModelDescriptor desc = epidermis::descriptor();
    ParamSet params{desc.parameters()};
    std::unique_ptr<Model> make() const { return desc.create(GetParam()); }
    void set(std::initializer_list<const char*> assignments) {
        for (const char* a : assignments)
            params.setFromAssignment(a);
    }
};

using Vec = std::array<float, 3>;

struct CellSpec {
    std::vector<Vec> pos;
    std::vector<std::uint8_t> type;  // empty: all 0
    std::array<float, kSpeciesCount> species{};
};

// A snapshot holding exactly `cells`, laid out as the model's own snapshots.
inline Snapshot handMade(const ParamSet& params, const std::vector<CellSpec>& cells,
                         std::uint64_t step = 0) {
    const epidermis::EpidermisParams p = epidermis::checkedParams(params);
    epidermis::HostState s;
    s.slotsPerCell = p.maxElementsPerCell;
    s.cells = static_cast<std::int32_t>(cells.size());
    s.capacity = std::max<std::int32_t>(1, 2 * s.cells);
    const auto slots =
        static_cast<std::size_t>(s.capacity) * static_cast<std::size_t>(s.slotsPerCell);
    s.x.assign(slots, 0.0f);
    s.y.assign(slots, 0.0f);
    s.z.assign(slots, 0.0f);
    s.type.assign(slots, 0);
    s.count.assign(static_cast<std::size_t>(s.capacity), 0);
    s.species.assign(static_cast<std::size_t>(kSpeciesCount * s.capacity), 0.0f);
    for (std::int32_t c = 0; c < s.cells; ++c) {
        const CellSpec& cell = cells[static_cast<std::size_t>(c)];
        s.count[static_cast<std::size_t>(c)] = static_cast<std::int32_t>(cell.pos.size());
        for (std::size_t e = 0; e < cell.pos.size(); ++e) {
            const std::size_t i = s.slot(c, static_cast<std::int32_t>(e));
            s.x[i] = cell.pos[e][0];
            s.y[i] = cell.pos[e][1];
            s.z[i] = cell.pos[e][2];
            s.type[i] = cell.type.empty() ? 0 : cell.type[e];
        }
        for (int k = 0; k < kSpeciesCount; ++k)
            s.s(k, c) = cell.species[static_cast<std::size_t>(k)];
    }
    s.step = step;
    s.time = 0.0;
    return epidermis::makeSnapshot(p, s);
}

inline void replaceField(Snapshot& s, Field f) {
    for (Field& g : s.fields)
        if (g.name == f.name) {
            g = std::move(f);
            return;
        }
    throw std::runtime_error("no field " + f.name);
}

inline std::vector<float> positions(const Snapshot& s) {
    return s.at("position").as<float>();
}
inline std::vector<std::int32_t> counts(const Snapshot& s) {
    return s.at("cell_elements").as<std::int32_t>();
}
inline std::vector<float> species(const Snapshot& s, int k) {
    return s.at(epidermis::speciesName(k)).as<float>();
}

inline double metric(Model& m, const std::string& name) {
    for (const Metric& x : m.metrics())
        if (x.name == name) return x.value;
    throw std::runtime_error("no metric " + name);
}

// Minimum image of a difference on an axis of period L (L <= 0: open axis).
inline double minImage(double d, double L) {
    return L > 0 ? d - L * std::round(d / L) : d;
}

// Largest minimum-image distance, per coordinate, between two position arrays.
inline double maxPositionDifference(const std::vector<float>& a, const std::vector<float>& b,
                                    double Lx, double Ly) {
    if (a.size() != b.size()) return INFINITY;
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double L = i % 3 == 0 ? Lx : (i % 3 == 1 ? Ly : 0.0);
        worst = std::max(worst, std::abs(minImage(static_cast<double>(a[i]) - b[i], L)));
    }
    return worst;
}

// Per-coordinate displacement from `before` to `after` (minimum image in x and y).
inline std::vector<double> displacements(const std::vector<float>& before,
                                         const std::vector<float>& after, double Lx, double Ly) {
    std::vector<double> d(before.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
        const double L = i % 3 == 0 ? Lx : (i % 3 == 1 ? Ly : 0.0);
        d[i] = minImage(static_cast<double>(after[i]) - before[i], L);
    }
    return d;
}

// Mean position of elements [first, first + n) of a cell-major position array, taken as
// element `first` plus the mean minimum-image offset (the model's centre definition).
inline std::array<double, 3> meanPosition(const std::vector<float>& pos, std::size_t first,
                                          std::size_t n, double Lx, double Ly) {
    std::array<double, 3> m{};
    const double L[3] = {Lx, Ly, 0.0};
    for (int a = 0; a < 3; ++a) {
        const double origin = pos[3 * first + static_cast<std::size_t>(a)];
        double sum = 0.0;
        for (std::size_t e = first; e < first + n; ++e)
            sum += minImage(pos[3 * e + static_cast<std::size_t>(a)] - origin, L[a]);
        m[static_cast<std::size_t>(a)] = origin + sum / static_cast<double>(n);
    }
    return m;
}

// Every field of two snapshots holds the same bytes, and step and time agree.
inline void expectIdentical(const Snapshot& a, const Snapshot& b) {
    EXPECT_EQ(a.step, b.step);
    EXPECT_EQ(a.time, b.time);
    ASSERT_EQ(a.fields.size(), b.fields.size());
    for (const Field& f : a.fields) {
        const Field* g = b.find(f.name);
        ASSERT_NE(g, nullptr) << f.name;
        EXPECT_EQ(f.bytes, g->bytes) << "field " << f.name;
    }
}

}  // namespace cf::test::epi
