// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `spheres`: the model is spheres_cuda_model.hpp (one rank) and
// spheres_cuda_ranks.cpp (its step over ranks).
#include "sim/models/spheres/cuda/spheres_cuda_model.hpp"

namespace cf::spheres {

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<cudamodel::CudaSpheres>();
}

}  // namespace cf::spheres
