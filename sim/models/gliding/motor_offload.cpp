// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/motor_offload.hpp"

#include <string>

#include "sim/core/backend.hpp"
#include "sim/core/errors.hpp"

namespace cf::gliding {

#if CELLFORGE_HAVE_CUDA
std::unique_ptr<MotorOffload> makeCudaMotorOffload(const GlidingParams& p, const GlidingTables& t);
#endif

std::unique_ptr<MotorOffload> makeMotorOffload(const GlidingParams& p, const GlidingTables& t) {
#if CELLFORGE_HAVE_CUDA
    if (!isAvailable(Backend::Cuda))
        throw ParameterError("gliding: motors.placement = gpu needs a CUDA device: " +
                             cudaStatus());
    return makeCudaMotorOffload(p, t);
#else
    (void)p;
    (void)t;
    throw ParameterError(
        "gliding: motors.placement = gpu needs a build with CUDA; this one has none");
#endif
}

}  // namespace cf::gliding
