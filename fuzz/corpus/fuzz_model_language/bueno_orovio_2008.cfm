# SPDX-License-Identifier: GPL-3.0-or-later
# Bueno-Orovio, Cherry & Fenton 2008: minimal model for human ventricular action potentials.
#   A. Bueno-Orovio, E. M. Cherry, F. H. Fenton, J Theor Biol 253(3):544-560 (2008),
#   doi:10.1016/j.jtbi.2008.03.029 (equations and Table 1).
# Equations as in the paper and Pigreads `bueno2008minimal` (H(x) = 1 for x > 0):
#   J_fi = -v H(u - th_v)(u - th_v)(u_u - u) / tau_fi
#   J_so = (u - u_o)(1 - H(u - th_w)) / tau_o + H(u - th_w) / tau_so
#   J_si = -H(u - th_w) w s / tau_si
#   du/dt = -(J_fi + J_so + J_si) + I
#   dv/dt = (1 - H(u - th_v))(v_inf - v) / tau_v- - H(u - th_v) v / tau_v+
#   dw/dt = (1 - H(u - th_w))(w_inf - w) / tau_w- - H(u - th_w) w / tau_w+
#   ds/dt = ((1 + tanh(k_s (u - u_s))) / 2 - s) / tau_s
#   tau_v- = tau_v1- or tau_v2- (below / above th_v-), tau_w- = tau_w1- + (tau_w2- - tau_w1-)
#   (1 + tanh(k_w- (u - u_w-))) / 2, tau_so likewise with k_so, u_so, tau_s = tau_s1 or
#   tau_s2 (below / above th_w), tau_o = tau_o1 or tau_o2 (below / above th_o),
#   v_inf = 1 below th_v- else 0, w_inf = 1 - u / tau_winf below th_o else w*_inf.
# Potential: V = 85.7 mV u - 84 mV, the paper's rescaling (also used by the public
# implementations read: e.g. guilherme-couto/Bueno-Orovio-model rescale_u). Times in ms.
# Initial state u = 0, v = 1, w = 1, s = 0 (the paper; Pigreads). The stimulus is in
# A/F = mV/ms, negative depolarises: -50 A/F for 1 ms raises u by 0.58, above th_v = 0.3.
#
# Parameters: the EPI set of Table 1 (the default). Variants ENDO, M (midmyocardial), PB
# (fit to Priebe-Beuckelmann 1998) and TNNP (fit to ten Tusscher et al. 2004), also Table 1.
# Numbers from Pigreads `bueno2008minimal` ("EPI", "ENDO", "Midwall", "PB", "TNNP" sets),
# identical in guilherme-couto/Bueno-Orovio-model parameters.h; only the values that differ
# from EPI are listed. (M's tau_v2- = 1.4506 equals tau_v+ in both sources; kept as found.)
model bueno_orovio_2008 "Bueno-Orovio, Cherry & Fenton 2008 minimal ventricular model"
time [ms]
variant EPI { cell.u_u = 1.55 }
variant ENDO { cell.u_u = 1.56, cell.th_vm = 0.2, cell.tau_v1m = 75, cell.tau_v2m = 10,
               cell.tau_w1m = 6, cell.tau_w2m = 140, cell.k_wm = 200, cell.u_wm = 0.016,
               cell.tau_wp = 280, cell.tau_fi = 0.1, cell.tau_o1 = 470, cell.tau_so1 = 40,
               cell.tau_so2 = 1.2, cell.k_so = 2, cell.tau_s2 = 2, cell.tau_si = 2.9013,
               cell.tau_winf = 0.0273, cell.w_inf_star = 0.78 }
variant M { cell.u_u = 1.61, cell.th_vm = 0.1, cell.th_o = 0.005, cell.tau_v1m = 80,
            cell.tau_v2m = 1.4506, cell.tau_w1m = 70, cell.tau_w2m = 8, cell.k_wm = 200,
            cell.u_wm = 0.016, cell.tau_wp = 280, cell.tau_fi = 0.078, cell.tau_o1 = 410,
            cell.tau_o2 = 7, cell.tau_so1 = 91, cell.tau_so2 = 0.8, cell.k_so = 2.1,
            cell.u_so = 0.6, cell.tau_s2 = 4, cell.tau_si = 3.3849, cell.tau_winf = 0.01,
            cell.w_inf_star = 0.5 }
variant PB { cell.u_u = 1.45, cell.th_v = 0.35, cell.th_vm = 0.175, cell.tau_v1m = 10,
             cell.tau_w1m = 140, cell.tau_w2m = 6.25, cell.u_wm = 0.015, cell.tau_wp = 326,
             cell.tau_fi = 0.105, cell.tau_winf = 0.175, cell.w_inf_star = 0.9 }
