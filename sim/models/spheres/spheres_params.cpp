// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/spheres/spheres_params.hpp"

namespace cf::spheres {

const ParamTable& parameterTable() {
    static const ParamTable table = [] {
        using P = SpheresParams;
        constexpr Mutability S = Mutability::Structural;
        ParamTableBuilder<P> b;
        b.choice("init", "layout", &P::layout, {"lattice", "random", "ball"}, "lattice",
                 "Initial cells: lattice (benchmark A), uniform in a cube (benchmark B), or "
                 "uniform in a ball (spheroid)",
                 S);
        b.integer("init", "cells_per_axis", &P::cellsPerAxis, 8, 1, 256, "1",
                  "Lattice layout: cells per axis (64 = benchmark A)", S);
        b.real("init", "spacing", &P::spacing, 20.0, 1e-3, 1e4, "um",
               "Lattice layout: distance between neighbouring cells", S);
        b.integer("init", "count", &P::count, 1000, 1, 200'000'000, "1",
                  "Random and ball layouts: number of cells", S);
        b.real("init", "box", &P::box, 500.0, 1.0, 1e6, "um",
               "Random layout: cells uniform in the cube [0, box)", S);
        b.real("init", "radius", &P::radius, 100.0, 1.0, 1e6, "um",
               "Ball layout: radius of the ball around the origin", S);
        b.real("init", "diameter", &P::diameter, 30.0, 1e-3, 1e4, "um", "Initial cell diameter", S);
        b.real("init", "mass", &P::mass, 1.0, 1e-9, 1e9, "1",
               "Mass of a cell of the initial diameter; sets the (uniform) density", S);
        b.real("init", "age_spread", &P::ageSpread, 0.0, 0.0, 1.0, "1",
               "Initial volume V(D) + u x spread x (V_div - V(D)), u uniform (not in the paper)",
               S);
        b.real("time", "dt", &P::dt, 0.01, 1e-6, 10.0, "h", "Time step", Mutability::Live);
        b.real("mechanics", "adherence", &P::adherence, 0.4, 0.0, 1e6, "1",
               "A cell moves only when its total force exceeds this", Mutability::Live);
        b.real("mechanics", "max_displacement", &P::maxDisplacement, 3.0, 0.0, 1e4, "um",
               "Largest move per step (the whole vector is scaled down, not each component)",
               Mutability::Live);
        b.real("mechanics", "repulsion", &P::repulsion, 2.0, 0.0, 1e4, "1/um",
               "kappa of F = kappa delta - gamma sqrt(R delta)", Mutability::Live);
        b.real("mechanics", "attraction", &P::attraction, 1.0, 0.0, 1e4, "1/um",
               "gamma of F = kappa delta - gamma sqrt(R delta)", Mutability::Live);
        b.real("mechanics", "radius_extension", &P::radiusExtension, 1.5, 0.0, 1e3, "um",
               "Added to each radius in the force (BioDynaMo: 10 x 0.15)", Mutability::Live);
        b.real("mechanics", "interaction_radius", &P::interactionRadius, 0.0, 0.0, 1e4, "um",
               "Pairs closer than this interact; 0 = the largest diameter at each step", S);
        b.real("mechanics", "coincident_force", &P::coincidentForce, 3.0, 0.0, 1e3, "1",
               "Half-width of the random force between cells with coincident centres",
               Mutability::Live);
        b.integer("mechanics", "sort_every", &P::sortEvery, 1, 1, 1'000'000, "step",
                  "Reorder cells into Morton order every this many steps (performance only)",
                  Mutability::Live);
        b.choice("mechanics", "neighbour_search", &P::neighbourSearch, {"grid", "kdtree"}, "grid",
                 "How the CPU finds each cell's neighbours: the uniform grid, or a kd-tree "
                 "(nanoflann; the baseline of Hesam et al.'s comparison, the same pairs and "
                 "forces). The CUDA backend searches its grid and refuses kdtree",
                 S);
        b.choice("mechanics", "force_kernel", &P::forceKernel, {"agent", "voxel"}, "agent",
                 "The CUDA force kernel: a thread per cell (Hesam et al.'s v2), or a block per "
                 "grid voxel with the neighbouring voxels' cells in shared memory (their v3; "
                 "the same results to the bit, measured slower: docs/SPHERES.md). No effect on "
                 "the CPU",
                 Mutability::Live);
        b.choice("mechanics", "precision", &P::precision, {"float", "double"}, "float",
                 "Arithmetic of positions, diameters, forces and moves on CUDA: float, or "
                 "double (Hesam et al.'s v0; agrees with the CPU to round-off). The CPU "
                 "reference is double either way, so this has no effect there",
                 S);
        b.boolean("growth", "enabled", &P::growth, true, "Cells grow and divide", Mutability::Live);
        b.real("growth", "rate", &P::growthRate, 300.0, 0.0, 1e9, "um^3/h",
               "Volume growth rate of a cell that is not dividing", Mutability::Live);
        b.real("growth", "division_diameter", &P::divisionDiameter, 40.0, 1e-3, 1e4, "um",
               "A cell whose volume exceeds that of this diameter divides", Mutability::Live);
        b.real("growth", "ratio_min", &P::ratioMin, 0.9, 0.01, 100.0, "1",
               "Smallest daughter/mother volume ratio at division", Mutability::Live);
        b.real("growth", "ratio_max", &P::ratioMax, 1.1, 0.01, 100.0, "1",
               "Largest daughter/mother volume ratio at division", Mutability::Live);
        b.real("domain", "margin", &P::margin, 100.0, 0.0, 1e6, "um",
               "The domain (grid box) is the initial bounding box grown by this margin", S);
        b.integer("capacity", "initial", &P::capacityInitial, 0, 0, 2'147'483'647, "1",
                  "Cell slots allocated at reset; 0 = twice the initial count", S);
        b.integer("capacity", "max_cells", &P::maxCells, 0, 0, 2'147'483'647, "1",
                  "Stop with an error when the population would exceed this; 0 = no limit",
                  Mutability::Live);
        // Not in the paper (it names a substance as what GPU-only frameworks lack); every
        // value below is our choice.
        b.boolean("substance", "enabled", &P::substance, false,
                  "A diffusing extracellular substance that cells secrete and sense", S);
        b.real("substance", "voxel", &P::voxel, 20.0, 1e-3, 1e6, "um",
               "Largest voxel edge of the substance grid over the domain", S);
        b.real("substance", "diffusion", &P::diffusion, 100.0, 0.0, 1e9, "um^2/h",
               "Diffusion coefficient of the substance", Mutability::Live);
        b.real("substance", "decay", &P::decay, 0.1, 0.0, 1e6, "1/h", "First-order decay rate",
               Mutability::Live);
        b.real("substance", "secretion", &P::secretion, 1.0, 0.0, 1e12, "1/h",
               "Amount each cell releases per hour into the voxel holding its centre",
               Mutability::Live);
        b.real("substance", "chemotaxis", &P::chemotaxis, 0.0, -1e12, 1e12, "um^5/h",
               "Cells move by dt x chemotaxis x grad c (negative: away from the source)",
               Mutability::Live);
        b.choice("substance", "boundary", &P::boundary, {"closed", "open"}, "closed",
                 "Closed: nothing leaves the domain; open: zero concentration outside",
                 Mutability::Live);
        return b.build();
    }();
    return table;
}

}  // namespace cf::spheres
