# SPDX-License-Identifier: GPL-3.0-or-later
#
# Beeler & Reuter 1977: mammalian ventricular myocardial fibre.
#   G. W. Beeler, H. Reuter, J Physiol 268:177-210 (1977), doi:10.1113/jphysiol.1977.sp011853
#
# Transcribed from and checked against:
#   Chaste/cellml  cellml/beeler_reuter_model_1977.cellml  (commit 03224b62; COR export, currents
#     per mm^2 there; rescaled here to the paper's per-cm^2 units: 1 uA/mm^2 = 100 uA/cm^2)
#   myokit/models  c/beeler-1977.mmt  (commit 01ac26d9)
# Initial values are the CellML file's. The rate constants use the paper's coefficient form
# (as in the .mmt); the CellML file writes some of them as 1/scale (d: 1/13.89 = 0.072,
# 1/59 ~ 0.017; f: 1/6.67 ~ 0.15; x1: 1/12.1 ~ 0.083, 1/17.5 ~ 0.057, 1/16.67 ~ 0.06,
# 1/25 = 0.04).
# Known discrepancy, x1 beta: the .mmt has exp(-0.04 (V + 333)) in the denominator, the CellML
# file exp(-0.04 (V + 20)). The paper's rate formula shares one voltage offset (C3) between
# the numerator's and the denominator's exponentials, so (V + 20) is used here (as in the
# CellML file and in Luo-Rudy 1991's X gate, which took it from this model).
#
# Units: mV, ms, uA/cm^2 with C = 1 uF/cm^2 (so uA/cm^2 / (uF/cm^2) = mV/ms), Cai in mM.
# Stimulus (CellML protocol): 0.5 uA/mm^2 = 50 uA/cm^2 for 1 ms every 1000 ms from t = 10 ms;
# here a NEGATIVE i_stim depolarises, so drive it with -50 uA/cm^2.

model beeler_reuter_1977 "Beeler & Reuter 1977, ventricular myocardial fibre"
time [ms]

[membrane]
state V = -84.624 [mV] bind potential "membrane potential"
param C = 1 [uF/cm^2] range(0.1, 10) "membrane capacitance per area"
i_stim = 0 [uA/cm^2] bind stimulus
i_ion = ina.INa + isi.Isi + ix1.Ix1 + ik1.IK1 in [uA/cm^2]
dot(V) = -(i_ion + i_stim) / C

[ina]
# Fast inward sodium current, with a small constant sodium conductance gNaC.
use membrane.V
param gNa = 4 [mS/cm^2] range(0, 40) "maximal fast sodium conductance"
param gNaC = 0.003 [mS/cm^2] range(0, 0.03) "steady-state sodium conductance"
param ENa = 50 [mV] range(0, 100) "sodium reversal potential"
state m = 0.011 [1] "activation gate"
state h = 0.988 [1] "fast inactivation gate"
state j = 0.975 [1] "slow inactivation gate"
INa = (gNa * m^3 * h * j + gNaC) * (V - ENa) in [uA/cm^2]
alpha_m = 1 [1/mV/ms] * (V + 47 [mV]) / (1 - exp(-0.1 [1/mV] * (V + 47 [mV])))
beta_m = 40 [1/ms] * exp(-0.056 [1/mV] * (V + 72 [mV]))
dot(m) = alpha_m * (1 - m) - beta_m * m
alpha_h = 0.126 [1/ms] * exp(-0.25 [1/mV] * (V + 77 [mV]))
beta_h = 1.7 [1/ms] / (exp(-0.082 [1/mV] * (V + 22.5 [mV])) + 1)
dot(h) = alpha_h * (1 - h) - beta_h * h
alpha_j = 0.055 [1/ms] * exp(-0.25 [1/mV] * (V + 78 [mV])) / (exp(-0.2 [1/mV] * (V + 78 [mV])) + 1)
beta_j = 0.3 [1/ms] / (exp(-0.1 [1/mV] * (V + 32 [mV])) + 1)
dot(j) = alpha_j * (1 - j) - beta_j * j

[isi]
# Slow inward (calcium) current; its reversal potential follows the intracellular calcium.
use membrane.V, calcium.Cai
param gs = 0.09 [mS/cm^2] range(0, 0.9) "maximal slow inward conductance"
state d = 0.003 [1] "activation gate"
state f = 0.994 [1] "inactivation gate"
# The paper's Es = -82.3 - 13.0287 ln([Ca]i) with [Ca]i in mol/L (= Cai / 1000 mM).
Es = -82.3 [mV] - 13.0287 [mV] * log(Cai / 1000 [mM])
Isi = gs * d * f * (V - Es) in [uA/cm^2]
alpha_d = 0.095 [1/ms] * exp(-0.01 [1/mV] * (V - 5 [mV])) / (exp(-0.072 [1/mV] * (V - 5 [mV])) + 1)
beta_d = 0.07 [1/ms] * exp(-0.017 [1/mV] * (V + 44 [mV])) / (exp(0.05 [1/mV] * (V + 44 [mV])) + 1)
dot(d) = alpha_d * (1 - d) - beta_d * d
alpha_f = 0.012 [1/ms] * exp(-0.008 [1/mV] * (V + 28 [mV])) / (exp(0.15 [1/mV] * (V + 28 [mV])) + 1)
beta_f = 0.0065 [1/ms] * exp(-0.02 [1/mV] * (V + 30 [mV])) / (exp(-0.2 [1/mV] * (V + 30 [mV])) + 1)
dot(f) = alpha_f * (1 - f) - beta_f * f

[ix1]
# Time-dependent outward (potassium) current.
use membrane.V
param gx1 = 0.8 [uA/cm^2] range(0, 8) "maximal time-dependent outward current"
state x1 = 0.0001 [1] "activation gate"
Ix1 = gx1 * x1 * (exp(0.04 [1/mV] * (V + 77 [mV])) - 1) / exp(0.04 [1/mV] * (V + 35 [mV])) in [uA/cm^2]
alpha_x1 = 0.0005 [1/ms] * exp(0.083 [1/mV] * (V + 50 [mV])) / (exp(0.057 [1/mV] * (V + 50 [mV])) + 1)
beta_x1 = 0.0013 [1/ms] * exp(-0.06 [1/mV] * (V + 20 [mV])) / (exp(-0.04 [1/mV] * (V + 20 [mV])) + 1)
dot(x1) = alpha_x1 * (1 - x1) - beta_x1 * x1

[ik1]
# Time-independent outward (inward-rectifier potassium) current.
use membrane.V
param gK1 = 0.35 [uA/cm^2] range(0, 3.5) "time-independent outward current scale"
IK1 = gK1 * (4 * (exp(0.04 [1/mV] * (V + 85 [mV])) - 1)
                 / (exp(0.08 [1/mV] * (V + 53 [mV])) + exp(0.04 [1/mV] * (V + 53 [mV])))
             + 0.2 [1/mV] * (V + 23 [mV]) / (1 - exp(-0.04 [1/mV] * (V + 23 [mV])))) in [uA/cm^2]

[calcium]
# Intracellular calcium: inflow through Isi and first-order uptake towards 1e-4 mM.
use isi.Isi
state Cai = 1e-4 [mM] "intracellular calcium concentration"
dot(Cai) = -1e-4 [mM*cm^2/uA/ms] * Isi + 0.07 [1/ms] * (1e-4 [mM] - Cai)
