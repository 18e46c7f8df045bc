# SPDX-License-Identifier: GPL-3.0-or-later
#
# ten Tusscher & Panfilov 2006: human ventricular myocyte (epicardial; endo and M as variants).
#   K. H. W. J. ten Tusscher, A. V. Panfilov, Am J Physiol Heart Circ Physiol 291:H1088-H1100
#   (2006), doi:10.1152/ajpheart.00109.2006; currents from ten Tusscher, Noble, Noble &
#   Panfilov, AJP Heart 286:H1573 (2004).
#
# Transcribed from and checked against:
#   myokit/models  c/tentusscher-2006.mmt  (commit 074d8817; based on the PMR CellML, epi)
#   Chaste/cellml  cellml/ten_tusscher_model_2006_epi.cellml  (commit 09720d70): initial
#     potential, R = 8314.472, T = 310, F = 96485.3415, Cm = 0.185 uF, stimulus -52 A/F for
#     1 ms every 1000 ms. The .mmt rounds R and F to 8.314 J/mol/K and 96.485 C/mmol; the
#     unrounded values are used here.
# Initial values are the .mmt header's (the same as the Niederer 2011 benchmark's).
#
# Cell types: the defaults are the EPICARDIAL cell; the variants endo, epi and M (from the
# .mmt's cell-type switch, endo 0, epi 1, M 2) set cell.celltype, iks.gKs and ito.gto:
#   endo: gKs = 0.392, gto = 0.073 mS/uF, and the endocardial s gate
#         s_inf = 1 / (1 + exp((V + 28) / 5)),
#         tau_s = 1000 exp(-(V + 67)^2 / 1000) + 8  [ms]
#   epi:  gKs = 0.392, gto = 0.294 mS/uF, s gate as written in [ito]
#   M:    gKs = 0.098, gto = 0.294 mS/uF, s gate as epi
#
# Units: mV, ms, currents per capacitance in A/F (= mV/ms), concentrations in mM.
# The stimulus current enters the potassium balance (dot(Ki)), as in the source.
# ICaL's removable singularity at V = 15 mV is handled by the compiler; its quotient
# (V - 15) / (exp(2 (V - 15) F / (R T)) - 1) is written with the parameters F, R, T rather
# than the defined variable FRT, because the compiler only fixes quotients that read the
# potential and parameters.

model tentusscher_2006 "ten Tusscher & Panfilov 2006, human ventricular cell (epi default)"
time [ms]
variant endo { cell.celltype = 0, iks.gKs = 0.392 [mS/uF], ito.gto = 0.073 [mS/uF] }
variant epi { cell.celltype = 1, iks.gKs = 0.392 [mS/uF], ito.gto = 0.294 [mS/uF] }
variant M { cell.celltype = 2, iks.gKs = 0.098 [mS/uF], ito.gto = 0.294 [mS/uF] }

[membrane]
state V = -85.23 [mV] bind potential "membrane potential"
i_stim = 0 [A/F] bind stimulus
i_ion = (ina.INa + ik1.IK1 + ikr.IKr + iks.IKs + ito.Ito + ical.ICaL + inak.INaK
         + inaca.INaCa + ipca.IpCa + ipk.IpK + icab.ICab + inab.INab) in [A/F]
dot(V) = -(i_ion + i_stim)

[phys]
param R = 8.314472 [J/mol/K] range(8, 9) "gas constant"
param T = 310 [K] range(273, 320) "temperature"
param F = 96.4853415 [C/mmol] range(90, 100) "Faraday constant"
RTF = R * T / F in [mV]
FRT = F / (R * T) in [1/mV]
FFRT = F * FRT in [C/mmol/mV]

[cell]
param celltype = 1 range(0, 2) structural "0 endocardial, 1 epicardial, 2 mid-myocardial (M)"
param Cm = 185 [pF] range(10, 1000) "cell capacitance"
param Vc = 16404 [um^3] range(1000, 100000) "bulk cytoplasm volume"
param Vss = 54.68 [um^3] range(1, 1000) "dyadic subspace volume"
param Vsr = 1094 [um^3] range(100, 10000) "sarcoplasmic reticulum volume"

[extra]
param Ko = 5.4 [mM] range(1, 20) "extracellular potassium"
param Nao = 140 [mM] range(50, 200) "extracellular sodium"
param Cao = 2 [mM] range(0.1, 10) "extracellular calcium"

