# SPDX-License-Identifier: GPL-3.0-or-later
#
# Luo & Rudy 1991 (LR-I): mammalian ventricular action potential.
#   C. H. Luo, Y. Rudy, Circ Res 68:1501-1526 (1991), doi:10.1161/01.RES.68.6.1501
#
# Transcribed from and checked against:
#   Chaste/cellml  cellml/luo_rudy_1991.cellml  (commit 23098ec5; CellML by C. Lloyd, Auckland)
# The original formulation: if-branches for the h and j gates at V < -40 mV, fixed [Na]i,
# [K]i and [Na]o, [K]o (the Rudy-lab "updated" smooth switch and Myokit's variant are not used).
# Initial values are the CellML file's. Removable singularities (0/0) at V = -47.13 mV
# (alpha_m) and V = -77 mV (Xi) are handled by the compiler; Xi is written as
# exp(..) / ((V + 77) / (exp(..) - 1)), algebraically equal to the source's
# (exp(0.04 (V + 77)) - 1) / ((V + 77) exp(0.04 (V + 35))), so that the 0/0 sits in a
# quotient of the form U / (exp(k U) - 1) that the compiler recognises.
#
# Units: mV, ms, uA/cm^2 with C = 1 uF/cm^2, concentrations in mM.
# Stimulus (CellML protocol): -25.5 uA/cm^2 for 2 ms every 1000 ms (a NEGATIVE i_stim
# depolarises, as in the source).

model luo_rudy_1991 "Luo & Rudy 1991 (LR-I), mammalian ventricular cell"
time [ms]

[membrane]
state V = -83.853 [mV] bind potential "membrane potential"
param C = 1 [uF/cm^2] range(0.1, 10) "membrane capacitance per area"
param R = 8314 [J/kmol/K] range(8000, 9000) "gas constant"
param T = 310 [K] range(273, 320) "temperature"
param F = 96484.6 [C/mol] range(90000, 100000) "Faraday constant"
RTF = R * T / F in [mV]
i_stim = 0 [uA/cm^2] bind stimulus
i_ion = ina.INa + isi.Isi + ik.IK + ik1.IK1 + ikp.IKp + ib.Ib in [uA/cm^2]
dot(V) = -(i_ion + i_stim) / C

[ions]
# Fixed ionic concentrations.
param Nao = 140 [mM] range(50, 200) "extracellular sodium"
param Nai = 18 [mM] range(1, 50) "intracellular sodium"
param Ko = 5.4 [mM] range(1, 20) "extracellular potassium"
param Ki = 145 [mM] range(50, 200) "intracellular potassium"

[ina]
# Fast sodium current.
use membrane.V, membrane.RTF, ions.Nao, ions.Nai
param gNa = 23 [mS/cm^2] range(0, 230) "maximal fast sodium conductance"
state m = 0.00187018 [1] "activation gate"
state h = 0.9804713 [1] "fast inactivation gate"
state j = 0.98767124 [1] "slow inactivation gate"
ENa = RTF * log(Nao / Nai)
INa = gNa * m^3 * h * j * (V - ENa) in [uA/cm^2]
alpha_m = 0.32 [1/mV/ms] * (V + 47.13 [mV]) / (1 - exp(-0.1 [1/mV] * (V + 47.13 [mV])))
beta_m = 0.08 [1/ms] * exp(-V / 11 [mV])
dot(m) = alpha_m * (1 - m) - beta_m * m
alpha_h = if(V < -40 [mV],
             0.135 [1/ms] * exp((80 [mV] + V) / -6.8 [mV]),
             0 [1/ms])
beta_h = if(V < -40 [mV],
            3.56 [1/ms] * exp(0.079 [1/mV] * V) + 3.1e5 [1/ms] * exp(0.35 [1/mV] * V),
            1 / (0.13 [ms] * (1 + exp((V + 10.66 [mV]) / -11.1 [mV]))))
dot(h) = alpha_h * (1 - h) - beta_h * h
alpha_j = if(V < -40 [mV],
             (-127140 [1/mV/ms] * exp(0.2444 [1/mV] * V)
              - 3.474e-5 [1/mV/ms] * exp(-0.04391 [1/mV] * V)) * (V + 37.78 [mV])
                 / (1 + exp(0.311 [1/mV] * (V + 79.23 [mV]))),
             0 [1/ms])
beta_j = if(V < -40 [mV],
            0.1212 [1/ms] * exp(-0.01052 [1/mV] * V) / (1 + exp(-0.1378 [1/mV] * (V + 40.14 [mV]))),
            0.3 [1/ms] * exp(-2.535e-7 [1/mV] * V) / (1 + exp(-0.1 [1/mV] * (V + 32 [mV]))))
dot(j) = alpha_j * (1 - j) - beta_j * j

