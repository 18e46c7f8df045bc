# SPDX-License-Identifier: GPL-3.0-or-later
# Mitchell & Schaeffer 2003: a two-current model of the cardiac membrane.
#   C. C. Mitchell, D. G. Schaeffer, Bull Math Biol 65:767-793 (2003),
#   doi:10.1016/S0092-8240(03)00041-7.
# Parameters (ms): tau_in 0.3, tau_out 6, tau_open 120, tau_close 150, v_gate 0.13, as in
# the paper and in Pigreads `mitchell2003two`; equations
#   du/dt = h u^2 (1 - u) / tau_in - u / tau_out + J_stim
#   dh/dt = (1 - h) / tau_open  if u < v_gate,  -h / tau_close  otherwise
# The model is dimensionless (0 <= u <= 1) with times in ms. Here u is mapped to mV by
# V = vrest + vamp u with vrest = -80 mV and vamp = 100 mV: a choice (the same scaling as the
# bundled Aliev-Panfilov model), not part of the paper. The stimulus is in A/F = mV/ms,
# negative depolarises: -50 A/F for 1 ms raises u by 0.5, above v_gate.
# h's rate is affine in h on each branch, so h is a gate (Rush-Larsen, exact decay).
# Analytic result (the paper; re-derived in test_cardiac_simple_models.cpp): a fully recovered cell (h = 1) stays excited until
# h has decayed to 4 tau_in / tau_out, i.e. for APD_max = tau_close ln(tau_out / (4 tau_in))
# = 150 ln 5 = 241 ms, in the limit tau_in << tau_out << tau_close.
model mitchell_schaeffer_2003 "Mitchell & Schaeffer 2003, mapped to mV and ms"
time [ms]

[cell]
param tau_in = 0.3 [ms] range(0.01, 10) "inward current time constant"
param tau_out = 6 [ms] range(0.1, 100) "outward current time constant"
param tau_open = 120 [ms] range(1, 1000) "gate opening (recovery) time constant"
param tau_close = 150 [ms] range(1, 1000) "gate closing time constant"
param v_gate = 0.13 range(0, 1) "gate switching potential (dimensionless)"
param vrest = -80 [mV] range(-150, 0) "resting potential (u = 0)"
param vamp = 100 [mV] range(1, 300) "potential span of u from 0 to 1"
state V = -80 [mV] bind potential "membrane potential"
state h = 1 "inward current gate"
u = (V - vrest) / vamp
J_in = h * u^2 * (1 - u) / tau_in
J_out = -u / tau_out
i_stim = 0 [A/F] bind stimulus
dot(V) = vamp * (J_in + J_out) - i_stim
dot(h) = if(u < v_gate, (1 - h) / tau_open, -h / tau_close)
