// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model's state arrays where they live, without copies: what `import cellforge` hands to
// NumPy (host memory) and to CuPy or PyTorch (device memory, through the CUDA array
// interface and DLPack). Unlike views.hpp, which offers float arrays made for drawing, these
// are the arrays the model steps, in their own types.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/snapshot.hpp"
#include "sim/core/views.hpp"

namespace cf {

struct StateArray {
    std::string name;  // "position.x", "diameter", ... unique within the model
    std::string unit;
    std::string description;
    // The snapshot field (Model::snapshot) this array holds the values of, entry for entry,
    // and which of its components ("" when the array has no field of the same layout, such
    // as a state kept in slots with gaps that the snapshot packs).
    std::string field;
    int component = -1;
    ScalarType type = ScalarType::F32;
    std::size_t count = 0;  // entries
    int components = 1;     // values per entry, contiguous
    // Elements (not bytes) from one entry to the next; 0: packed (`components`), so the
    // array is row-major count x components.
    std::size_t stride = 0;
    const void* data = nullptr;
    MemorySpace space = MemorySpace::Host;
    int device = -1;  // the CUDA ordinal of a device array

    // Says which snapshot field this array holds (component -1: all of it, as stored).
    StateArray& holds(std::string snapshotField, int snapshotComponent = -1) {
        field = std::move(snapshotField);
        component = snapshotComponent;
        return *this;
    }
};

// Implemented by the backends that expose their state. The pointers stay valid until the
// model's next advance, reset, restore or applyPendingEdits; device arrays are written on
// the model's stream and complete once Model::synchronize() has returned. Read-only: a
// write through them bypasses the model's own bookkeeping.
class StateArrayProvider {
public:
    virtual ~StateArrayProvider() = default;
    virtual std::vector<StateArray> stateArrays() = 0;
};

// The CUDA device the calling thread uses (-1 in a build without CUDA or without a device).
int currentCudaDevice();

// A host or device array of `count` entries of T (its ScalarType from T).
template <typename T>
StateArray stateArray(std::string name, std::string unit, std::string description, const T* data,
                      std::size_t count, MemorySpace space, int components = 1) {
    StateArray a;
    a.name = std::move(name);
    a.unit = std::move(unit);
    a.description = std::move(description);
    a.type = scalarTypeOf<T>();
    a.count = count;
    a.components = components;
    a.data = data;
    a.space = space;
    a.device = space == MemorySpace::Device ? currentCudaDevice() : -1;
    return a;
}

}  // namespace cf
