// Mock of <crt/host_defines.h> (CUDA toolkit) for clang-tidy lit tests.
//
// Execution-space / memory-space keywords.  Under clang's CUDA mode these are
// the same GNU attributes that the real header produces through
// __location__(a) -> __attribute__((a)) and that clang's own
// __clang_cuda_runtime_wrapper.h relies on.  In plain C/C++ (no __CUDA__) they
// expand to nothing so that the mock can also be included from .cpp tests
// without -Wunknown-attributes noise.
#pragma once

#if defined(__CUDA__)
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__ __attribute__((constant))
#endif
// The real header gives __attribute__((managed)), but clang only honours that
// attribute for HIP and warns "'managed' attribute ignored" in CUDA mode, so
// a __managed__ variable is just a host global to clang: expand to nothing.
#ifndef __managed__
#define __managed__
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
#ifndef __grid_constant__
#define __grid_constant__ __attribute__((grid_constant))
#endif
#else // !__CUDA__
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__
#endif

// GNU branch of host_defines.h.
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(a) __align__(a)

// Outside nvcc (!__CUDACC__ in the real header) these markers are empty.
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__

// Calling convention of runtime entry points (empty on non-Windows).
#define CUDARTAPI
#define CUDARTAPI_CDECL
