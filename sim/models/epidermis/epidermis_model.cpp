// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/epidermis/epidermis_model.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/rng.hpp"
#include "sim/models/epidermis/epidermis_physics.hpp"
#include "sim/models/epidermis/stratification.hpp"

namespace cf::epidermis {

namespace {
std::string num(double v) {
    return formatValue(ParamValue{v});
}
}  // namespace

const char* speciesName(int k) {
    static const char* names[kSpeciesCount] = {"notch", "delta", "bound", "bma",
                                               "ovol1", "ovol2", "cmyc"};
    return k >= 0 && k < kSpeciesCount ? names[k] : "?";
}

const char* speciesTitle(int k) {
    static const char* titles[kSpeciesCount] = {
        "Notch", "Delta", "bound Notch-Delta", "basement-membrane signal A", "Ovol1",
        "Ovol2", "c-Myc"};
    return k >= 0 && k < kSpeciesCount ? titles[k] : "?";
}

EpidermisParams checkedParams(const ParamSet& params) {
    const EpidermisParams p = params.toStruct<EpidermisParams>();
    if (p.periodic) {
        for (auto [name, size] :
             {std::pair{"domain.size_x", p.sizeX}, {"domain.size_y", p.sizeY}}) {
            if (size < 2.0f * p.interDist)
                throw ParameterError(std::string(name) + " = " + num(size) +
                                     " is smaller than twice mechanics.inter_dist (" +
                                     num(2.0 * p.interDist) +
                                     "): the minimum image would miss pairs");
            const double gridCell = p.cullRule == static_cast<int>(CullRule::Exact)
                                        ? p.interDist + 2.0 * p.radiusBound + p.skin
                                        : p.interDist;
            if (p.neighborMethod == static_cast<int>(NeighborMethod::Grid) &&
                size < 3.0 * std::max<double>(gridCell, p.neighborDist))
                throw ParameterError(std::string(name) + " = " + num(size) +
                                     " is too small for mechanics.neighbor_method = grid (needs "
                                     "3 grid cells of " +
                                     num(std::max<double>(gridCell, p.neighborDist)) +
                                     "); use neighbor_method = center or a larger domain");
        }
    }
    if (p.maxElementsPerCell < p.divisionElements)
        throw ParameterError(
            "capacity.elements_per_cell = " + std::to_string(p.maxElementsPerCell) +
            " is below growth.division_elements = " + std::to_string(p.divisionElements));
    if (p.divisionElements % 2 != 0)
        throw ParameterError("growth.division_elements = " + std::to_string(p.divisionElements) +
                             " must be even (a cell splits into two halves)");
    if (p.elementsPerCell > p.divisionElements)
        throw ParameterError(
            "init.elements_per_cell = " + std::to_string(p.elementsPerCell) +
            " exceeds growth.division_elements = " + std::to_string(p.divisionElements));
    if (p.adhesivePerCell > p.elementsPerCell)
        throw ParameterError(
            "init.adhesive_per_cell = " + std::to_string(p.adhesivePerCell) +
            " exceeds init.elements_per_cell = " + std::to_string(p.elementsPerCell));
    if (p.initialCellCapacity != 0 && p.initialCellCapacity < p.cells)
        throw ParameterError("capacity.initial_cells = " + std::to_string(p.initialCellCapacity) +
                             " is below init.cells = " + std::to_string(p.cells));
    return p;
}

std::vector<Metric> hostMetrics(const EpidermisParams& p, const HostState& s,
                                const CellCentres& centres) {
    const double cells = s.cells;
    double meanZ = 0.0, maxZ = 0.0;
    for (std::int32_t c = 0; c < s.cells; ++c) {
        const double z = centres.z[static_cast<std::size_t>(c)];
        meanZ += z;
        maxZ = std::max(maxZ, z);
    }
    const Stratification strata = stratification(p, s, centres);
    const int attached = strata.adherent;
    // Stratification: cells lifted off the basal layer, i.e. whose centre lies more than one
    // layer height above the mean centre of the cells that adhere to the membrane.
    const double basal = strata.adherentMeanHeight;
    int above = 0;
    for (std::int32_t c = 0; c < s.cells; ++c)
        above += centres.z[static_cast<std::size_t>(c)] > basal + p.layerHeight;
    std::vector<Metric> m = {
        {"cells", "1", cells, "Cells in the tissue"},
        {"elements", "1", static_cast<double>(s.elements()), "Subcellular elements of all cells"},
        {"mean_height", "L", cells > 0 ? meanZ / cells : 0.0,
         "Mean height of the cell centres above the basement membrane"},
        {"max_height", "L", maxZ, "Height of the highest cell centre"},
        {"layers", "1", static_cast<double>(strata.layers),
         "Cell layers reached by at least 10% of the vertical columns (a column: the cells "
         "within analysis.column_radius of a cell horizontally)"},
        {"column_layers", "1", strata.meanColumnLayers,
         "Mean number of cell layers in the vertical columns"},
        {"adherent_cells", "1", static_cast<double>(attached),
         "Cells with elements adhering to the basement membrane (basal by adhesion)"},
        {"detached_cells", "1", static_cast<double>(strata.detached),
         "Cells without an adhesive element (suprabasal by adhesion)"},
        {"off_membrane_fraction", "1", cells > 0 ? strata.offMembrane / cells : 0.0,
         "Share of the cells whose lowest element is above analysis.contact_height"},
        {"suprabasal_cells", "1", static_cast<double>(above),
         "Cells whose centre lies more than analysis.layer_height above the mean centre of "
         "the adherent cells (stratified off the basal layer)"}};
    for (int k = 0; k < kSpeciesCount; ++k) {
        double sum = 0.0;
        for (std::int32_t c = 0; c < s.cells; ++c)
            sum += s.s(k, c);
        m.push_back({std::string("mean_") + speciesName(k), "1", cells > 0 ? sum / cells : 0.0,
                     std::string("Mean ") + speciesTitle(k) + " per cell (model concentration)"});
    }
    return m;
}

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "epidermis";
    d.description =
        "Subcellular elements + Notch/Ovol gene network, growth and division (Christley 2010)";
    d.timeUnit = "T";  // the paper's dimensionless time (docs/EPIDERMIS.md, Units)
    d.parameters = &parameterTable;
    d.validate = [](const ParamSet& params) { (void)checkedParams(params); };
    d.create = [](Backend b) {
        return createOnBackend("epidermis", b, &makeCpuModel, CF_CUDA_FACTORY(makeCudaModel));
    };
    d.benchCases = benchCases();
    return d;
}

}  // namespace cf::epidermis
