# SPDX-License-Identifier: GPL-3.0-or-later
# Aliev & Panfilov 1996 (Chaos Solitons Fractals 7:293), mapped to mV and ms as in Nash &
# Panfilov 2004: V = 100 u - 80 mV, t = 12.9 ms per model time unit.
model aliev_panfilov_1996 "Aliev & Panfilov 1996, mapped to mV and ms"
time [ms]
method fe: *

[cell]
param k = 8 range(0, 50) "excitability"
param a = 0.15 range(0, 1) "threshold"
param eps0 = 0.002 range(0, 1) "recovery rate at rest"
param mu1 = 0.2 range(0, 10)
param mu2 = 0.3 range(0, 10)
param tscale = 12.9 [ms] range(0.1, 100) "ms per model time unit"
state V = -80 [mV] bind potential
state v = 0 "recovery variable"
u = (V + 80 [mV]) / 100 [mV]
i_stim = 0 [A/F] bind stimulus
dot(V) = 100 [mV] / tscale * (-k * u * (u - a) * (u - 1) - u * v) - i_stim
dot(v) = (eps0 + mu1 * v / (u + mu2)) * (-v - k * u * (u - a - 1)) / tscale
