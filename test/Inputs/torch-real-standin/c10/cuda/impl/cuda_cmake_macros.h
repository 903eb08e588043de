#pragma once
// Stand-in for the CMake-generated c10/cuda/impl/cuda_cmake_macros.h, which
// Debian's CPU-only libtorch-dev (1.13.1) does not ship although its
// c10/cuda/CUDAMacros.h includes it.  Upstream template
// (c10/cuda/impl/cuda_cmake_macros.h.in) is one `#cmakedefine` line:
#define C10_CUDA_BUILD_SHARED_LIBS
