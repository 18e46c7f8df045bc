// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A host copy of a model's state: named arrays plus step and time. The same structure
// feeds HDF5 snapshots, checkpoints (which must restore bit-identically) and tests that
// compare backends.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/core/errors.hpp"

namespace cf {

enum class ScalarType : std::uint8_t { F32, F64, I32, U32, U64, U8 };

std::size_t sizeOf(ScalarType t);
const char* toString(ScalarType t);

template <typename T>
constexpr ScalarType scalarTypeOf() {
    if constexpr (std::is_same_v<T, float>)
        return ScalarType::F32;
    else if constexpr (std::is_same_v<T, double>)
        return ScalarType::F64;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return ScalarType::I32;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return ScalarType::U32;
    else if constexpr (std::is_same_v<T, std::uint64_t>)
        return ScalarType::U64;
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return ScalarType::U8;
    else
        static_assert(sizeof(T) == 0, "unsupported field scalar type");
}

// How a field maps onto space, so writers can describe it (XDMF) without model knowledge.
enum class FieldRole : std::uint8_t {
    Positions,  // per-entity coordinates, components = 3
    PerEntity,  // per-entity attribute (same count as Positions)
    Grid,       // values on a regular grid (see Snapshot::gridDims)
    Internal,   // state needed for a checkpoint but not meaningful to plot
    // Bookkeeping only a restart reads (particle ids per lattice slot, integrator
    // history): kept in checkpoints, left out of HDF5 snapshots, where it was most of the
    // bytes and nobody read it.
    RestartOnly,
};

// Names used in files ("positions", "per_entity", "grid", "internal", "restart_only").
const char* toString(FieldRole r);

struct Field {
    std::string name;
    std::string unit;  // "um", "1", ...
    ScalarType type = ScalarType::F32;
    FieldRole role = FieldRole::PerEntity;
    std::size_t count = 0;  // number of tuples
    int components = 1;     // values per tuple
    std::vector<std::byte> bytes;

    template <typename T>
    static Field of(std::string name, std::string unit, FieldRole role, int components,
                    std::span<const T> values) {
        Field f;
        f.name = std::move(name);
        f.unit = std::move(unit);
        f.type = scalarTypeOf<T>();
        f.role = role;
        f.components = components;
        f.count = values.size() / static_cast<std::size_t>(components);
        f.bytes.resize(values.size_bytes());
        if (!values.empty()) std::memcpy(f.bytes.data(), values.data(), values.size_bytes());
        return f;
    }

    template <typename T>
    std::vector<T> as() const {
        if (scalarTypeOf<T>() != type)
            throw IoError("field '" + name + "' holds " + toString(type) + ", not " +
                          toString(scalarTypeOf<T>()));
        std::vector<T> out(bytes.size() / sizeof(T));
        if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
        return out;
    }
};

struct Snapshot {
    std::uint64_t step = 0;
    double time = 0.0;  // simulated time, in the model's time unit
    std::string timeUnit = "s";
    double boxLo[3] = {0, 0, 0};  // domain, for writers and renderers
    double boxHi[3] = {1, 1, 1};
    std::size_t gridDims[3] = {0, 0, 0};  // for FieldRole::Grid fields
    std::vector<Field> fields;

    const Field* find(const std::string& name) const {
        for (const Field& f : fields)
            if (f.name == name) return &f;
        return nullptr;
    }
    const Field& at(const std::string& name) const {
        if (const Field* f = find(name)) return *f;
        throw IoError("snapshot has no field '" + name + "'");
    }
};

}  // namespace cf
