// SPDX-License-Identifier: GPL-3.0-or-later
// motor_kernels.cu built a second time with --use_fast_math (sources.cmake) for
// motors.fast_math: Cook & Shinar's Table 3 row "fast math" (docs/GLIDING.md "Kernel
// switches"). The default build keeps --fmad=false so that the motors round as the CPU does;
// this one lets the compiler fuse multiply-adds and flush subnormals to zero. Its kernels and
// its __constant__ parameters live in this translation unit's anonymous namespace, so the two
// builds link side by side; fastMathMotorKernels() hands them out.
#define CF_MOTOR_KERNELS_FAST_MATH 1
#include "sim/models/gliding/cuda/motor_kernels.cu"