[nernst]
use phys.RTF, extra.Ko, extra.Nao, extra.Cao
use potassium.Ki, sodium.Nai, calcium.Cai
param P_kna = 0.03 range(0, 0.3) "relative Na permeability of IKs"
ENa = RTF * log(Nao / Nai) in [mV]
EK = RTF * log(Ko / Ki) in [mV]
EKs = RTF * log((Ko + P_kna * Nao) / (Ki + P_kna * Nai)) in [mV]
ECa = 0.5 * RTF * log(Cao / Cai) in [mV]

[ina]
# Fast sodium current.
use membrane.V, nernst.ENa
param gNa = 14.838 [mS/uF] range(0, 150) "maximal fast sodium conductance"
state m = 0.00172 [1] "activation gate"
state h = 0.7444 [1] "fast inactivation gate"
state j = 0.7045 [1] "slow inactivation gate"
INa = gNa * m^3 * h * j * (V - ENa) in [A/F]
m_inf = 1 / (1 + exp((-56.86 [mV] - V) / 9.03 [mV]))^2
alpha_m = 1 / (1 + exp((-60 [mV] - V) / 5 [mV]))
beta_m = 0.1 / (1 + exp((V + 35 [mV]) / 5 [mV])) + 0.1 / (1 + exp((V - 50 [mV]) / 200 [mV]))
tau_m = 1 [ms] * alpha_m * beta_m
dot(m) = (m_inf - m) / tau_m
h_inf = 1 / (1 + exp((V + 71.55 [mV]) / 7.43 [mV]))^2
alpha_h = if(V < -40 [mV], 0.057 [1/ms] * exp(-(V + 80 [mV]) / 6.8 [mV]), 0 [1/ms])
beta_h = if(V < -40 [mV],
            2.7 [1/ms] * exp(0.079 [1/mV] * V) + 3.1e5 [1/ms] * exp(0.3485 [1/mV] * V),
            0.77 [1/ms] / (0.13 * (1 + exp((V + 10.66 [mV]) / -11.1 [mV]))))
tau_h = 1 / (alpha_h + beta_h)
dot(h) = (h_inf - h) / tau_h
j_inf = h_inf
alpha_j = if(V < -40 [mV],
             (-25428 [1/mV/ms] * exp(0.2444 [1/mV] * V)
              - 6.948e-6 [1/mV/ms] * exp(-0.04391 [1/mV] * V)) * (V + 37.78 [mV])
                 / (1 + exp(0.311 [1/mV] * (V + 79.23 [mV]))),
             0 [1/ms])
beta_j = if(V < -40 [mV],
            0.02424 [1/ms] * exp(-0.01052 [1/mV] * V) / (1 + exp(-0.1378 [1/mV] * (V + 40.14 [mV]))),
            0.6 [1/ms] * exp(0.057 [1/mV] * V) / (1 + exp(-0.1 [1/mV] * (V + 32 [mV]))))
tau_j = 1 / (alpha_j + beta_j)
dot(j) = (j_inf - j) / tau_j

[ik1]
# Inward rectifier potassium current.
use membrane.V, nernst.EK, extra.Ko
param gK1_max = 5.405 [mS/uF] range(0, 55) "maximal inward-rectifier conductance"
gK1 = gK1_max * sqrt(Ko / 5.4 [mM])
alpha_K1 = 0.1 [1/ms] / (1 + exp(0.06 [1/mV] * (V - EK - 200 [mV])))
beta_K1 = ((3 [1/ms] * exp(0.0002 [1/mV] * (V - EK + 100 [mV]))
            + 1 [1/ms] * exp(0.1 [1/mV] * (V - EK - 10 [mV]))) /
           (1 + exp(-0.5 [1/mV] * (V - EK))))
K1_inf = alpha_K1 / (alpha_K1 + beta_K1)
IK1 = gK1 * K1_inf * (V - EK) in [A/F]

