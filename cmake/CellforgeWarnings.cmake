# SPDX-License-Identifier: GPL-3.0-or-later
function(cellforge_warnings target)
  set(cxx_flags -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
                -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
  if(CELLFORGE_WERROR)
    list(APPEND cxx_flags -Werror)
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${cxx_flags}>)
  # nvcc: host-compiler warnings through -Xcompiler; device-side warnings as errors in CI.
  set(cuda_flags -Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr)
  if(CELLFORGE_WERROR)
    list(APPEND cuda_flags -Werror=all-warnings)
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${cuda_flags}>)
endfunction()
