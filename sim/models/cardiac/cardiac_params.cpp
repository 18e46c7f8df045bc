// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/cardiac_params.hpp"

namespace cf::cardiac {

const ParamTable& parameterTable() {
    static const ParamTable table = [] {
        using P = CardiacParams;
        constexpr Mutability S = Mutability::Structural;
        constexpr Mutability L = Mutability::Live;
        ParamTableBuilder<P> b;
        // The choices are assets/models/*.cfm in name order (generated/sim/bundled_models.hpp;
        // a test checks that they agree).
        b.choice("model", "bundled", &P::bundled,
                 {"aliev_panfilov", "beeler_reuter_1977", "bueno_orovio_2008", "fenton_karma_1998",
                  "luo_rudy_1991", "mitchell_schaeffer_2003", "rogers_mcculloch_1994",
                  "tentusscher_2006"},
                 "aliev_panfilov",
                 "Bundled cell model, used when model.file and model.source are empty", S);
        b.text("model", "file", &P::modelFile, "",
               "Cell model (.cfm) in the model language; empty: the bundled model", S,
               TextKind::FilePath);
        b.text("model", "source", &P::modelSource, "",
               "Model text (.cfm) used instead of model.file when not empty; editing it "
               "recompiles the model and keeps the states of the same name",
               L);
        b.text("model", "variant", &P::variant, "",
               "One of the model's variants (a named set of parameter values, e.g. endo, epi "
               "or M for tentusscher_2006); empty: the model file's defaults",
               S);
        b.text("model", "parameters", &P::parameterValues, "",
               "Values of the model's parameters, one 'name = value' per line (or ';'); names "
               "as in the model file, with or without the section",
               L);
        b.choice("model", "precision", &P::precision, {"double", "float"}, "double",
                 "Arithmetic of the CUDA backend's generated kernel (the CPU reference is "
                 "double)",
                 S);
        b.boolean("model", "fast_math", &P::fastMath, false,
                  "Compile the CUDA kernel with approximate exp, log and division "
                  "(--use_fast_math): faster, less accurate",
                  S);
        b.choice("model", "integrator", &P::integrator,
                 {"declared", "forward_euler", "rush_larsen", "grl1", "backward_euler"}, "declared",
                 "Integration of the states: as the model declares (gates Rush-Larsen, others "
                 "forward Euler, unless its method lines say otherwise), or one method for all "
                 "(rush_larsen: gates only, the others forward Euler; grl1: generalized "
                 "Rush-Larsen, every state; backward_euler: one Newton iteration of implicit "
                 "Euler on each state's own slope, every state)",
                 S);
        b.boolean("model", "lookup", &P::lookup, false,
                  "Tabulate the model's functions of the potential alone (rate constants, "
                  "steady states) over -100..100 mV every 0.01 mV and interpolate linearly "
                  "(a model's own lookup line takes precedence)",
                  S);
        b.choice("model", "state_storage", &P::stateStorage, {"auto", "registers", "shared"},
                 "auto",
                 "Where the CUDA kernel keeps a cell's states during its step: registers (copied "
                 "to locals), shared memory (Lionetti et al.'s Opt2S, for models whose states "
                 "outgrow the registers), or auto: shared from 256 states on (registers were "
                 "faster for every model measured, up to 67 states)",
                 S);
        b.choice("model", "arithmetic", &P::arithmetic,
                 {"auto", "as_written", "hoist", "division", "phi1", "rewritten"}, "auto",
                 "Arithmetic rewrites of the CUDA kernel: hoist (terms of parameters alone "
                 "computed once by the host in double, and divisions by them or by constants as "
                 "products with the reciprocal), division (float: every other quotient within 2 "
                 "ulp, PTX div.full, instead of correctly rounded), phi1 (Rush-Larsen's "
                 "(e^z - 1)/z as a polynomial where |z| < 1/2), rewritten (all three), "
                 "as_written (none), or auto: rewritten in float, as_written in double (where the "
                 "kernel then matches the CPU reference to the last bit)",
                 S);
        b.integer("model", "min_blocks_per_sm", &P::minBlocksPerSm, 0, 0, 16, "1",
                  "Blocks of 128 cells the CUDA kernel must fit on one multiprocessor "
                  "(__launch_bounds__: the compiler then caps each thread's registers, spilling "
                  "the rest); 0: the compiler's own allocation",
                  S);
        b.integer("model", "kernel_parts", &P::kernelParts, 0, 0, 64, "1",
                  "Kernels the CUDA step is split into (Lionetti et al.'s Opt3: each updates a "
                  "run of states and computes only what they read, in fewer registers; at most "
                  "one per state); 0: in double 4 from 32 states, 3 from 16, else 1; in float 1 "
                  "(measured fastest on an H200 for the models in docs/CARDIAC.md)",
                  S);
        b.real("time", "dt", &P::dt, 0.02, 1e-5, 1.0, "ms", "Time step", L);
        b.integer("tissue", "nx", &P::nx, 128, 1, 4096, "1", "Nodes along x", S);
        b.integer("tissue", "ny", &P::ny, 128, 1, 4096, "1", "Nodes along y", S);
        b.integer("tissue", "nz", &P::nz, 1, 1, 4096, "1", "Nodes along z", S);
        b.real("tissue", "dx", &P::dx, 0.25, 1e-3, 10.0, "mm", "Node spacing", S);
        b.text("tissue", "mesh", &P::mesh, "",
               "Closed surface mesh (mm; OBJ, STL, PLY, glTF, ...) giving the tissue's shape: "
               "nodes inside are tissue, the others take no part (no flux across the surface); "
               "empty: the whole grid",
               S, TextKind::FilePath);
        b.real("tissue", "diffusion_long", &P::diffusionLong, 0.1, 0.0, 10.0, "mm^2/ms",
               "Diffusion coefficient sigma / (chi Cm) along the fibres", L);
        b.real("tissue", "diffusion_trans", &P::diffusionTrans, 0.1, 0.0, 10.0, "mm^2/ms",
               "Diffusion coefficient across the fibres", L);
        b.choice("tissue", "fibre_axis", &P::fibreAxis, {"x", "y", "z"}, "x",
                 "Axis the fibres run along", L);
        b.real("protocol", "start", &P::start, 1.0, 0.0, 1e7, "ms", "Time of the first stimulus",
               L);
        b.real("protocol", "cycle_length", &P::cycleLength, 0.0, 0.0, 1e7, "ms",
               "Time between stimuli (0: a single stimulus). A train needs protocol.beats "
               "above 1 (or 0, no limit): with the default beats = 1 only the first pulse "
               "comes, whatever the cycle length. A live edit re-times the train from "
               "protocol.start; the beat metrics keep the windows of the last reset",
               L);
        b.real("protocol", "duration", &P::duration, 1.0, 0.0, 1e4, "ms", "Length of a pulse", L);
        b.real("protocol", "amplitude", &P::amplitude, -50.0, -1e4, 1e4, "A/F",
               "Stimulus current during a pulse (negative depolarises)", L);
        b.integer("protocol", "beats", &P::beats, 1, 0, 1'000'000, "1",
                  "Number of pulses, protocol.cycle_length apart (0: no limit); with "
                  "cycle_length = 0 only the first pulse comes, whatever the count",
                  L);
        b.choice("protocol", "region", &P::region, {"left_edge", "corner", "centre", "all"},
                 "left_edge", "Nodes the stimulus reaches", L);
        b.real("protocol", "region_size", &P::regionSize, 1.0, 0.0, 1e4, "mm",
               "Extent of the stimulated region from its edge, corner or centre", L);
        b.real("activation", "threshold", &P::activationThreshold, 0.0, -200.0, 200.0, "mV",
               "A node activates when its potential first rises through this", L);
        b.text("views", "states", &P::viewStates, "",
               "States shown as volume channels besides V and activation_time, separated by "
               "commas or spaces (e.g. 'ina.h, calcium.Cai'); names as in the model, with or "
               "without the section",
               L);
        b.text("trace", "points", &P::tracePoints, "",
               "Points whose potential is plotted as metric trace.<name>.V: one 'name x y z' "
               "(mm, interpolated between nodes) per line or ';'",
               L);
        return b.build();
    }();
    return table;
}

}  // namespace cf::cardiac
