// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/brownian/brownian_params.hpp"

namespace cf::brownian {

const ParamTable& parameterTable() {
    static const ParamTable table = [] {
        using P = BrownianParams;
        ParamTableBuilder<P> b;
        b.integer("system", "count", &P::count, 20000, 1, 50'000'000, "1", "Number of particles",
                  Mutability::Structural);
        b.real("system", "box", &P::box, 32.0, 1.0, 1.0e4, "um", "Edge of the periodic cubic box",
               Mutability::Structural);
        b.real("system", "radius", &P::radius, 0.5, 0.01, 100.0, "um",
               "Particle radius; particles closer than two radii repel", Mutability::Structural);
        b.real("dynamics", "dt", &P::dt, 1.0e-3, 1.0e-7, 1.0, "s", "Time step", Mutability::Live);
        b.real("dynamics", "diffusion", &P::diffusion, 1.0, 0.0, 1.0e3, "um^2/s",
               "Translational diffusion coefficient D", Mutability::Live);
        b.real("interaction", "stiffness", &P::stiffness, 10.0, 0.0, 1.0e4, "pN/um",
               "Spring constant k of the overlap repulsion F = k (2r - d)", Mutability::Live);
        b.real("interaction", "mobility", &P::mobility, 1.0, 0.0, 1.0e3, "um/(s pN)",
               "Mobility mu: velocity per unit force (overdamped)", Mutability::Live);
        return b.build();
    }();
    return table;
}

}  // namespace cf::brownian