[isi]
# Slow inward (L-type calcium) current.
use membrane.V, calcium.Cai
param gsi = 0.09 [mS/cm^2] range(0, 0.9) "maximal slow inward conductance"
state d = 0.00316354 [1] "activation gate"
state f = 0.99427859 [1] "inactivation gate"
Esi = 7.7 [mV] - 13.0287 [mV] * log(Cai / 1 [mM])
Isi = gsi * d * f * (V - Esi) in [uA/cm^2]
alpha_d = 0.095 [1/ms] * exp(-0.01 [1/mV] * (V - 5 [mV])) / (1 + exp(-0.072 [1/mV] * (V - 5 [mV])))
beta_d = 0.07 [1/ms] * exp(-0.017 [1/mV] * (V + 44 [mV])) / (1 + exp(0.05 [1/mV] * (V + 44 [mV])))
dot(d) = alpha_d * (1 - d) - beta_d * d
alpha_f = 0.012 [1/ms] * exp(-0.008 [1/mV] * (V + 28 [mV])) / (1 + exp(0.15 [1/mV] * (V + 28 [mV])))
beta_f = 0.0065 [1/ms] * exp(-0.02 [1/mV] * (V + 30 [mV])) / (1 + exp(-0.2 [1/mV] * (V + 30 [mV])))
dot(f) = alpha_f * (1 - f) - beta_f * f

[ik]
# Time-dependent potassium current.
use membrane.V, membrane.RTF, ions.Nao, ions.Nai, ions.Ko, ions.Ki
param gK_max = 0.282 [mS/cm^2] range(0, 2.82) "maximal time-dependent potassium conductance"
param PR_NaK = 0.01833 range(0, 0.1) "Na/K permeability ratio"
state X = 0.16647703 [1] "activation gate"
gK = gK_max * sqrt(Ko / 5.4 [mM])
EK = RTF * log((Ko + PR_NaK * Nao) / (Ki + PR_NaK * Nai))
# Inactivation Xi = 2.837 (exp(0.04 (V + 77)) - 1) / ((V + 77) exp(0.04 (V + 35))) above
# -100 mV (see the note at the top), 1 below.
Xi = if(V > -100 [mV],
        2.837 [mV] * exp(-0.04 [1/mV] * (V + 35 [mV]))
            / ((V + 77 [mV]) / (exp(0.04 [1/mV] * (V + 77 [mV])) - 1)),
        1)
IK = gK * X * Xi * (V - EK) in [uA/cm^2]
alpha_X = 0.0005 [1/ms] * exp(0.083 [1/mV] * (V + 50 [mV])) / (1 + exp(0.057 [1/mV] * (V + 50 [mV])))
beta_X = 0.0013 [1/ms] * exp(-0.06 [1/mV] * (V + 20 [mV])) / (1 + exp(-0.04 [1/mV] * (V + 20 [mV])))
dot(X) = alpha_X * (1 - X) - beta_X * X

[ik1]
# Time-independent potassium current (inward rectifier).
use membrane.V, membrane.RTF, ions.Ko, ions.Ki
param gK1_max = 0.6047 [mS/cm^2] range(0, 6.047) "maximal inward-rectifier conductance"
gK1 = gK1_max * sqrt(Ko / 5.4 [mM])
EK1 = RTF * log(Ko / Ki)
alpha_K1 = 1.02 [1/ms] / (1 + exp(0.2385 [1/mV] * (V - EK1 - 59.215 [mV])))
beta_K1 = ((0.49124 [1/ms] * exp(0.08032 [1/mV] * (V + 5.476 [mV] - EK1))
            + 1 [1/ms] * exp(0.06175 [1/mV] * (V - EK1 - 594.31 [mV]))) /
           (1 + exp(-0.5143 [1/mV] * (V - EK1 + 4.753 [mV]))))
K1_inf = alpha_K1 / (alpha_K1 + beta_K1)
IK1 = gK1 * K1_inf * (V - EK1) in [uA/cm^2]

[ikp]
# Plateau potassium current.
use membrane.V, ik1.EK1
param gKp = 0.0183 [mS/cm^2] range(0, 0.183) "plateau potassium conductance"
Kp = 1 / (1 + exp((7.488 [mV] - V) / 5.98 [mV]))
IKp = gKp * Kp * (V - EK1) in [uA/cm^2]

[ib]
# Background current.
use membrane.V
param gb = 0.03921 [mS/cm^2] range(0, 0.3921) "background conductance"
param Eb = -59.87 [mV] range(-100, 0) "background reversal potential"
Ib = gb * (V - Eb) in [uA/cm^2]

[calcium]
# Intracellular calcium: inflow through Isi and first-order uptake towards 1e-4 mM.
use isi.Isi
state Cai = 0.0002 [mM] "intracellular calcium concentration"
dot(Cai) = -1e-4 [mM*cm^2/uA/ms] * Isi + 0.07 [1/ms] * (1e-4 [mM] - Cai)
