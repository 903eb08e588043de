// Mock of <cuda_runtime.h> (CUDA toolkit 13.0) for clang-tidy lit tests that
// run without the CUDA toolkit (clang -x cuda -nocudainc -nocudalib
// -isystem test/Inputs).  Also usable from plain C++ (no __CUDA__): the
// CUDA-language-only parts are guarded by __CUDA__.
//
// Layout mirrors the real headers:
//   crt/host_defines.h   __host__/__device__/__global__..., CUDARTAPI
//   vector_types.h       uint3, dim3
//   driver_types.h       cudaError_t, cudaMemcpyKind, handles, flag macros,
//                        cudaPitchedPtr/cudaExtent/cudaPos/cudaMemcpy3DParms
//   driver_functions.h   make_cudaPitchedPtr/make_cudaPos/make_cudaExtent
//   cuda_runtime_api.h   C API declarations + per-thread-stream renaming
//   cuda_runtime.h       (this file) C++ overloads/templates, plus what clang
//                        needs for kernels and <<<>>> launches.
#pragma once

#include "crt/host_defines.h"
#include "driver_types.h"
#include "vector_types.h"
#include "cuda_runtime_api.h"
#include "driver_functions.h"

// ---- CUDA language support (only when compiling as CUDA) -------------------
#if defined(__CUDA__) && defined(__cplusplus)

// threadIdx/blockIdx/blockDim/gridDim/warpSize: clang's own builtin-variable
// header from its resource directory (what __clang_cuda_runtime_wrapper.h
// includes); it needs uint3/dim3 declared first for the conversions below.
#include <__clang_cuda_builtin_vars.h>

// Out-of-line conversions declared in __clang_cuda_builtin_vars.h (same
// definitions as in __clang_cuda_runtime_wrapper.h).
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

// Kernel launch configuration.  Sema lowers `k<<<g, b, shmem, s>>>(...)` to a
// call of __cudaPushCallConfiguration when it knows the CUDA SDK is >= 9.2
// (e.g. a toolkit is detected in /usr/local/cuda), and of the legacy
// cudaConfigureCall when no SDK version is known (no toolkit installed).
// Declare both so the tests parse either way.
// real: crt/device_functions.h (CUDA >= 9.2)
extern "C" __host__ __device__ unsigned CUDARTAPI __cudaPushCallConfiguration(
    dim3 gridDim, dim3 blockDim = 1, size_t sharedMem = 0,
    struct CUstream_st *stream = 0);
// real: cuda_runtime_api.h of CUDA <= 11 (removed since)
extern "C" __host__ cudaError_t CUDARTAPI cudaConfigureCall(
    dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);

// A few device-side functions commonly used in test kernels
// (real: device_functions.h / device_atomic_functions.h / sm_60_atomic_functions.h).
// __syncthreads is a clang builtin and needs no declaration.
__device__ void __threadfence(void);
__device__ void __threadfence_system(void);
__device__ int atomicAdd(int *address, int val);
__device__ unsigned int atomicAdd(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicAdd(unsigned long long int *address, unsigned long long int val);
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);

#endif // __CUDA__ && __cplusplus

// ---- C++ API (cuda_runtime.h) ----------------------------------------------
// The real header defines these as `static __inline__ __host__` one-line
// forwarders to the C API; they are kept as such here (static functions need
// a body, and the forwarding is part of what a check may see).
#if defined(__cplusplus)

static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}

// Non-template 3-argument cudaMallocHost (C++ only).
static __inline__ __host__ cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc(ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0, unsigned int flags = cudaMemAttachSingle) {
  return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}

// Note: calls the unqualified 3-argument overload above, as the real one does.
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
  return cudaMallocHost((void **)(void *)ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

// cudaMallocAsync overloads (pool variants forward to cudaMallocFromPoolAsync).
static __inline__ __host__ cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

// The runtime's C++ form of cudaLaunchKernelExC (cuda_runtime.h).
template <typename... ExpTypes, typename... ActTypes>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(ExpTypes...), ActTypes &&...args) {
  return [&](ExpTypes... coercedArgs) {
    void *pArgs[] = {&coercedArgs...};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}

// Symbol overloads: the real header has them under `#if defined(__CUDACC__)`
// (defined by nvcc and by clang's CUDA wrapper); clang with -nocudainc does
// not define __CUDACC__, so also accept __CUDA__.
#if defined(__CUDACC__) || defined(__CUDA__)
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
#endif // __CUDACC__ || __CUDA__

#endif // __cplusplus
