// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/model.hpp"
#include "sim/models/brownian/brownian_model.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/epidermis/epidermis_model.hpp"
#if CELLFORGE_HAVE_FFTW
#include "sim/models/gliding/gliding_model.hpp"
#endif
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/spheres/spheres_model.hpp"

namespace cf {

ModelRegistry builtinModels() {
    ModelRegistry registry;
    registry.add(brownian::descriptor());
    registry.add(epidermis::descriptor());
    registry.add(lattice::descriptor());
    registry.add(spheres::descriptor());
    registry.add(cardiac::descriptor());
#if CELLFORGE_HAVE_FFTW
    registry.add(gliding::descriptor());  // its CPU reference needs FFTW
#endif
    return registry;
}

}  // namespace cf
