// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Parameter sets the CUDA lattice tests share (test_lattice_cuda.cpp,
// test_lattice_cuda_sweeps.cpp).
#include <string>
#include <vector>

namespace cf::test {

// A spherical cell on 16^3 byte16 sites of 10 nm: three species, 1500 A and B and 200 C
// tracked, counts validated, A crossing the membrane by region rules; then `extra`
// (obstacles, a reaction network).
inline std::vector<std::string> sphericalCell(std::vector<std::string> extra) {
    std::vector<std::string> a = {
        "lattice.nx=16",
        "lattice.ny=16",
        "lattice.nz=16",
        "lattice.layout=byte16",
        "lattice.lambda=10",
        "lattice.tau=1000",
        "species.count=3",
        "species.names=A, B, C",
        "species.d1=40",
        "species.d2=20",
        "species.d3=10",
        "species.n1=1500",
        "species.n2=1500",
        "species.n3=200",
        "tracking.per_species=200",
        "validation.check_counts=true",
        "geometry.region=sphere",
        "geometry.radius=75",
        "diffusion.rules=A: cytoplasm -> membrane = 20; A: membrane = 5; A: membrane -> "
        "cytoplasm = 20"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

}  // namespace cf::test
