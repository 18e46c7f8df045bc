// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CF_HD marks functions callable from host and device code; plain inline elsewhere.
#if defined(__CUDACC__)
#define CF_HD __host__ __device__ __forceinline__
#else
#define CF_HD inline
#endif
