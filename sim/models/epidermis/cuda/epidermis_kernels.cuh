// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers of the `epidermis` CUDA kernels (defined in epidermis_kernels.cu). Host code
// includes this; it declares no kernels. Every launch is checked; all work is ordered on
// the given stream, and no launcher waits for the device except `scanDivisions`.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/cuda/device_buffer.hpp"
#include "sim/grid/uniform_grid.hpp"
#include "sim/models/epidermis/epidermis_params.hpp"
#include "sim/models/epidermis/growth_rule.hpp"

namespace cf::epidermis::cuda {

// Device arrays of one state (see epidermis_state.hpp for the layout).
struct StateView {
    float* x;
    float* y;
    float* z;
    std::uint8_t* type;
    std::int32_t* count;
    float* species;  // kSpeciesCount * capacity
    std::int32_t capacity;
    std::int32_t slotsPerCell;
    std::int32_t cells;
};
static_assert(std::is_trivially_copyable_v<StateView>);

struct CentreView {
    float* x;
    float* y;
    float* z;
    float* radius;
    std::int32_t* badCell;  // smallest cell whose radius exceeds radius_bound (grid method)
};
static_assert(std::is_trivially_copyable_v<CentreView>);

// `owner` is the model instance (see sim/cuda/constant_owner.hpp): bindParams uploads
// only when another instance's struct is in the symbol; releaseParams when it goes.
void uploadParams(const EpidermisParams& params, const void* owner, cudaStream_t stream);
void bindParams(const EpidermisParams& params, const void* owner, cudaStream_t stream);
void releaseParams(const void* owner);
// Reads the constant-memory copy back, ordered after the work queued on `stream`.
void downloadParams(EpidermisParams& params, cudaStream_t stream);

// Centres and radii of the elements at (x, y, z) (the state's layout and counts).
void launchCentres(const StateView& s, const float* x, const float* y, const float* z,
                   const CentreView& c, bool checkBound, cudaStream_t stream);

// Candidate cells per cell for the intercellular term (methods center and grid), built once
// per force stage by one thread per cell instead of a grid walk by every element. A cell
// with more kept neighbours than this falls back to the walk (listCount > kMaxNeighbours).
inline constexpr int kMaxNeighbours = 96;

struct CellListArgs {
    StateView state;
    CentreView centres;
    grid::GridView grid;
    std::int32_t* list;       // kMaxNeighbours per cell
    std::int32_t* listCount;  // per cell
};
static_assert(std::is_trivially_copyable_v<CellListArgs>);
void launchCellLists(const CellListArgs& args, cudaStream_t stream);

struct ForceStageArgs {
    StateView state;     // counts, types; base positions X = (state.x, state.y, state.z)
    const float* evalX;  // positions where f is evaluated
    const float* evalY;
    const float* evalZ;
    CentreView centres;        // of the evaluation positions
    grid::GridView grid;       // grid over the centres (method grid only)
    const std::int32_t* list;  // from launchCellLists (methods center and grid)
    const std::int32_t* listCount;
    std::int32_t* badSkin;  // stage 1: smallest slot that moved more than skin/2
    bool checkSkin;
    float h;  // out = X + h f(eval)
    float* outX;
    float* outY;
    float* outZ;
};
static_assert(std::is_trivially_copyable_v<ForceStageArgs>);
void launchForceStage(const ForceStageArgs& args, cudaStream_t stream);

struct NetworkArgs {
    StateView state;
    CentreView centres;
    grid::GridView grid;
    float* avgN;
    float* avgD;
    float* avgB;
    float dt;
};
static_assert(std::is_trivially_copyable_v<NetworkArgs>);
// Neighbour means and A, then one RK2 step of every cell's network.
void launchNetwork(const NetworkArgs& args, cudaStream_t stream);

struct GrowthArgs {
    StateView state;
    CentreView centres;
    const float* avgD;
    std::int32_t* divides;  // 1 when the cell reached division_elements
    std::int32_t* offsets;  // exclusive scan of `divides`
    GrowthCut cut;          // this event's growth test (growth_rule.hpp)
};
static_assert(std::is_trivially_copyable_v<GrowthArgs>);
// Appends one element to growing cells and flags the cells that must divide.
void launchGrowth(const GrowthArgs& args, cudaStream_t stream);
// Exclusive scan of the flags; returns the number of dividing cells (waits for the device).
std::int32_t scanDivisions(const GrowthArgs& args, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                           cudaStream_t stream);
// Moves the second half of each dividing cell into cell `cells + offset` and halves the
// species of both.
void launchDivision(const GrowthArgs& args, cudaStream_t stream);

struct PackArgs {
    StateView state;
    CentreView centres;
    const std::int32_t* elementOffset;  // exclusive scan of the cell counts
    std::int64_t elementCount;
    float drawRadius;
    float* elements;  // 4 per element
    std::uint8_t* elementState;
    float* elementSpecies;  // species-major
    float* cells;           // 4 per cell
    float* cellSpecies;     // species-major
};
static_assert(std::is_trivially_copyable_v<PackArgs>);
// offsets = exclusive scan of the counts; returns the number of elements (waits).
std::int64_t scanElementOffsets(const StateView& s, std::int32_t* offsets,
                                cf::cuda::DeviceBuffer<unsigned char>& scratch,
                                cudaStream_t stream);
// Packs the drawing views (epidermis_views.hpp) from the slot layout.
void launchPackViews(const PackArgs& args, cudaStream_t stream);

// Smallest flat index (slot * 8 + field) holding a non-finite position (fields 0-2) or
// species value (3 + k, index = cell) into firstBad, which starts at INT_MAX.
void launchFindNonFinite(const StateView& s, std::int32_t* firstBadElement,
                         std::int32_t* firstBadCell, cudaStream_t stream);

}  // namespace cf::epidermis::cuda
