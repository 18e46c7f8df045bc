// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/spheres/spheres_model.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "sim/core/rng.hpp"
#include "sim/models/spheres/spheres_physics.hpp"

namespace cf::spheres {

double largestReachableDiameter(const SpheresParams& p) {
    const double v0 = sphereVolume(p.diameter);
    double vmax = v0 + p.ageSpread * std::max(0.0, sphereVolume(p.divisionDiameter) - v0);
    if (p.growth) vmax = std::max(vmax, sphereVolume(p.divisionDiameter) + p.growthRate * p.dt);
    return std::max(p.diameter, diameterOf(vmax));
}

float gridCutoff(double bound, const double lo[3], const double hi[3]) {
    double extent = 0.0;
    for (int a = 0; a < 3; ++a)
        extent = std::max({extent, std::fabs(lo[a]), std::fabs(hi[a])});
    const double needed = bound + 8.0 * FLT_EPSILON * extent;
    return static_cast<float>(std::exp2(std::ceil(64.0 * std::log2(needed)) / 64.0));
}

void refreshGridGeometry(grid::GridGeometry& geometry, bool& have, double bound, const double lo[3],
                         const double hi[3]) {
    const float cutoff = gridCutoff(bound, lo, hi);
    if (have && geometry.cutoff == cutoff) return;
    const float flo[3] = {static_cast<float>(lo[0]), static_cast<float>(lo[1]),
                          static_cast<float>(lo[2])};
    const float fhi[3] = {static_cast<float>(hi[0]), static_cast<float>(hi[1]),
                          static_cast<float>(hi[2])};
    const bool periodic[3] = {false, false, false};
    geometry = grid::makeGridGeometry(flo, fhi, cutoff, periodic);
    have = true;
}

std::size_t capacityFor(const SpheresParams& p, std::uint64_t step, std::size_t n, std::size_t born,
                        std::size_t capacity) {
    const std::size_t total = n + born;
    if (p.maxCells > 0 && total > static_cast<std::size_t>(p.maxCells))
        throw SimulationError("spheres: step " + std::to_string(step) + ": " +
                              std::to_string(born) + " divisions would bring " + std::to_string(n) +
                              " cells to " + std::to_string(total) +
                              ", beyond capacity.max_cells = " + std::to_string(p.maxCells) +
                              "; the state is unchanged at step " + std::to_string(step));
    return total <= capacity ? capacity : std::max(2 * capacity, total);
}

void checkAgainstPopulation(const SpheresParams& next, std::size_t cells) {
    if (next.maxCells > 0 && cells > static_cast<std::size_t>(next.maxCells))
        throw ParameterError("capacity.max_cells = " + std::to_string(next.maxCells) +
                             " is below the " + std::to_string(cells) +
                             " cells the run has now (0: no limit)");
}

std::string capacityNote(std::size_t before, std::size_t after, std::size_t inUse,
                         double bytesPerCell) {
    return "spheres: cell capacity grew from " + std::to_string(before) + " to " +
           std::to_string(after) + " (" + std::to_string(inUse) + " in use, " +
           std::to_string(bytesPerCell * static_cast<double>(after) / 1048576.0) + " MiB)";
}

SpheresParams checkedParams(const ParamSet& params) {
    SpheresParams p = params.toStruct<SpheresParams>();
    p.density = p.mass / sphereVolume(p.diameter);
    p.divisionVolume = sphereVolume(p.divisionDiameter);
    p.growthPerStep = p.growthRate * p.dt;
    p.volumeFloor = kVolumeFloor;
    if (p.ratioMin > p.ratioMax)
        throw ParameterError(
            "growth.ratio_min = " + formatValue(params.get("growth.ratio_min")) +
            " exceeds growth.ratio_max = " + formatValue(params.get("growth.ratio_max")));
    if (p.growth && p.divisionDiameter <= p.diameter)
        throw ParameterError(
            "growth.division_diameter = " + formatValue(params.get("growth.division_diameter")) +
            " um must exceed init.diameter = " + formatValue(params.get("init.diameter")) +
            " um, or every cell divides at once (or set growth.enabled=false)");
    if (p.interactionRadius > 0.0) {
        const double largest = largestReachableDiameter(p);
        if (p.interactionRadius < largest)
            throw ParameterError(
                "mechanics.interaction_radius = " +
                formatValue(params.get("mechanics.interaction_radius")) +
                " um is smaller than the largest diameter a cell can reach (" +
                std::to_string(largest) +
                " um, from init.diameter, init.age_spread and growth.division_diameter): "
                "touching cells would not interact; use 0 (the largest diameter per step)");
    }
    return p;
}

std::vector<Metric> hostMetrics(const HostState& s, std::uint64_t divisions) {
    const std::size_t n = s.size();
    double diameter = 0.0, force = 0.0;
    std::size_t founders = 0;  // initial cells: their root is their own id
    for (std::size_t i = 0; i < n; ++i) {
        diameter += s.diameter[i];
        force += s.force[i];
        founders += s.root[i] == s.id[i];
    }
    const double count = static_cast<double>(n);
    std::vector<Metric> m = {
        {"cells", "1", count, "Cells in the population"},
        {"mean_diameter", "um", n > 0 ? diameter / count : 0.0, "Mean cell diameter"},
        {"mean_force", "1", n > 0 ? force / count : 0.0,
         "Mean magnitude of the mechanical force on a cell (model force units)"},
        {"divisions_total", "1", static_cast<double>(n - founders),
         "Divisions since the start (cumulative; no cell dies, so cells minus initial cells)"},
        {"divisions_step", "1", static_cast<double>(divisions),
         "Divisions in the last step only (not a total)"}};
    if (!s.substance.empty()) {
        const FieldGrid g = substanceGrid(s);
        double total = 0.0, sensed = 0.0;
        for (double c : s.substance)
            total += c;
        for (std::size_t i = 0; i < n; ++i)
            sensed += s.substance[voxelOf(g, s.x[i], s.y[i], s.z[i])];
        m.push_back({"substance_total", "1", total * g.voxelVolume(),
                     "Substance in the domain: concentration times voxel volume, summed"});
        m.push_back({"mean_sensed", "1/um^3", n > 0 ? sensed / count : 0.0,
                     "Mean substance concentration at the cells' centres"});
    }
    return m;
}

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "spheres";
    d.description =
        "Agent-based cell proliferation with BioDynaMo's sphere mechanics, growth and division";
    d.timeUnit = "h";
    d.parameters = &parameterTable;
    d.validate = [](const ParamSet& params) { (void)checkedParams(params); };
    d.backends = {Backend::Cpu, Backend::Cuda};
    d.create = [](Backend b) {
        return createOnBackend("spheres", b, &makeCpuModel, CF_CUDA_FACTORY(makeCudaModel));
    };
    d.benchCases = benchCases();
    return d;
}

}  // namespace cf::spheres
