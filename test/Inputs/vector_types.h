// Mock of <vector_types.h> (CUDA toolkit): only uint3 and dim3.
#pragma once

#include "crt/host_defines.h"

// vector_types.h: struct __device_builtin__ uint3 { unsigned int x, y, z; };
struct __device_builtin__ uint3 {
  unsigned int x, y, z;
};
typedef __device_builtin__ struct uint3 uint3;

// vector_types.h: dim3, with the C++ constructors (C++11 constexpr flavour).
struct __device_builtin__ dim3 {
  unsigned int x, y, z;
#if defined(__cplusplus)
#if __cplusplus >= 201103L
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3(void) const {
    return uint3{x, y, z};
  }
#else
  __host__ __device__ dim3(unsigned int vx = 1, unsigned int vy = 1,
                           unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ operator uint3(void) const {
    uint3 t;
    t.x = x;
    t.y = y;
    t.z = z;
    return t;
  }
#endif
#endif // __cplusplus
};
typedef __device_builtin__ struct dim3 dim3;