variant TNNP { cell.u_u = 1.58, cell.th_w = 0.015, cell.th_vm = 0.015, cell.tau_w1m = 70,
               cell.tau_w2m = 20, cell.tau_wp = 280, cell.tau_o1 = 6, cell.tau_so1 = 43,
               cell.tau_so2 = 0.2, cell.k_so = 2, cell.tau_s2 = 3, cell.tau_si = 2.8723 }

[cell]
param u_o = 0 range(-1, 1) "resting value of u"
param u_u = 1.55 range(0, 3) "fast inward reversal value of u"
param th_v = 0.3 range(0, 1) "fast inward activation threshold (theta_v)"
param th_w = 0.13 range(0, 1) "slow current threshold (theta_w)"
param th_vm = 0.006 range(0, 1) "v opening time constant switch (theta_v-)"
param th_o = 0.006 range(0, 1) "slow outward time constant switch (theta_o)"
param tau_v1m = 60 [ms] range(0.01, 10000) "v opening time constant below theta_v-"
param tau_v2m = 1150 [ms] range(0.01, 10000) "v opening time constant above theta_v-"
param tau_vp = 1.4506 [ms] range(0.01, 1000) "v closing time constant"
param tau_w1m = 60 [ms] range(0.01, 10000) "w opening time constant, low u"
param tau_w2m = 15 [ms] range(0.01, 10000) "w opening time constant, high u"
param k_wm = 65 range(0, 1000) "steepness of the tau_w- switch"
param u_wm = 0.03 range(0, 1) "midpoint of the tau_w- switch"
param tau_wp = 200 [ms] range(0.01, 10000) "w closing time constant"
param tau_fi = 0.11 [ms] range(0.001, 100) "fast inward time constant"
param tau_o1 = 400 [ms] range(0.01, 10000) "slow outward time constant below theta_o"
param tau_o2 = 6 [ms] range(0.01, 10000) "slow outward time constant above theta_o"
param tau_so1 = 30.0181 [ms] range(0.01, 10000) "slow outward time constant, low u"
param tau_so2 = 0.9957 [ms] range(0.01, 10000) "slow outward time constant, high u"
param k_so = 2.0458 range(0, 100) "steepness of the tau_so switch"
param u_so = 0.65 range(0, 2) "midpoint of the tau_so switch"
param tau_s1 = 2.7342 [ms] range(0.01, 1000) "s time constant below theta_w"
param tau_s2 = 16 [ms] range(0.01, 1000) "s time constant above theta_w"
param k_s = 2.0994 range(0, 100) "steepness of s_inf"
param u_s = 0.9087 range(0, 2) "midpoint of s_inf"
param tau_si = 1.8875 [ms] range(0.01, 1000) "slow inward time constant"
param tau_winf = 0.07 range(0.001, 10) "slope of w_inf below theta_o"
param w_inf_star = 0.94 range(0, 1) "w_inf above theta_o"
param V_scale = 85.7 [mV] range(1, 300) "mV per unit of u"
param V_offset = -84 [mV] range(-150, 0) "potential at u = 0"
state V = -84 [mV] bind potential "membrane potential"
state v = 1 "fast inward gate"
state w = 1 "slow inward gate"
state s = 0 "slow inward activation"
u = (V - V_offset) / V_scale
tau_vm = if(u > th_vm, tau_v2m, tau_v1m)
tau_wm = tau_w1m + (tau_w2m - tau_w1m) * (1 + tanh(k_wm * (u - u_wm))) / 2
tau_so = tau_so1 + (tau_so2 - tau_so1) * (1 + tanh(k_so * (u - u_so))) / 2
tau_s = if(u > th_w, tau_s2, tau_s1)
tau_o = if(u > th_o, tau_o2, tau_o1)
v_inf = if(u > th_vm, 0, 1)
w_inf = if(u > th_o, w_inf_star, 1 - u / tau_winf)
s_inf = (1 + tanh(k_s * (u - u_s))) / 2
J_fi = if(u > th_v, -v * (u - th_v) * (u_u - u) / tau_fi, 0 [1/ms])
J_so = if(u > th_w, 1 / tau_so, (u - u_o) / tau_o)
J_si = if(u > th_w, -w * s / tau_si, 0 [1/ms])
i_stim = 0 [A/F] bind stimulus
dot(V) = -V_scale * (J_fi + J_so + J_si) - i_stim
dot(v) = if(u > th_v, -v / tau_vp, (v_inf - v) / tau_vm)
dot(w) = if(u > th_w, -w / tau_wp, (w_inf - w) / tau_wm)
dot(s) = (s_inf - s) / tau_s
