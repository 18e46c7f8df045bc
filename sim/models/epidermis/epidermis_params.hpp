// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `epidermis`: the subcellular element method with a Notch/Delta + Ovol1/Ovol2/c-Myc gene
// network, growth and division (Christley et al. 2010). Constants, equations
// and open choices: docs/design/epidermis.md (its sections A.x are cited below).
#include <cstdint>

#include "sim/core/params.hpp"

namespace cf::epidermis {

// Species order as in the authors' code (A.10).
enum Species : int { kNotch = 0, kDelta, kBound, kBma, kOvol1, kOvol2, kCmyc, kSpeciesCount };

enum class NeighborMethod : std::int32_t { Naive = 0, Center = 1, Grid = 2 };
// How `center`/`grid` skip cell pairs: `exact` skips only pairs that cannot hold an element
// pair within inter_dist (centre distance > inter_dist + both cell radii), so all methods
// give the same forces; `paper` skips when the centre distance > inter_dist (Algorithm 2).
enum class CullRule : std::int32_t { Exact = 0, Paper = 1 };
enum class HillForm : std::int32_t { Code = 0, Paper = 1 };                      // A.9
enum class GrowthRule : std::int32_t { Lateral = 0, Absolute = 1, Lowest = 2 };  // A.12

// Everything the kernels read, as one plain struct (the CUDA backend's __constant__).
struct EpidermisParams {
    // domain (structural)
    bool periodic;
    float sizeX, sizeY;  // period, and the extent of the initial layout
    float height;        // extent of the neighbour grid in z (cells above are still found)
    // initial state (structural)
    std::int32_t cells;
    std::int32_t elementsPerCell;
    std::int32_t adhesivePerCell;
    float initHalfWidth, initZOffset, initZRange;
    float initSpeciesNoise;
    // capacity (structural)
    std::int32_t maxElementsPerCell;
    std::int32_t initialCellCapacity;  // 0: automatic
    // time
    float dt;
    // mechanics (live): Morse coefficients (A.1-A.4, code mapping)
    float intraU0, intraXi1, intraW0, intraXi2;
    float interU0, interXi1, interW0, interXi2;
    float interDist;
    bool hardZ;                   // clamp z >= 0 after each stage (A.5)
    std::int32_t neighborMethod;  // NeighborMethod
    std::int32_t cullRule;        // CullRule
    float radiusBound;            // grid method: cells must stay within this radius of their centre
    float skin;  // exact cull: extra reach so one candidate search serves both RK stages
    // gene network (live), Table 2
    bool network;
    std::int32_t hillForm;  // HillForm
    float neighborDist;
    float ka, kd, dB, dN, dD, dO, dV, dM;
    float aBN, bBN, cBN, hBN, bON, cON, hON;
    float aND, bND, cND, hND;
    float aVO, bVO, cVO, hVO, bGO, cGO, hGO, tgfBeta;
    float bOV, cOV, hOV, bAV, cAV, hAV;
    float aOM, bOM, cOM, hOM;
    // growth and division (live)
    bool growth;
    std::int32_t growthInterval;
    std::int32_t growthRule;  // GrowthRule
    float growthThreshold;    // absolute rule: grow when D < threshold
    float growthFraction;     // lowest rule: the share of cells (lowest Delta) that grows
    std::int32_t divisionElements;
    // analysis
    float layerHeight;
    float columnRadius;
    float contactHeight;
};

// growth.fraction's default: calibrated on one published count (docs/EPIDERMIS.md).
inline constexpr float kCalibratedGrowthFraction = 0.78f;

const ParamTable& parameterTable();

// RNG streams of this model.
inline constexpr std::uint32_t kInitStream = 0;

}  // namespace cf::epidermis
