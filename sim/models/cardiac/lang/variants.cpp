// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/variants.hpp"

#include <cstdio>
#include <set>

#include "sim/core/number_format.hpp"
#include "sim/models/cardiac/lang/units.hpp"

namespace cf::cardiac {

namespace {

// The parameter an override names: "section.p", or a bare "p" that only one section
// declares (a bare name two sections declare must be qualified). -1 when it names none.
int overrideTarget(const CheckedModel& m, const std::string& name) {
    if (name.find('.') != std::string::npos) {
        const int i = m.find(name);
        return i >= 0 && m.vars[static_cast<std::size_t>(i)].kind == VarKind::Param ? i : -1;
    }
    int found = -1;
    for (int p : m.params) {
        if (unqualifiedName(m.vars[static_cast<std::size_t>(p)].name) != name) continue;
        if (found >= 0) return -1;
        found = p;
    }
    return found;
}

}  // namespace

void applyVariants(const ModelAst& ast, const std::string& variant, CheckedModel& m,
                   DiagnosticSink& sink) {
    const Variant* chosen = nullptr;
    std::set<std::string> seen;
    for (const Variant& v : ast.variants) {
        if (!seen.insert(v.name).second) {
            sink.error(v.pos, "E111", "variant '" + v.name + "' is already defined");
            continue;
        }
        m.variants.push_back(v.name);
        if (v.name == variant) chosen = &v;
        for (const Override& o : v.overrides) {
            const int p = overrideTarget(m, o.name);
            if (p < 0) {
                sink.error(o.pos, "E141",
                           "variant '" + v.name + "': '" + o.name + "' is not a parameter");
                continue;
            }
            const Variable& param = m.vars[static_cast<std::size_t>(p)];
            if (o.unit.empty() || param.unit.empty()) continue;
            const auto a = parseUnit(o.unit), b = parseUnit(param.unit);
            if (a && b && !(*a == *b))
                sink.error(o.pos, "E131",
                           "unit mismatch in variant '" + v.name + "': [" + o.unit + "] vs [" +
                               param.unit + "] of '" + param.name + "'");
        }
    }
    if (variant.empty()) return;
    if (chosen == nullptr) {
        std::string known;
        for (const std::string& n : m.variants)
            known += (known.empty() ? "" : ", ") + n;
        sink.error(ast.pos, "E142",
                   "unknown variant '" + variant + "'" +
                       (known.empty() ? std::string(" (the model has no variants)")
                                      : " (known variants: " + known + ")"));
        return;
    }
    m.variant = variant;
    for (const Override& o : chosen->overrides) {
        const int p = overrideTarget(m, o.name);
        if (p < 0) continue;
        Variable& param = m.vars[static_cast<std::size_t>(p)];
        if (param.hasRange && (o.value < param.lo || o.value > param.hi)) {
            sink.error(o.pos, "E140",
                       "variant '" + chosen->name + "': value " + formatShort(o.value) +
                           " of parameter '" + param.name + "' is outside its range [" +
                           formatShort(param.lo) + ", " + formatShort(param.hi) + "]");
            continue;
        }
        param.initial = o.value;
    }
}

}  // namespace cf::cardiac
