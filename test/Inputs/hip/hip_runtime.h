// Mock of <hip/hip_runtime.h> (HIP 5.2.3, AMD platform) for clang-tidy lit
// tests: the runtime API (hip_runtime_api.h) plus what clang needs to parse
// kernels and `k<<<g, b, shmem, s>>>(...)` / hipLaunchKernelGGL on the host
// side, under either
//   -x cuda --cuda-host-only -nocudainc -nocudalib -isystem test/Inputs
//   -x hip --offload-host-only -nogpuinc -nogpulib -isystem test/Inputs
// (and as plain C++, without the kernel-language parts).
//
// Launch lowering: clang's Sema calls __hipPushCallConfiguration (HIP, new
// launch API, the default) / hipConfigureCall (HIP, -fno-hip-new-launch-api),
// or __cudaPushCallConfiguration / cudaConfigureCall in CUDA mode; all four
// are declared.
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hip_runtime_api.h" // real: <hip/hip_runtime_api.h> via amd_detail/amd_hip_runtime.h

#if (defined(__CUDA__) || defined(__HIP__)) && defined(__cplusplus)

// CUDA-mode launch hooks (see above), with HIP's types.
extern "C" __host__ __device__ unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim = 1,
                                                                    size_t sharedMem = 0,
                                                                    hipStream_t stream = 0);
extern "C" __host__ hipError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                 hipStream_t stream = 0);

// Built-in index variables (amd_detail/amd_hip_runtime.h builds them the same
// way from __ockl_get_* calls).
extern "C" __device__ __attribute__((const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __device__ __attribute__((const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __device__ __attribute__((const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __device__ __attribute__((const)) size_t __ockl_get_num_groups(unsigned int);

#define __HIP_MOCK_BUILTIN(NAME, FN)                                                     \
  struct __hip_mock_##NAME##_t {                                                         \
    __declspec(property(get = __get_x)) unsigned int x;                                  \
    __declspec(property(get = __get_y)) unsigned int y;                                  \
    __declspec(property(get = __get_z)) unsigned int z;                                  \
    static inline __device__ unsigned int __get_x() { return (unsigned int)FN(0); }      \
    static inline __device__ unsigned int __get_y() { return (unsigned int)FN(1); }      \
    static inline __device__ unsigned int __get_z() { return (unsigned int)FN(2); }      \
    __device__ operator dim3() const { return dim3(__get_x(), __get_y(), __get_z()); }   \
  };                                                                                     \
  extern const __device__ __attribute__((weak)) __hip_mock_##NAME##_t NAME;
__HIP_MOCK_BUILTIN(threadIdx, __ockl_get_local_id)
__HIP_MOCK_BUILTIN(blockIdx, __ockl_get_group_id)
__HIP_MOCK_BUILTIN(blockDim, __ockl_get_local_size)
__HIP_MOCK_BUILTIN(gridDim, __ockl_get_num_groups)
#undef __HIP_MOCK_BUILTIN

#define hipThreadIdx_x (threadIdx.x)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockDim_x (blockDim.x)
#define hipGridDim_x (gridDim.x)

__device__ void __syncthreads(void);
__device__ void __threadfence(void);
__device__ void __threadfence_system(void);
__device__ int atomicAdd(int *address, int val);
__device__ unsigned int atomicAdd(unsigned int *address, unsigned int val);
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);

// amd_detail/amd_hip_runtime.h (default, !HIP_TEMPLATE_KERNEL_LAUNCH): a macro
// around a triple-chevron launch.
#define hipLaunchKernelGGLInternal(kernelName, numBlocks, numThreads, memPerBlock, streamId, ...) \
  do {                                                                                           \
    kernelName<<<(numBlocks), (numThreads), (memPerBlock), (streamId)>>>(__VA_ARGS__);         \
  } while (0)
#define hipLaunchKernelGGL(kernelName, ...) hipLaunchKernelGGLInternal((kernelName), __VA_ARGS__)

#endif // (__CUDA__ || __HIP__) && __cplusplus

#endif // HIP_INCLUDE_HIP_HIP_RUNTIME_H