[ikr]
# Rapid delayed rectifier potassium current.
use membrane.V, nernst.EK, extra.Ko
param gKr_max = 0.153 [mS/uF] range(0, 1.5) "maximal rapid delayed rectifier conductance"
state xr1 = 0.00621 [1] "activation gate"
state xr2 = 0.4712 [1] "inactivation gate"
gKr = gKr_max * sqrt(Ko / 5.4 [mM])
IKr = gKr * xr1 * xr2 * (V - EK) in [A/F]
xr1_inf = 1 / (1 + exp((-26 [mV] - V) / 7 [mV]))
alpha_xr1 = 450 / (1 + exp((-45 [mV] - V) / 10 [mV]))
beta_xr1 = 6 / (1 + exp((V + 30 [mV]) / 11.5 [mV]))
tau_xr1 = 1 [ms] * alpha_xr1 * beta_xr1
dot(xr1) = (xr1_inf - xr1) / tau_xr1
xr2_inf = 1 / (1 + exp((V + 88 [mV]) / 24 [mV]))
alpha_xr2 = 3 / (1 + exp((-60 [mV] - V) / 20 [mV]))
beta_xr2 = 1.12 / (1 + exp((V - 60 [mV]) / 20 [mV]))
tau_xr2 = 1 [ms] * alpha_xr2 * beta_xr2
dot(xr2) = (xr2_inf - xr2) / tau_xr2

[iks]
# Slow delayed rectifier potassium current.
use membrane.V, nernst.EKs
param gKs = 0.392 [mS/uF] range(0, 4) "maximal slow delayed rectifier conductance (epi, endo; M: 0.098, variant M)"
state xs = 0.0095 [1] "activation gate"
IKs = gKs * xs^2 * (V - EKs) in [A/F]
xs_inf = 1 / (1 + exp((-5 [mV] - V) / 14 [mV]))
alpha_xs = 1400 / sqrt(1 + exp((5 [mV] - V) / 6 [mV]))
beta_xs = 1 / (1 + exp((V - 35 [mV]) / 15 [mV]))
tau_xs = 1 [ms] * alpha_xs * beta_xs + 80 [ms]
dot(xs) = (xs_inf - xs) / tau_xs

[ito]
# Transient outward current.
use membrane.V, nernst.EK
param gto = 0.294 [mS/uF] range(0, 3) "maximal transient outward conductance (epi, M; endo: 0.073, variant endo)"
state r = 2.42e-8 [1] "activation gate"
state s = 0.999998 [1] "inactivation gate"
Ito = gto * r * s * (V - EK) in [A/F]
r_inf = 1 / (1 + exp((20 [mV] - V) / 6 [mV]))
tau_r = 9.5 [ms] * exp(-(V + 40 [mV])^2 / 1800 [mV^2]) + 0.8 [ms]
dot(r) = (r_inf - r) / tau_r
# The s gate: endocardial (celltype 0) or epicardial and M.
s_inf = if(cell.celltype == 0, 1 / (1 + exp((V + 28 [mV]) / 5 [mV])),
           1 / (1 + exp((V + 20 [mV]) / 5 [mV])))
tau_s = if(cell.celltype == 0, 1000 [ms] * exp(-(V + 67 [mV])^2 / 1000 [mV^2]) + 8 [ms],
           85 [ms] * exp(-(V + 45 [mV])^2 / 320 [mV^2]) + 5 [ms] / (1 + exp((V - 20 [mV]) / 5 [mV]))
           + 3 [ms])
dot(s) = (s_inf - s) / tau_s

[ical]
# L-type calcium current (GHK form, driven by the subspace calcium).
use membrane.V, phys.FRT, phys.FFRT, phys.F, phys.R, phys.T
use extra.Cao, calcium.CaSS
param gCaL = 0.0398 [L/F/s] range(0, 0.4) "maximal L-type calcium permeability"
state d = 3.373e-5 [1] "activation gate"
state f = 0.7888 [1] "slow voltage inactivation gate"
state f2 = 0.9755 [1] "fast voltage inactivation gate"
state fCaSS = 0.9953 [1] "subspace calcium inactivation gate"
# (V - 15) / (exp(2 (V - 15) FRT) - 1): 0/0 at V = 15 mV (see the header).
ghk = (V - 15 [mV]) / (exp(2 * (V - 15 [mV]) * F / (R * T)) - 1) in [mV]
ICaL = (gCaL * d * f * f2 * fCaSS * 4 * FFRT
        * (0.25 * CaSS * exp(2 * (V - 15 [mV]) * FRT) - Cao) * ghk) in [A/F]
d_inf = 1 / (1 + exp((-8 [mV] - V) / 7.5 [mV]))
alpha_d = 1.4 / (1 + exp((-35 [mV] - V) / 13 [mV])) + 0.25
beta_d = 1.4 / (1 + exp((V + 5 [mV]) / 5 [mV]))
gamma_d = 1 / (1 + exp((50 [mV] - V) / 20 [mV]))
tau_d = 1 [ms] * (alpha_d * beta_d + gamma_d)
dot(d) = (d_inf - d) / tau_d
f_inf = 1 / (1 + exp((V + 20 [mV]) / 7 [mV]))
tau_f = (1102.5 [ms] * exp(-(V + 27 [mV])^2 / 225 [mV^2])
         + 200 [ms] / (1 + exp((13 [mV] - V) / 10 [mV]))
         + 180 [ms] / (1 + exp((V + 30 [mV]) / 10 [mV])) + 20 [ms])
