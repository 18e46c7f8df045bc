// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench lattice`: the diffusion step at the lattice sizes and
// layouts, near the overflow limit, the whole reaction-diffusion step, and the in-vivo
// performance runs of Roberts et al. 2009, Table 2.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/models/lattice/lattice_model.hpp"

namespace cf::lattice {

namespace {

// Steps per repeat: 100 on CUDA, a few on the CPU (seconds per step at 256^2 x 512).
std::uint64_t stepsFor(Backend b, std::uint64_t sites) {
    return b == Backend::Cuda ? 100 : (sites > 10'000'000 ? 1 : 3);
}

// The CUDA sweep kernel a run uses (cuda/lattice_cuda.cpp reads the same variable), so
// results of CELLFORGE_LATTICE_SWEEP=warp|tiled|site runs say which they timed.
std::string sweepKernelNote(Backend b) {
    if (b != Backend::Cuda) return "";
    const char* k = std::getenv("CELLFORGE_LATTICE_SWEEP");
    return std::string("; sweep kernel ") +
           (k != nullptr && *k != '\0' ? k : "the default (warp for byte16, tiled for packed32)");
}

// nz of a case under --scale.
int scaledNz(int nz0, const BenchOptions& o) {
    const double scale = o.scale > 0 ? o.scale : 1.0;
    return std::max(8, static_cast<int>(std::lround(nz0 * scale)));
}

// A periodic nxy x nxy x nz lattice (nz scaled by --scale) with the case's own parameters
// (`extra(sites)` gives them, e.g. particle counts from the site count).
BenchCase latticeCase(std::string name, std::string description, int nxy, int nz0,
                      std::function<std::vector<std::string>(std::uint64_t)> extra,
                      std::string note) {
    BenchCase c;
    c.name = std::move(name);
    c.description = std::move(description);
    c.run = [nxy, nz0, extra, note](Backend b, const BenchOptions& o) {
        const int nz = scaledNz(nz0, o);
        const std::uint64_t sites = static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nz);
        std::vector<std::string> overrides = {
            "lattice.nx=" + std::to_string(nxy), "lattice.ny=" + std::to_string(nxy),
            "lattice.nz=" + std::to_string(nz), "tracking.per_species=0"};
        for (std::string& s : extra(sites))
            overrides.push_back(std::move(s));
        BenchResult r =
            benchModelSteps(descriptor(), b, overrides, sites, 1, stepsFor(b, sites), o);
        r.note = note + sweepKernelNote(b);
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
        "entities = sites (rate = site updates per second); one step = 3 sweeps");
}

// One row of Roberts et al. 2009, Table 2 ("Performance of in vivo simulations"): lattice,
// spacing, time step and the GTX280 figures (10^6 site updates per second, simulated seconds
// per GPU-day). tau = lambda^2 / (2 x 25 nm^2/us); the paper prints 0.94 us for 7 nm, which
// the formula makes 0.98 us (its s/GPU-day column fits either).
struct Table2Row {
    int nxy, nz;
    double lambda;          // nm
    double paperTau;        // us, as printed
    double paperMsites;     // GTX280, 10^6 sites/s
    double paperSimPerDay;  // GTX280, simulated s per GPU-day
    bool byDefault;
};

constexpr Table2Row kTable2[] = {
    {64, 128, 20, 8.00, 533, 700, true},  {64, 128, 16, 5.12, 522, 440, false},
    {128, 256, 10, 2.00, 781, 32, true},  {128, 256, 9, 1.62, 747, 25, false},
    {128, 256, 8, 1.28, 776, 20, false},  {256, 512, 7, 0.94, 648, 1.6, false},
    {256, 512, 6, 0.72, 647, 1.2, false}, {256, 512, 5, 0.50, 645, 0.83, false},
    {256, 512, 4, 0.32, 642, 0.52, true},
};

std::string fmtG(double v) {
    char t[32];
    std::snprintf(t, sizeof t, "%.3g", v);
    return t;
}

// The paper's in-vivo lattice: the E. coli crowders (obstacles.shape = invivo) at 30 % of a
// periodic lattice, one species of D = 20 nm^2/us (q = 0.4 at the row's tau) at 0.05
// particles per site, nothing tracked. The extras put our figures beside the paper's
// columns: sites_per_s (= entity_steps_per_s), sim_s_per_gpu_day (steps/s x tau x 86400).
BenchCase table2Case(const Table2Row& row) {
    const std::string size =
        std::to_string(row.nxy) + "x" + std::to_string(row.nxy) + "x" + std::to_string(row.nz);
    const double tau = row.lambda * row.lambda / (2.0 * 25.0);  // us
    BenchCase c;
    c.name = "invivo-" + size + "-" + fmtG(row.lambda) + "nm";
    c.description = "Roberts et al. 2009 Table 2: in-vivo crowders (30 %) on " + size +
                    " periodic sites at " + fmtG(row.lambda) + " nm, tau " + fmtG(tau) +
                    " us, byte16, 1 species at 0.05 particles per site";
    c.runByDefault = row.byDefault;
    c.run = [row, tau](Backend b, const BenchOptions& o) {
        const int nz = scaledNz(row.nz, o);
        const std::uint64_t sites = static_cast<std::uint64_t>(row.nxy) *
                                    static_cast<std::uint64_t>(row.nxy) *
                                    static_cast<std::uint64_t>(nz);
        const std::vector<std::string> overrides = {"lattice.nx=" + std::to_string(row.nxy),
                                                    "lattice.ny=" + std::to_string(row.nxy),
                                                    "lattice.nz=" + std::to_string(nz),
                                                    "lattice.layout=byte16",
                                                    "lattice.lambda=" + fmtG(row.lambda),
                                                    "lattice.tau=" + fmtG(tau * 1000.0),  // ns
                                                    "lattice.obstacle_fraction=0.3",
                                                    "obstacles.shape=invivo",
                                                    "species.count=1",
                                                    "species.d1=20",
                                                    "species.n1=" + count(0.05 * 0.7, sites),
                                                    "tracking.per_species=0"};
        BenchResult r =
            benchModelSteps(descriptor(), b, overrides, sites, 1, stepsFor(b, sites), o);
        const double simPerDay = r.stepsPerSecond() * tau * 1e-6 * 86400.0;
        r.extra = {{"sites_per_s", r.entityStepsPerSecond()},
                   {"sim_s_per_gpu_day", simPerDay},
                   {"tau_us", tau},
                   {"paper_gtx280_sites_per_s", row.paperMsites * 1e6},
                   {"paper_gtx280_sim_s_per_gpu_day", row.paperSimPerDay},
                   {"paper_tau_us", row.paperTau}};
        r.note = "entities = sites; paper (GTX280) " + fmtG(row.paperMsites) + " M sites/s, " +
                 fmtG(row.paperSimPerDay) + " s/GPU-day at tau " + fmtG(row.paperTau) +
                 " us; ours " + fmtG(r.entityStepsPerSecond() / 1e6) + " M sites/s (" +
                 fmtG(r.entityStepsPerSecond() / (row.paperMsites * 1e6)) + "x), " +
                 fmtG(simPerDay) + " s/GPU-day at tau " + fmtG(tau) + " us" +
                 (nz != row.nz ? " (scaled nz: not the paper's lattice)" : "") + sweepKernelNote(b);
        return r;
    };
    return c;
}

}  // namespace

std::vector<BenchCase> benchCases() {
    std::vector<BenchCase> cases = {
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
    for (const Table2Row& row : kTable2)
        cases.push_back(table2Case(row));
    return cases;
}

}  // namespace cf::lattice
