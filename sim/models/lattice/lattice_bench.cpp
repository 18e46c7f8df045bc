// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench lattice`: the diffusion step at the lattice sizes.
#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/models/lattice/lattice_model.hpp"

namespace cf::lattice {

namespace {

// One diffusion step on nxy x nxy x nz periodic sites (nz scaled by --scale), 2 species
// at 0.1 particles per site: no overflows at this occupancy, so this times the sweeps.
BenchCase sweepCase(int nxy, int nz0, const char* layoutName, const char* layoutValue, int nMax) {
    const std::string size =
        std::to_string(nxy) + "x" + std::to_string(nxy) + "x" + std::to_string(nz0);
    BenchCase c;
    c.name = "step-" + size + "-" + layoutName;
    c.description = "Diffusion step (x, y, z sweeps + overflow) on " + size + " periodic sites, " +
                    layoutName + ", 2 species at 0.1 particles per site, q = 0.25 and 0.125";
    c.run = [nxy, nz0, layoutValue, nMax](Backend b, const BenchOptions& o) {
        const double scale = o.scale > 0 ? o.scale : 1.0;
        const int nz = std::max(8, static_cast<int>(std::lround(nz0 * scale)));
        const std::uint64_t sites = static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nz);
        const auto perSpecies = static_cast<std::int64_t>(0.05 * static_cast<double>(sites));
        const std::vector<std::string> overrides = {"lattice.nx=" + std::to_string(nxy),
                                                    "lattice.ny=" + std::to_string(nxy),
                                                    "lattice.nz=" + std::to_string(nz),
                                                    std::string("lattice.layout=") + layoutValue,
                                                    "lattice.n_max=" + std::to_string(nMax),
                                                    "lattice.lambda=2",
                                                    "lattice.tau=10",
                                                    "species.count=2",
                                                    "species.d1=100",
                                                    "species.d2=50",
                                                    "species.n1=" + std::to_string(perSpecies),
                                                    "species.n2=" + std::to_string(perSpecies),
                                                    "tracking.per_species=0"};
        // The CPU reference needs seconds per step at 256^2 x 512: one step there.
        const std::uint64_t steps = b == Backend::Cuda ? 100 : (sites > 10'000'000 ? 1 : 3);
        BenchResult r = benchModelSteps(descriptor(), b, overrides, sites, 1, steps, o);
        r.note =
            "entities = sites (rate = site updates per second); one step = 3 sweeps, each "
            "site gathers itself and 2 neighbours (3 decodes + Philox per 4 particles)";
        return r;
    };
    return c;
}

// Near the overflow limit (the paper's table: 0.41 particles per site is where 256^3 sites
// expect ~0.01 overflows per step at n_max = 8): packed32 n_max = 8, 128^2 x 256 sites.
BenchCase denseCase() {
    BenchCase c;
    c.name = "step-128x128x256-packed32-dense";
    c.description =
        "Diffusion step on 128x128x256 sites, packed32 n_max 8 at 0.41 particles "
        "per site (near the overflow limit), 2 species";
    c.run = [](Backend b, const BenchOptions& o) {
        const double scale = o.scale > 0 ? o.scale : 1.0;
        const int nz = std::max(8, static_cast<int>(std::lround(256 * scale)));
        const std::uint64_t sites = 128ull * 128ull * static_cast<std::uint64_t>(nz);
        const auto n = static_cast<std::int64_t>(0.205 * static_cast<double>(sites));
        const std::vector<std::string> overrides = {"lattice.nx=128",
                                                    "lattice.ny=128",
                                                    "lattice.nz=" + std::to_string(nz),
                                                    "lattice.layout=packed32",
                                                    "lattice.n_max=8",
                                                    "lattice.lambda=2",
                                                    "lattice.tau=10",
                                                    "species.count=2",
                                                    "species.d1=100",
                                                    "species.d2=50",
                                                    "species.n1=" + std::to_string(n),
                                                    "species.n2=" + std::to_string(n),
                                                    "tracking.per_species=0"};
        const std::uint64_t steps = b == Backend::Cuda ? 100 : 2;
        BenchResult r = benchModelSteps(descriptor(), b, overrides, sites, 1, steps, o);
        r.note = "entities = sites; 0.41 particles per site, packed32 n_max 8";
        return r;
    };
    return c;
}

// The whole reaction-diffusion step on 128^2 x 256 sites (byte16): A + B <-> C at about
// 0.1 particles per site, so the reaction phase (propensities, Philox, writes, overflow
// re-insertion) is timed with the sweeps.
BenchCase reactionDiffusionCase() {
    BenchCase c;
    c.name = "rdme-128x128x256-byte16";
    c.description =
        "Reaction-diffusion step (3 sweeps + reactions A + B <-> C + overflow) on "
        "128x128x256 sites, byte16, 0.1 particles per site";
    c.run = [](Backend b, const BenchOptions& o) {
        const double scale = o.scale > 0 ? o.scale : 1.0;
        const int nz = std::max(8, static_cast<int>(std::lround(256 * scale)));
        const std::uint64_t sites = 128ull * 128ull * static_cast<std::uint64_t>(nz);
        const auto n = static_cast<std::int64_t>(0.04 * static_cast<double>(sites));
        const std::vector<std::string> overrides = {
            "lattice.nx=128",
            "lattice.ny=128",
            "lattice.nz=" + std::to_string(nz),
            "lattice.layout=byte16",
            "lattice.lambda=10",
            "lattice.tau=1000",
            "species.count=3",
            "species.names=A, B, C",
            "species.d1=20",
            "species.d2=20",
            "species.d3=10",
            "species.n1=" + std::to_string(n),
            "species.n2=" + std::to_string(n),
            "species.n3=" + std::to_string(n / 2),
            "tracking.per_species=0",
            "reactions.network=A + B -> C @ 1e9; C -> A + B @ 1e3"};
        const std::uint64_t steps = b == Backend::Cuda ? 100 : 2;
        BenchResult r = benchModelSteps(descriptor(), b, overrides, sites, 1, steps, o);
        r.note = "entities = sites; one step = 3 sweeps + the reaction phase + re-insertion";
        return r;
    };
    return c;
}

}  // namespace

std::vector<BenchCase> benchCases() {
    return {sweepCase(128, 256, "packed32", "packed32", 4),
            sweepCase(128, 256, "byte16", "byte16", 8),
            sweepCase(256, 512, "packed32", "packed32", 4),
            sweepCase(256, 512, "byte16", "byte16", 8),
            denseCase(),
            reactionDiffusionCase()};
}

}  // namespace cf::lattice