dot(f) = (f_inf - f) / tau_f
f2_inf = 0.67 / (1 + exp((V + 35 [mV]) / 7 [mV])) + 0.33
tau_f2 = (562 [ms] * exp(-(V + 27 [mV])^2 / 240 [mV^2])
          + 31 [ms] / (1 + exp((25 [mV] - V) / 10 [mV]))
          + 80 [ms] / (1 + exp((V + 30 [mV]) / 10 [mV])))
dot(f2) = (f2_inf - f2) / tau_f2
fCaSS_inf = 0.6 / (1 + (CaSS / 0.05 [mM])^2) + 0.4
tau_fCaSS = 80 [ms] / (1 + (CaSS / 0.05 [mM])^2) + 2 [ms]
dot(fCaSS) = (fCaSS_inf - fCaSS) / tau_fCaSS

[inak]
# Sodium-potassium pump.
use membrane.V, phys.FRT, extra.Ko, sodium.Nai
param P_NaK = 2.724 [A/F] range(0, 27) "maximal pump current"
param K_mNa = 40 [mM] range(1, 400) "Nai half-saturation"
param K_mk = 1 [mM] range(0.1, 10) "Ko half-saturation"
INaK = (P_NaK * Ko / (Ko + K_mk) * Nai / (Nai + K_mNa)
        / (1 + 0.1245 * exp(-0.1 * V * FRT) + 0.0353 * exp(-V * FRT))) in [A/F]

[inaca]
# Sodium-calcium exchanger.
use membrane.V, phys.FRT, extra.Nao, extra.Cao, sodium.Nai, calcium.Cai
param K_NaCa = 1000 [A/F] range(0, 10000) "maximal exchanger current"
param Km_Ca = 1.38 [mM] range(0.1, 10) "Cao half-saturation"
param Km_Nai = 87.5 [mM] range(10, 500) "Nai half-saturation"
param K_sat = 0.1 range(0, 1) "saturation factor at negative potentials"
param alpha = 2.5 range(0, 10) "enhancement of the outward mode"
param gamma = 0.35 range(0, 1) "voltage dependence parameter"
INaCa = (K_NaCa
         * (exp(gamma * V * FRT) * Nai^3 * Cao - exp((gamma - 1) * V * FRT) * Nao^3 * Cai * alpha)
         / ((Km_Nai^3 + Nao^3) * (Km_Ca + Cao) * (1 + K_sat * exp((gamma - 1) * V * FRT)))) in [A/F]

[ipca]
# Sarcolemmal calcium pump.
use calcium.Cai
param gpCa = 0.1238 [A/F] range(0, 1.2) "maximal calcium pump current"
param KpCa = 0.0005 [mM] range(0.00005, 0.005) "Cai half-saturation"
IpCa = gpCa * Cai / (Cai + KpCa) in [A/F]

[ipk]
# Plateau potassium current.
use membrane.V, nernst.EK
param gpK = 0.0146 [mS/uF] range(0, 0.15) "plateau potassium conductance"
IpK = gpK * (V - EK) / (1 + exp((25 [mV] - V) / 5.98 [mV])) in [A/F]

[icab]
# Background calcium current.
use membrane.V, nernst.ECa
param gCab = 0.000592 [mS/uF] range(0, 0.006) "background calcium conductance"
ICab = gCab * (V - ECa) in [A/F]

[inab]
# Background sodium current.
use membrane.V, nernst.ENa
param gNab = 0.00029 [mS/uF] range(0, 0.003) "background sodium conductance"
INab = gNab * (V - ENa) in [A/F]

