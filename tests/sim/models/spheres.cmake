# SPDX-License-Identifier: GPL-3.0-or-later
# `spheres` on every backend it offers (CPU only so far): force oracles, benchmark A's first
# step, division, determinism, restart, bad input.
cellforge_add_test(test_spheres SOURCES sim/models/test_spheres.cpp)
