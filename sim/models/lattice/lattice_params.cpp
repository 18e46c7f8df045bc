// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/lattice/lattice_params.hpp"

#include <string>

namespace cf::lattice {

const ParamTable& parameterTable() {
    static const ParamTable table = [] {
        using P = LatticeParams;
        ParamTableBuilder<P> b;
        const auto S = Mutability::Structural;
        b.integer("lattice", "nx", &P::nx, 64, 1, 4096, "1", "Sites along x", S);
        b.integer("lattice", "ny", &P::ny, 64, 1, 4096, "1", "Sites along y", S);
        b.integer("lattice", "nz", &P::nz, 64, 1, 4096, "1", "Sites along z", S);
        b.real("lattice", "lambda", &P::lambda, 2.0, 0.01, 1.0e4, "nm", "Site spacing lambda", S);
        b.real("lattice", "tau", &P::tau, 10.0, 1.0e-6, 1.0e9, "ns",
               "Time step tau; every species needs q = D tau / lambda^2 <= 0.5", Mutability::Live);
        const std::vector<std::string> bc = {"periodic", "reflective"};
        b.choice("lattice", "boundary_x", &P::boundaryX, bc, "periodic",
                 "Boundary along x: periodic wraps, reflective makes a particle stay", S);
        b.choice("lattice", "boundary_y", &P::boundaryY, bc, "periodic", "Boundary along y", S);
        b.choice("lattice", "boundary_z", &P::boundaryZ, bc, "periodic", "Boundary along z", S);
        b.choice("lattice", "layout", &P::layout, {"packed32", "byte16"}, "byte16",
                 "Site storage: packed32 = one uint32 (4-bit type + n_max fields of "
                 "floor(28/n_max) bits); byte16 = 16 uint8 slots in 4 word planes "
                 "(Lattice Microbes' ByteLattice)",
                 S);
        b.integer("lattice", "n_max", &P::nMax, 8, 2, 8, "1",
                  "packed32 only: particles per site, 2, 4 or 8 (species ids up to 16383, "
                  "127, 7)",
                  S);
        b.integer("species", "count", &P::speciesCount, 2, 1, kMaxSpecies, "1",
                  "Number of species in use (1..8); species s uses d<s> and n<s>", S);
        float P::*d[kMaxSpecies] = {&P::d1, &P::d2, &P::d3, &P::d4, &P::d5, &P::d6, &P::d7, &P::d8};
        std::int32_t P::*n[kMaxSpecies] = {&P::n1, &P::n2, &P::n3, &P::n4,
                                           &P::n5, &P::n6, &P::n7, &P::n8};
        for (int s = 0; s < kMaxSpecies; ++s) {
            const std::string k = std::to_string(s + 1);
            b.real("species", "d" + k, d[s], s == 0 ? 100.0 : 50.0, 0.0, 1.0e9, "nm^2/us",
                   "Diffusion coefficient of species " + k, Mutability::Live);
        }
        for (int s = 0; s < kMaxSpecies; ++s) {
            const std::string k = std::to_string(s + 1);
            b.integer("species", "n" + k, n[s], s < 2 ? 10000 : 0, 0, 1'000'000'000, "1",
                      "Initial particles of species " + k + ", placed uniformly at random", S);
        }
        b.real("lattice", "obstacle_fraction", &P::obstacleFraction, 0.0, 0.0, 0.95, "1",
               "Share of sites made obstacles (reflective: nothing enters), drawn per site", S);
        b.choice("obstacles", "shape", &P::obstacleShape, {"sites", "spheres", "invivo"}, "sites",
                 "Obstacles (lattice.obstacle_fraction of the cytoplasm): single sites drawn "
                 "per site; hard spheres of obstacles.radius placed at random (Roberts et al. "
                 "2009, Fig. 4); or the in-vivo size classes of an E. coli cytoplasm (radii "
                 "1.7-10.4 nm) scaled to the fraction",
                 Mutability::Structural);
        b.real("obstacles", "radius", &P::obstacleRadius, 10.0, 0.1, 1.0e5, "nm",
               "Radius of spherical obstacles (obstacles.shape = spheres)", S);
        b.choice("geometry", "region", &P::region, {"none", "sphere", "mesh"}, "none",
                 "Cell geometry: none (every site is cytoplasm); a sphere of geometry.radius "
                 "at the lattice centre; or the closed surface geometry.mesh. Inside is "
                 "cytoplasm within a membrane shell, beyond is outside; particles start in "
                 "the cytoplasm",
                 Mutability::Structural);
        b.real("geometry", "radius", &P::regionRadius, 50.0, 0.1, 1.0e6, "nm",
               "Radius of the spherical cell (geometry.region = sphere)", S);
        b.text("geometry", "mesh", &P::meshFile, "",
               "Closed surface mesh of the cell (OBJ, PLY, STL, glTF; geometry.region = mesh), "
               "centred in the lattice",
               S, TextKind::FilePath);
        b.real("geometry", "mesh_scale", &P::meshScale, 1000.0, 1.0e-6, 1.0e9, "nm/unit",
               "Length of one mesh unit (1000: the mesh is in um)", S);
        b.real("geometry", "membrane_thickness", &P::membraneThickness, 0.0, 0.0, 1.0e5, "nm",
               "Membrane shell inside the surface (0: one site layer)", S);
        b.text("species", "names", &P::speciesNamesText, "",
               "Names of species 1..count, comma separated, used by reactions, rules and "
               "legends (empty: s1, s2, ...)",
               S);
        b.text("diffusion", "rules", &P::diffusionRulesText, "",
               "D in nm^2/us per region or between regions, overriding species.d<s> (by "
               "default a species keeps to its region): 'A: membrane = 1; *: cytoplasm -> "
               "membrane = 0.5'",
               Mutability::Live);
        b.text("reactions", "network", &P::networkText, "",
               "Reactions, ';' separated: 'A + B -> C @ 1.07e5; C -> A + B @ 0.351' with "
               "rates in M^(1-order)/s (order 0, 1 or 2), optionally 'in membrane'; at most "
               "one reaction per site and step (Lattice Microbes)",
               Mutability::Live);
        b.text("reactions", "sbml", &P::sbmlFile, "",
               "SBML file with mass-action reactions (instead of reactions.network); its "
               "species become species 1..count in file order",
               S, TextKind::FilePath);
        b.choice("reactions", "sbml_laws", &P::sbmlLaws, {"molar", "sbml"}, "sbml",
                 "With reactions.sbml: kinetic laws as SBML defines them (sbml: the rate in "
                 "the model's substance units, a propensity for items) or rate constants in "
                 "M and s, compartment factors dropped (molar)",
                 S);
        b.boolean("reactions", "sbml_counts", &P::sbmlCounts, true,
                  "With reactions.sbml: the initial counts are the file's (true) or "
                  "species.n1..n8 (false: the scenario overrides the file)",
                  S);
        b.integer("tracking", "per_species", &P::tracked, 1000, 0, 10'000'000, "1",
                  "Particles of each species given an identity whose unwrapped displacement "
                  "gives the MSD metrics (0: off, saves the id planes)",
                  S);
        b.boolean("validation", "check_counts", &P::validation, false,
                  "Count particles per species after every step; a change throws",
                  Mutability::Live);
        return b.build();
    }();
    return table;
}

}  // namespace cf::lattice
