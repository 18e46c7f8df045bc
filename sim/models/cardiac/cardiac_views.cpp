// SPDX-License-Identifier: GPL-3.0-or-later
// What `cardiac` draws: the tissue volume and the states shown beside the potential.
#include "sim/models/cardiac/cardiac_views.hpp"

#include <algorithm>
#include <sstream>
#include <string>

namespace cf::cardiac {

std::vector<std::size_t> viewStates(const CardiacParams& p, const CheckedModel& m) {
    std::string text = p.viewStates;
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream words(text);
    std::vector<std::size_t> out;
    std::string name;
    while (words >> name) {
        int found = -1;
        std::string known;
        for (std::size_t k = 0; k < m.states.size(); ++k) {
            const std::string& q = m.vars[static_cast<std::size_t>(m.states[k].var)].name;
            known += (known.empty() ? "" : ", ") + q;
            if (q == name || q.substr(q.find('.') + 1) == name) {
                if (found >= 0)
                    throw ParameterError("views.states: '" + name +
                                         "' is ambiguous: write it with its section");
                found = static_cast<int>(k);
            }
        }
        if (found < 0)
            throw ParameterError("views.states: the model has no state '" + name +
                                 "' (its states: " + known + ")");
        if (std::find(out.begin(), out.end(), static_cast<std::size_t>(found)) == out.end())
            out.push_back(static_cast<std::size_t>(found));
    }
    return out;
}

ModelViews tissueViews(const CardiacParams& p, const CheckedModel& m, MemorySpace space,
                       const float* potential, const float* activation, double time,
                       const std::vector<const float*>& extra) {
    ModelViews v;
    tissueBox(p, v.boxLo, v.boxHi);
    for (int a = 0; a < 3; ++a) {
        v.focusLo[a] = v.boxLo[a];
        v.focusHi[a] = v.boxHi[a];
    }
    VolumeView vol;
    vol.name = "tissue";
    vol.space = space;
    vol.dims[0] = p.nx;
    vol.dims[1] = p.ny;
    vol.dims[2] = p.nz;
    tissueBox(p, vol.lo, vol.hi);
    const double rest = m.vars[static_cast<std::size_t>(m.potential)].initial;
    // An action potential spans about 120 mV above rest: a fixed range, so that colours mean
    // the same potential in every frame.
    vol.scalars.push_back({"V", "mV", potential, rest - 5.0, rest + 120.0});
    vol.scalars.push_back({"activation_time", "ms", activation, 0.0, std::max(time, 1e-3)});
    const std::vector<std::size_t> states = viewStates(p, m);
    for (std::size_t k = 0; k < states.size() && k < extra.size(); ++k) {
        const Variable& s = m.vars[static_cast<std::size_t>(m.states[states[k]].var)];
        vol.scalars.push_back({s.name, s.unit.empty() ? "1" : s.unit, extra[k], 0.0, 0.0});
    }
    v.volumes.push_back(std::move(vol));
    return v;
}

}  // namespace cf::cardiac
