// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Bound motors of `gliding` on the CPU, in double (docs/design/gliding.md 2.5 and 2.7,
// design M7, M8, M13): per-tail sub-cycling with Psi frozen, the conservation cap and the
// free motors, then the deterministic force by two gathers (W, then F2 at the nodes).
//
// Rotation-exact arithmetic: every sum over chords, over orientations and over the 4 x 4
// Peskin stencil runs over quarter-turn orbits, adding opposite members first, as the filament
// step does (smoluchowski_cpu.hpp). With the exact orientation and Peskin tables this makes a
// quarter turn of Psi (with theta -> theta + pi/2) give the quarter-turned Mb, W and F2 bit
// for bit. Every result is also independent of the thread count (one writer per item,
// fixed-order sums).
//
// These functions always compute; whether motors are on (motors.enabled) is the caller's
// decision.
#include <cstdint>
#include <vector>

#include "sim/models/gliding/anchor_rows.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding {

// Quarter-turn structure of the chord list, derived from the tables (a candidate to move into
// GlidingTables, where a CUDA backend would upload it).
struct MotorOrbits {
    // chordTurn[c]: the chord R c = (-oy, ox, j + ntheta/4) with the same k_a and length.
    std::vector<std::int32_t> chordTurn;
    // Orbits of four chords (c, R c, R^2 c, R^3 c), ordered by their first chord; the fixed
    // order of every sum over chords: ((c + R^2 c) + (R c + R^3 c)) per orbit, orbits in turn.
    std::vector<std::int32_t> orbit;
    // The gather lists of the tables, reordered so that the list of (j + ntheta/4, k) is the
    // quarter turn of the list of (j, k), entry by entry (the tables list them in chord order).
    std::vector<std::int32_t> gatherStart;  // [j * ns + k], size ntheta * ns + 1
    std::vector<GatherEntry> gather;
};

// Throws SimulationError if the chord list is not closed under the quarter turn (it is, by the
// exact-rotation tables and ntheta % 4 == 0; a failure is an internal error).
MotorOrbits buildMotorOrbits(const GlidingTables& t);

struct MotorState {
    // The anchors this state holds: every one, or a rank's rows (anchor_rows.hpp). Arrays are
    // indexed by a = r0 - rows.firstAnchor().
    AnchorRows rows;
    // Packed bound motors: mb[a * S + chord.off + l], r0 = iy * n + ix, S = t.sliceSize.
    std::vector<double> mb;
    // Per tail: Mb,coarse (design M7) and the free motors Mf = M - Mb,coarse.
    std::vector<double> coarse, free;
    // Round-off clamps of Mb < 0 to 0 since initMotors (design M13; expected 0).
    std::int64_t clampCount = 0;
    // Substeps of the last advanceMotors: the most any tail took, and the mean over tails.
    std::int32_t substepsMax = 0;
    double substepsMean = 0;
    MotorOrbits orbits;  // built by initMotors from the tables
};

// Mb = 0, Mf = M (= motors.Mtot), Mb,coarse = 0 (design M15), and the orbit tables, for the
// anchors of `rows` (without: every anchor).
void initMotors(const GlidingParams& p, const GlidingTables& t, MotorState& m);
void initMotors(const GlidingParams& p, const GlidingTables& t, MotorState& m,
                const AnchorRows& rows);

// What one tail did in one advance.
struct AnchorStep {
    std::int32_t substeps = 0;
    std::int32_t clamps = 0;
};

// Sub-cycles the bound motors of tail r0 (slice = its S packed values) from t to t + dt with
// Psi frozen (design 2.5): first Mb,coarse from the current Psi with the cap and Mf (Psi has
// moved since the last call), then per substep RK2 on every chord with Mf frozen, the clamp
// of round-off negatives, Mb,coarse, the cap and Mf. dt* = min(C_in ds, C_in/(koff + kon~ A),
// remaining time), A = sum_c psi_c L_c (design M7, M13). Writes coarse and mf of the tail.
AnchorStep advanceAnchor(const GlidingParams& p, const GlidingTables& t, const MotorOrbits& orbits,
                         const HostState& s, std::int32_t r0, double dt, double* slice,
                         double& coarse, double& mf);

// advanceAnchor for every tail of m.rows (parallelFor), then the metrics of MotorState (over
// those tails).
void advanceMotors(const GlidingParams& p, const GlidingTables& t, const HostState& s, double dt,
                   MotorState& m);

// W(y, j, k) = Psi(y, j) * sum over the gather entries of (j, k) of Mb(y - o, slot), stored at
// [(y * ntheta + j) * ns + k] (design 2.7), summing the entries whose tail m holds: on the
// rows y of m.rows.w; W stays 0 elsewhere. Resizes w.
void boundGather(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                 const MotorState& m, std::vector<double>& w);

// F2 at the nodes [iy * n + ix] (design 2.7, design M8):
// F2(g) = F dx dy dtheta ds sum_{k, j} p_j sum_{4x4 stencil} phi_x phi_y W(g - m, j, k),
// the filaments whose head lambda s_k p_j lies within the Peskin support of node g.
// Resizes fx and fy. `rows` (count 0: every row): the node rows computed; the others are 0.
void forceGather(const GlidingParams& p, const GlidingTables& t, const std::vector<double>& w,
                 std::vector<double>& fx, std::vector<double>& fy, RowBand rows = {});

}  // namespace cf::gliding
