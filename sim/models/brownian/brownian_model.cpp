// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/brownian/brownian_model.hpp"

#include <string>

namespace cf::brownian {

BrownianParams checkedParams(const ParamSet& params) {
    const BrownianParams p = params.toStruct<BrownianParams>();
    const double cutoff = 2.0 * p.radius;
    if (p.box < 3.0 * cutoff)
        throw ParameterError("system.box = " + formatValue(params.get("system.box")) +
                             " um must be at least 6 x system.radius (" +
                             std::to_string(3.0 * cutoff) +
                             " um) so the periodic cell list has 3 cells per axis");
    // Explicit Euler on the overdamped spring relaxes an overlap by a factor (1 - mu k dt)
    // per step: past 1 it overshoots and oscillates, past 2 it diverges.
    const double relax = static_cast<double>(p.mobility) * p.stiffness * p.dt;
    if (relax >= 1.0)
        throw ParameterError("interaction.mobility x interaction.stiffness x dynamics.dt = " +
                             std::to_string(relax) +
                             " must be below 1 (the explicit step overshoots); lower dt");
    return p;
}

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "brownian";
    d.description = "Brownian particles with soft repulsion in a periodic box (core test model)";
    d.timeUnit = "s";
    d.parameters = &parameterTable;
    d.validate = [](const ParamSet& params) { (void)checkedParams(params); };
    d.create = [](Backend b) {
        return createOnBackend("brownian", b, &makeCpuModel, CF_CUDA_FACTORY(makeCudaModel));
    };
    d.benchCases = benchCases();
    return d;
}

}  // namespace cf::brownian
