# SPDX-License-Identifier: GPL-3.0-or-later
# Fenton & Karma 1998: the three-variable (3V) minimal ionic model.
#   F. Fenton, A. Karma, Chaos 8(1):20-47 (1998), doi:10.1063/1.166311 (Table I).
# Equations (as in the paper and Pigreads `fenton1998vortex`), p = H(u - u_c), q = H(u - u_v):
#   J_fi = -v p (1 - u)(u - u_c) / tau_d       tau_d = Cm / g_fi, Cm = 1
#   J_so = u (1 - p) / tau_0 + p / tau_r
#   J_si = -w (1 + tanh(k (u - u_csi))) / (2 tau_si)
#   du/dt = -(J_fi + J_so + J_si) + I
#   dv/dt = (1 - p)(1 - v) / tau_v- - p v / tau_v+,  tau_v- = q tau_v1- + (1 - q) tau_v2-
#   dw/dt = (1 - p)(1 - w) / tau_w- - p w / tau_w+
# H(x) is taken as 1 at x = 0 (u >= u_c), as Pigreads does.
# Potential: V = V_0 + u (V_fi - V_0) = -85 mV + 100 mV u (the paper; Pigreads V_0 = -85,
# V_fi = 15). Times in ms. The stimulus is in A/F = mV/ms, negative depolarises.
#
# Parameter sets of Table I as variants; the defaults are BR. Numbers from Pigreads'
# `fenton1998vortex` parameter sets (Beeler Reuter, Modified Beeler Reuter, Luo Rudy,
# Girouard), cross-checked against Beatbox src/fkmod.h ("Table I on p.30": BR, MBR, MLR-I,
# GP), which agrees except for rounding: Beatbox has BR tau_r 33 and tau_si 30, MBR tau_si 45
# and GP tau_si 22 where Pigreads has 33.33, 29, 44.84 and 22.22 (Pigreads kept here; the
# paper's table itself was not read [unverified which rounding it prints]). k = 10,
# u_c = 0.13, u_csi = 0.85 in every set (Pigreads; Beatbox's modified model uses k = 1).
#   BR     Beeler-Reuter fit (the default)
#   MBR    modified Beeler-Reuter
#   MLR_I  modified Luo-Rudy I (Pigreads "Luo Rudy"; tau_v1- = tau_v2-, so u_v is moot)
#   GP     Girouard et al. guinea pig fit
model fenton_karma_1998 "Fenton & Karma 1998 three-variable model, mapped to mV and ms"
time [ms]
variant BR { cell.g_fi = 4, cell.tau_r = 33.33, cell.tau_si = 29, cell.tau_0 = 12.5,
             cell.tau_vp = 3.33, cell.tau_v1m = 1250, cell.tau_v2m = 19.6, cell.tau_wp = 870,
             cell.tau_wm = 41, cell.u_v = 0.04 }
variant MBR { cell.g_fi = 4, cell.tau_r = 50, cell.tau_si = 44.84, cell.tau_0 = 8.3,
              cell.tau_vp = 3.33, cell.tau_v1m = 1000, cell.tau_v2m = 19.2, cell.tau_wp = 667,
              cell.tau_wm = 11, cell.u_v = 0.055 }
variant MLR_I { cell.g_fi = 5.8, cell.tau_r = 130, cell.tau_si = 127, cell.tau_0 = 12.5,
                cell.tau_vp = 10, cell.tau_v1m = 18.2, cell.tau_v2m = 18.2, cell.tau_wp = 1020,
                cell.tau_wm = 80, cell.u_v = 0 }
variant GP { cell.g_fi = 8.7, cell.tau_r = 25, cell.tau_si = 22.22, cell.tau_0 = 12.5,
             cell.tau_vp = 10, cell.tau_v1m = 333, cell.tau_v2m = 40, cell.tau_wp = 1000,
             cell.tau_wm = 65, cell.u_v = 0.025 }

[cell]
param g_fi = 4 [1/ms] range(0, 100) "fast inward conductance over Cm (1 / tau_d)"
param tau_r = 33.33 [ms] range(0.1, 1000) "slow outward time constant (excited)"
param tau_si = 29 [ms] range(0.1, 1000) "slow inward time constant"
param tau_0 = 12.5 [ms] range(0.1, 1000) "slow outward time constant (at rest)"
param tau_vp = 3.33 [ms] range(0.1, 1000) "v closing time constant"
param tau_v1m = 1250 [ms] range(0.1, 10000) "v opening time constant for u >= u_v"
param tau_v2m = 19.6 [ms] range(0.1, 10000) "v opening time constant for u < u_v"
param tau_wp = 870 [ms] range(0.1, 10000) "w closing time constant"
param tau_wm = 41 [ms] range(0.1, 10000) "w opening time constant"
param u_c = 0.13 range(0, 1) "excitation threshold"
param u_v = 0.04 range(0, 1) "switch of the v opening time constant"
param u_csi = 0.85 range(0, 2) "slow inward activation midpoint"
param k = 10 range(0, 100) "slow inward activation steepness"
param V_0 = -85 [mV] range(-150, 0) "resting potential (u = 0)"
param V_fi = 15 [mV] range(-50, 100) "fast inward reversal potential (u = 1)"
state V = -85 [mV] bind potential "membrane potential"
state v = 1 "fast inward gate"
state w = 1 "slow inward gate"
u = (V - V_0) / (V_fi - V_0)
J_fi = if(u >= u_c, -v * g_fi * (1 - u) * (u - u_c), 0 [1/ms])
J_so = if(u >= u_c, 1 / tau_r, u / tau_0)
J_si = -w * (1 + tanh(k * (u - u_csi))) / (2 * tau_si)
tau_vm = if(u >= u_v, tau_v1m, tau_v2m)
i_stim = 0 [A/F] bind stimulus
dot(V) = -(V_fi - V_0) * (J_fi + J_so + J_si) - i_stim
dot(v) = if(u >= u_c, -v / tau_vp, (1 - v) / tau_vm)
dot(w) = if(u >= u_c, -w / tau_wp, (1 - w) / tau_wm)
