# SPDX-License-Identifier: GPL-3.0-or-later
# Rogers & McCulloch 1994: a FitzHugh-Nagumo variant whose recovery current is gated by
# the excitation (the c2 u v term), so that the cell does not hyperpolarise after a beat.
#   J. M. Rogers, A. D. McCulloch, IEEE Trans Biomed Eng 41(8):743-757 (1994),
#   doi:10.1109/10.310090.
# Parameters: a = 0.13, b = 0.013, c1 = 0.26, c2 = 0.1, d = 1.0 exactly as in Fig. 1 of the
# seed paper (Lionetti, McCulloch & Baden, the cell model written for Continuity), which
# writes, with ug_n = (ug - vrest) / (vmax - vrest):
#   dug/dt = (c1 ug_n (ug_n - a)(1 - ug_n) - c2 vg ug_n)(vmax - vrest) + i_stim / cm
#   dvg/dt = b ug_n - b d vg
# The seed uses vrest = 0, vmax = 1 (dimensionless u) and times in ms (Continuity's unit).
# Here u is mapped to mV by V = vrest + vamp u with vrest = -85 mV and vamp = 125 mV (peak
# +40 mV), the scaling of a public implementation of this model ("ReparametrizedFitzHughNagumo",
# V_REST = -85, V_PEAK = 40); the original paper's mV scaling was not checked [unverified].
# The rates are in 1/ms; the stimulus is in A/F = mV/ms, negative depolarises (as in every
# bundled model): -50 A/F for 1 ms raises u by 0.4, above the threshold a.
model rogers_mcculloch_1994 "Rogers & McCulloch 1994 (seed Fig. 1), mapped to mV and ms"
time [ms]

[cell]
param a = 0.13 range(0, 1) "excitation threshold"
param b = 0.013 [1/ms] range(0, 1) "recovery rate"
param c1 = 0.26 [1/ms] range(0, 10) "excitation rate"
param c2 = 0.1 [1/ms] range(0, 10) "recovery coupling"
param d = 1 range(0, 10) "recovery decay"
param vrest = -85 [mV] range(-150, 0) "resting potential (u = 0)"
param vamp = 125 [mV] range(1, 300) "peak minus resting potential (u = 1)"
state V = -85 [mV] bind potential "membrane potential"
state v = 0 "recovery variable"
u = (V - vrest) / vamp
i_stim = 0 [A/F] bind stimulus
dot(V) = vamp * (c1 * u * (u - a) * (1 - u) - c2 * u * v) - i_stim
dot(v) = b * (u - d * v)
