// SPDX-License-Identifier: GPL-3.0-or-later
// The generated kernel's stimulus tests (cuda_emitter.hpp): cf_pulse_on and cf_in_region.
#include "sim/models/cardiac/lang/cuda_emitter_protocol.hpp"

namespace cf::cardiac {

// pulseOn and inStimulusRegion of cardiac_model.cpp on cf_protocol: the same expressions
// in the same order, in double, each operation rounded on its own (the _rn intrinsics are
// never contracted into fused multiply-adds, which --use_fast_math's --fmad=true would
// allow; its other effects are on float only).
std::vector<std::string> protocolFunctionLines(const std::string& p) {
    std::vector<std::string> out;
    const auto line = [&](const std::string& text) { out.push_back(text); };
    line("// Whether the stimulus is on at t: cardiac_model.cpp's pulseOn, in double, every");
    line("// operation rounded on its own (no fused multiply-add), as the CPU computes it.");
    line("__device__ inline bool cf_pulse_on(double t) {");
    line("    if (t < " + p + ".start || " + p + ".duration <= 0.0) return false;");
    line("    double k = 0.0, since = __dsub_rn(t, " + p + ".start);");
    line("    if (" + p + ".cycleLength > 0.0) {");
    line("        k = floor(__ddiv_rn(since, " + p + ".cycleLength));");
    line("        since = __dsub_rn(since, __dmul_rn(k, " + p + ".cycleLength));");
    line("    } else if (since >= " + p + ".duration) {");
    line("        return false;");
    line("    }");
    line("    if (" + p + ".beats > 0 && k >= (double)" + p + ".beats) return false;");
    line("    return since < " + p + ".duration;");
    line("}");
    line("// Whether cell (node) n lies in the stimulated region: cardiac_model.cpp's");
    line(
        "// inStimulusRegion, the same way. The region is chosen first, so a region that "
        "needs");
    line(
        "// no coordinate (all) or only x (left edge) costs no integer division for the "
        "others.");
    line("__device__ inline bool cf_in_region(unsigned n) {");
    line("    const int a = " + p + ".slabAxis, b = " + p + ".slabBegin;");
    line("    const unsigned nx = (unsigned)(a == 0 ? " + p + ".slabCount : " + p +
         ".nx), ny = (unsigned)(a == 1 ? " + p + ".slabCount : " + p + ".ny);");
    line("    const double dx = " + p + ".dx;");
    line("    const double s = __dadd_rn(" + p + ".regionSize, 1e-9);");
    line("    if (" + p + ".region == 3) return true;  // all");
    line("    const double x = __dmul_rn((double)((int)(n % nx) + (a == 0 ? b : 0)), dx);");
    line("    if (" + p + ".region == 0) return x <= s;  // left edge");
    line("    const double y = __dmul_rn((double)((int)(n / nx % ny) + (a == 1 ? b : 0)), dx);");
    line(
        "    const double z = __dmul_rn((double)((int)(n / (nx * ny)) + (a == 2 ? b : 0)), "
        "dx);");
    line("    switch (" + p + ".region) {");
    line("        case 1:  // corner");
    line("            return x <= s && y <= s && z <= s;");
    line("        case 2: {  // centre");
    line("            const double cx = __dmul_rn(__dmul_rn(0.5, (double)(" + p +
         ".nx - 1)), dx);");
    line("            const double cy = __dmul_rn(__dmul_rn(0.5, (double)(" + p +
         ".ny - 1)), dx);");
    line("            const double cz = __dmul_rn(__dmul_rn(0.5, (double)(" + p +
         ".nz - 1)), dx);");
    line("            return fabs(__dsub_rn(x, cx)) <= s && fabs(__dsub_rn(y, cy)) <= s &&");
    line("                   fabs(__dsub_rn(z, cz)) <= s;");
    line("        }");
    line("    }");
    line("    return false;");
    line("}");
    return out;
}

std::vector<std::string> stepEndStructLines() {
    return {"struct CfStepEnd {",        "    double* activation;",
            "    real* trace;",          "    long long* fail_step;",
            "    long long step;",       "    unsigned long long probe;",
            "    double threshold, dt;", "};"};
}

std::vector<std::string> stepEndLines(const std::string& before, const std::string& after) {
    return {"    if (a.end.activation != nullptr) {",
            "        const real cf_after = " + after + ";",
            "        const double cf_b = " + before + ", cf_a = cf_after;",
            "        if (cf_b < a.end.threshold && cf_a >= a.end.threshold) {",
            "            const double cf_was = a.end.activation[i];",
            "            const double cf_now = cf_was >= 0.0 ? cf_was : a.t + a.end.dt * "
            "(a.end.threshold - cf_b) / (cf_a - cf_b);",
            "            if (cf_now != cf_was) a.end.activation[i] = cf_now;",
            "        }",
            "        if (i == a.end.probe && a.end.trace != nullptr) *a.end.trace = cf_after;",
            "    }"};
}

}  // namespace cf::cardiac
