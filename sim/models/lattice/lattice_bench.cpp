// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench lattice`: the diffusion step at the lattice sizes and
// layouts, near the overflow limit, and the whole reaction-diffusion step.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/models/lattice/lattice_model.hpp"

namespace cf::lattice {

namespace {

// A periodic nxy x nxy x nz lattice (nz scaled by --scale) with the case's own parameters
// (`extra(sites)` gives them, e.g. particle counts from the site count); 100 steps on
// CUDA, a few on the CPU (seconds per step at 256^2 x 512).
BenchCase latticeCase(std::string name, std::string description, int nxy, int nz0,
                      std::function<std::vector<std::string>(std::uint64_t)> extra,
                      std::string note) {
    BenchCase c;
    c.name = std::move(name);
    c.description = std::move(description);
    c.run = [nxy, nz0, extra, note](Backend b, const BenchOptions& o) {
        const double scale = o.scale > 0 ? o.scale : 1.0;
        const int nz = std::max(8, static_cast<int>(std::lround(nz0 * scale)));
        const std::uint64_t sites = static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nz);
        std::vector<std::string> overrides = {
            "lattice.nx=" + std::to_string(nxy), "lattice.ny=" + std::to_string(nxy),
            "lattice.nz=" + std::to_string(nz), "tracking.per_species=0"};
        for (std::string& s : extra(sites))
            overrides.push_back(std::move(s));
        const std::uint64_t steps = b == Backend::Cuda ? 100 : (sites > 10'000'000 ? 1 : 3);
        BenchResult r = benchModelSteps(descriptor(), b, overrides, sites, 1, steps, o);
        r.note = note;
        return r;
    };
    return c;
}

std::string count(double perSite, std::uint64_t sites) {
    return std::to_string(static_cast<std::int64_t>(perSite * static_cast<double>(sites)));
}

// Diffusion only, 2 species at 0.1 particles per site (q = 0.25 and 0.125): no overflows
// at this occupancy, so this times the sweeps.
BenchCase sweepCase(int nxy, int nz0, const std::string& layout, int nMax) {
    const std::string size =
        std::to_string(nxy) + "x" + std::to_string(nxy) + "x" + std::to_string(nz0);
    return latticeCase(
        "step-" + size + "-" + layout,
        "Diffusion step (x, y, z sweeps + overflow) on " + size + " periodic sites, " + layout +
            ", 2 species at 0.1 particles per site, q = 0.25 and 0.125",
        nxy, nz0,
        [layout, nMax](std::uint64_t sites) {
            return std::vector<std::string>{"lattice.layout=" + layout,
                                            "lattice.n_max=" + std::to_string(nMax),
                                            "lattice.lambda=2",
                                            "lattice.tau=10",
                                            "species.count=2",
                                            "species.d1=100",
                                            "species.d2=50",
                                            "species.n1=" + count(0.05, sites),
                                            "species.n2=" + count(0.05, sites)};
        },
        "entities = sites (rate = site updates per second); one step = 3 sweeps, each site "
        "gathers itself and 2 neighbours (3 decodes + Philox per 4 particles)");
}

}  // namespace

std::vector<BenchCase> benchCases() {
    return {
        sweepCase(128, 256, "packed32", 4),
        sweepCase(128, 256, "byte16", 8),
        sweepCase(256, 512, "packed32", 4),
        sweepCase(256, 512, "byte16", 8),
        // Near the overflow limit: the paper's 0.41 particles per site at n_max = 8.
        latticeCase(
            "step-128x128x256-packed32-dense",
            "Diffusion step on 128x128x256 sites, packed32 n_max 8 at 0.41 particles "
            "per site (near the overflow limit), 2 species",
            128, 256,
            [](std::uint64_t sites) {
                return std::vector<std::string>{"lattice.layout=packed32",
                                                "lattice.n_max=8",
                                                "lattice.lambda=2",
                                                "lattice.tau=10",
                                                "species.count=2",
                                                "species.d1=100",
                                                "species.d2=50",
                                                "species.n1=" + count(0.205, sites),
                                                "species.n2=" + count(0.205, sites)};
            },
            "entities = sites; 0.41 particles per site, packed32 n_max 8"),
        // The whole reaction-diffusion step: A + B <-> C at ~0.1 particles per site.
        latticeCase(
            "rdme-128x128x256-byte16",
            "Reaction-diffusion step (3 sweeps + reactions A + B <-> C + overflow) on "
            "128x128x256 sites, byte16, 0.1 particles per site",
            128, 256,
            [](std::uint64_t sites) {
                return std::vector<std::string>{
                    "lattice.layout=byte16",
                    "lattice.lambda=10",
                    "lattice.tau=1000",
                    "species.count=3",
                    "species.names=A, B, C",
                    "species.d1=20",
                    "species.d2=20",
                    "species.d3=10",
                    "species.n1=" + count(0.04, sites),
                    "species.n2=" + count(0.04, sites),
                    "species.n3=" + count(0.02, sites),
                    "reactions.network=A + B -> C @ 1e9; C -> A + B @ 1e3"};
            },
            "entities = sites; one step = 3 sweeps + the reaction phase + re-insertion"),
    };
}

}  // namespace cf::lattice
