// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How stratified an epidermis is, from its cells' centres and elements (metrics; tested on
// constructed one-, two- and three-layer tissues in tests/sim/models/test_epidermis_layers.cpp).
//
// Layers are counted along vertical columns, not in fixed height bins: fixed bins split a
// monolayer whose centres straddle a bin edge into two "layers" and merge a tilted or rough
// tissue's layers. The column of a cell holds every cell whose centre lies within
// analysis.column_radius of its centre horizontally (minimum image on periodic axes); its
// layer count is 1 plus the number of gaps wider than half of analysis.layer_height between
// the column's sorted centre heights. The tissue has k layers when at least 10 % of the
// columns (at least one) hold k or more.
#include <cstdint>
#include <vector>

#include "sim/models/epidermis/epidermis_params.hpp"
#include "sim/models/epidermis/epidermis_state.hpp"

namespace cf::epidermis {

struct CellCentres {
    std::vector<float> x, y, z;  // per active cell, positions as the state stores them
};

struct Stratification {
    int layers = 0;                 // reached by at least 10 % of the columns
    double meanColumnLayers = 0.0;  // mean over all columns
    int adherent = 0;               // cells with an element that adheres to the membrane
    double adherentMeanHeight = 0;  // mean centre height of those cells (0 without any)
    int detached = 0;               // cells without one (suprabasal by adhesion)
    int offMembrane = 0;            // cells whose lowest element is above contact_height
};

// Share of the columns that must reach a layer count for the tissue to have it.
inline constexpr double kLayerColumnShare = 0.10;

// Layer count of every cell's column (index = cell).
std::vector<int> columnLayers(const EpidermisParams& p, const CellCentres& c);

Stratification stratification(const EpidermisParams& p, const HostState& s, const CellCentres& c);

}  // namespace cf::epidermis