[jrel]
# Calcium release from the SR through the RyR (four-state Markov model reduced to R').
use calcium.CaSS, calcium.CaSR
param Vrel = 0.102 [1/ms] range(0, 1) "maximal release rate"
param k1_prime = 0.15 [1/mM^2/ms] range(0, 1.5)
param k2_prime = 0.045 [1/mM/ms] range(0, 0.45)
param k3 = 0.06 [1/ms] range(0, 0.6)
param k4 = 0.005 [1/ms] range(0, 0.05)
param max_sr = 2.5 range(0, 10)
param min_sr = 1 range(0, 10)
param EC = 1.5 [mM] range(0.1, 10) "CaSR half-saturation of kcasr"
state R_prime = 0.9073 [1] "fraction of RyRs not inactivated"
kcasr = max_sr - (max_sr - min_sr) / (1 + (EC / CaSR)^2)
k1 = k1_prime / kcasr
k2 = k2_prime * kcasr
O = k1 * CaSS^2 * R_prime / (k3 + k1 * CaSS^2)
Jrel = Vrel * O * (CaSR - CaSS) in [mM/ms]
dot(R_prime) = -k2 * CaSS * R_prime + k4 * (1 - R_prime)

[jleak]
# Leak from the SR.
use calcium.Cai, calcium.CaSR
param Vleak = 0.00036 [1/ms] range(0, 0.0036) "leak rate"
Jleak = Vleak * (CaSR - Cai) in [mM/ms]

[jup]
# Uptake into the SR (SERCA).
use calcium.Cai
param Vmax_up = 0.006375 [mM/ms] range(0, 0.06) "maximal uptake rate"
param K_up = 0.00025 [mM] range(0.00001, 0.01) "Cai half-saturation"
Jup = Vmax_up / (1 + K_up^2 / Cai^2) in [mM/ms]

[jxfer]
# Diffusion from the subspace to the bulk cytoplasm.
use calcium.Cai, calcium.CaSS
param Vxfer = 0.0038 [1/ms] range(0, 0.038) "transfer rate"
Jxfer = Vxfer * (CaSS - Cai) in [mM/ms]

[calcium]
# Free calcium in the cytoplasm (Cai), the subspace (CaSS) and the SR (CaSR), with rapid
# buffering: d(free)/dt = d(total)/dt / (1 + Buf K / (Ca + K)^2).
use jup.Jup, jrel.Jrel, jleak.Jleak, jxfer.Jxfer
use phys.F, cell.Cm, cell.Vc, cell.Vss, cell.Vsr
param Buf_c = 0.2 [mM] range(0, 2) "total cytoplasmic buffer"
param Buf_SS = 0.4 [mM] range(0, 4) "total subspace buffer"
param Buf_SR = 10 [mM] range(0, 100) "total SR buffer"
param K_buf_c = 0.001 [mM] range(0.0001, 0.01)
param K_buf_SS = 0.00025 [mM] range(0.00001, 0.01)
param K_buf_SR = 0.3 [mM] range(0.01, 3)
state Cai = 0.000126 [mM] "free cytoplasmic calcium"
state CaSR = 3.64 [mM] "free SR calcium"
state CaSS = 0.00036 [mM] "free subspace calcium"
ddt_Cai_total = (-(icab.ICab + ipca.IpCa - 2 * inaca.INaCa) * Cm / (2 * Vc * F)
                 + (Jleak - Jup) * Vsr / Vc + Jxfer) in [mM/ms]
ddt_CaSS_total = -ical.ICaL * Cm / (2 * Vss * F) + Jrel * Vsr / Vss - Jxfer * Vc / Vss in [mM/ms]
ddt_CaSR_total = Jup - (Jrel + Jleak) in [mM/ms]
dot(Cai) = ddt_Cai_total / (1 + Buf_c * K_buf_c / (Cai + K_buf_c)^2)
dot(CaSS) = ddt_CaSS_total / (1 + Buf_SS * K_buf_SS / (CaSS + K_buf_SS)^2)
dot(CaSR) = ddt_CaSR_total / (1 + Buf_SR * K_buf_SR / (CaSR + K_buf_SR)^2)

[sodium]
use phys.F, cell.Cm, cell.Vc
state Nai = 8.604 [mM] "intracellular sodium"
INa_total = ina.INa + inab.INab + 3 * inak.INaK + 3 * inaca.INaCa in [A/F]
dot(Nai) = -INa_total * Cm / (Vc * F)

[potassium]
# The stimulus current is carried by potassium (as in the source).
use phys.F, cell.Cm, cell.Vc
state Ki = 136.89 [mM] "intracellular potassium"
IK_total = ik1.IK1 + ito.Ito + ikr.IKr + iks.IKs + ipk.IpK + membrane.i_stim - 2 * inak.INaK in [A/F]
dot(Ki) = -IK_total * Cm / (Vc * F)
