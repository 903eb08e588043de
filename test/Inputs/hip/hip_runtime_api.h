// Mock of <hip/hip_runtime_api.h> (HIP 5.2.3 as shipped by Debian bookworm's
// libamdhip64-dev, /usr/include/hip/hip_runtime_api.h) for clang-tidy lit
// tests.  Declarations with the real signatures, parameter names, C++
// default arguments (`__dparm(x)` is `= x` in C++ only, as in the real
// header), real enum/macro values.  Parses as C and C++; the kernel-language
// parts are in hip_runtime.h.
//
// Not to be combined with the CUDA runtime mock (cuda_runtime.h) in one TU:
// both declare dim3 and the launch-configuration hooks.
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>

// hip/hip_version.h
#define HIP_VERSION_MAJOR 5
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 21153
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

// hip/hip_common.h: auto-enable the AMD platform under clang's HIP mode.
#if defined(__clang__) && defined(__HIP__)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#endif

// hip/amd_detail/host_defines.h
#if defined(__CUDA__) || defined(__HIP__)
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
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __launch_bounds__(...)
#endif
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))

#include "driver_types.h" // real: <hip/driver_types.h>

#if defined(_MSC_VER)
#define DEPRECATED(msg) __declspec(deprecated(msg))
#else
#define DEPRECATED(msg) __attribute__((deprecated(msg)))
#endif
#define DEPRECATED_MSG "This API is marked as deprecated and may not be supported in future releases."

#ifdef __cplusplus
#define __dparm(x) = x
#else
#define __dparm(x)
#endif

// Ignoring error-code return values from hip APIs is discouraged. On C++17,
// we can make that yield a warning (real header; -Wunused-value fires).
#if __cplusplus >= 201703L
#define __HIP_NODISCARD [[nodiscard]]
#else
#define __HIP_NODISCARD
#endif

// ---- hipError_t (subset, real values) ----------------------------------------
typedef enum __HIP_NODISCARD hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2, // deprecated alias
  hipErrorNotInitialized = 3,
  hipErrorInitializationError = 3,
  hipErrorDeinitialized = 4,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400,
  hipErrorNotReady = 600, // asynchronous operations enqueued earlier are not ready yet
  hipErrorIllegalAddress = 700,
  hipErrorHostMemoryAlreadyRegistered = 712,
  hipErrorHostMemoryNotRegistered = 713,
  hipErrorLaunchFailure = 719,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999,
  hipErrorRuntimeMemory = 1052,
  hipErrorRuntimeOther = 1053,
  hipErrorTbd
} hipError_t;
#undef __HIP_NODISCARD

// ---- Handles -------------------------------------------------------------------
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipMemPoolHandle_t *hipMemPool_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;

// ---- Flags ---------------------------------------------------------------------
#define hipStreamDefault 0x00     // Default stream creation flags
#define hipStreamNonBlocking 0x01 // Stream does not implicitly synchronize with null stream

#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipEventReleaseToDevice 0x40000000
#define hipEventReleaseToSystem 0x80000000

#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000

#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04

#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4

#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)

// Implicit per-thread default stream handle (HIP has no hipStreamLegacy macro
// in 5.2).
#define hipStreamPerThread ((hipStream_t)2)

// ---- Per-thread default stream (amd_detail/amd_hip_runtime_pt_api.h) ---------
// With HIP_API_PER_THREAD_DEFAULT_STREAM (hipcc -fgpu-default-stream=per-thread)
// these entry points are renamed by macro to *_spt.  (HIP's suffix is _spt
// for both the implicit-stream and the explicit-stream APIs.)
#if defined(HIP_API_PER_THREAD_DEFAULT_STREAM)
#define __HIP_STREAM_PER_THREAD
#define __HIP_API_SPT(api) api##_spt
#else
#define __HIP_API_SPT(api) api
#endif
#if defined(__HIP_STREAM_PER_THREAD)
#define hipMemcpy __HIP_API_SPT(hipMemcpy)
#define hipMemcpyToSymbol __HIP_API_SPT(hipMemcpyToSymbol)
#define hipMemcpyFromSymbol __HIP_API_SPT(hipMemcpyFromSymbol)
#define hipMemcpy2D __HIP_API_SPT(hipMemcpy2D)
#define hipMemcpy3D __HIP_API_SPT(hipMemcpy3D)
#define hipMemset __HIP_API_SPT(hipMemset)
#define hipMemcpyAsync __HIP_API_SPT(hipMemcpyAsync)
#define hipStreamSynchronize __HIP_API_SPT(hipStreamSynchronize)
#define hipStreamQuery __HIP_API_SPT(hipStreamQuery)
#define hipStreamWaitEvent __HIP_API_SPT(hipStreamWaitEvent)
#define hipEventRecord __HIP_API_SPT(hipEventRecord)
#define hipLaunchKernel __HIP_API_SPT(hipLaunchKernel)
#endif

#ifdef __cplusplus
extern "C" {
#endif

// dim3 (declared in hip_runtime_api.h in HIP 5.2).
typedef struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
#ifdef __cplusplus
  constexpr __host__ __device__ dim3(uint32_t _x = 1, uint32_t _y = 1, uint32_t _z = 1) : x(_x), y(_y), z(_z) {}
#endif
} dim3;

typedef void (*hipHostFn_t)(void *userData);
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void *userData);

// ---- Error handling / device ---------------------------------------------------
hipError_t hipInit(unsigned int flags);
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorName(hipError_t hip_error);
const char *hipGetErrorString(hipError_t hipError);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
hipError_t hipGetDeviceCount(int *count);

// ---- Streams ---------------------------------------------------------------------
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int priority);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags);
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *userData,
                                unsigned int flags);

// ---- Events ------------------------------------------------------------------------
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags);
hipError_t hipEventCreate(hipEvent_t *event);
#ifdef __cplusplus
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = NULL);
#else
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
#endif
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventQuery(hipEvent_t event);

// ---- Memory management -------------------------------------------------------------
hipError_t hipMalloc(void **ptr, size_t size);
DEPRECATED("use hipHostMalloc instead")
hipError_t hipMallocHost(void **ptr, size_t size);
DEPRECATED("use hipHostMalloc instead")
hipError_t hipMemAllocHost(void **ptr, size_t size);
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags __dparm(hipMemAttachGlobal));
hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream);
hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream);
DEPRECATED("use hipHostMalloc instead")
hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags);
hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags);
hipError_t hipHostUnregister(void *hostPtr);
hipError_t hipFree(void *ptr);
DEPRECATED("use hipHostFree instead")
hipError_t hipFreeHost(void *ptr);
hipError_t hipHostFree(void *ptr);

hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes,
                               hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpyToSymbol(const void *symbol, const void *src,
                             size_t sizeBytes, size_t offset __dparm(0),
                             hipMemcpyKind kind __dparm(hipMemcpyHostToDevice));
hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src,
                                  size_t sizeBytes, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream __dparm(0));
hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol,
                               size_t sizeBytes, size_t offset __dparm(0),
                               hipMemcpyKind kind __dparm(hipMemcpyDeviceToHost));
hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                    size_t sizeBytes, size_t offset,
                                    hipMemcpyKind kind,
                                    hipStream_t stream __dparm(0));
// Real doc comment (5.2.3): "@warning If host or dest are not pinned, the
// memory copy will be performed synchronously."
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                          hipStream_t stream __dparm(0));
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream __dparm(0));
hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                            size_t height, hipMemcpyKind kind, hipStream_t stream __dparm(0));
hipError_t hipMemcpy3D(const struct hipMemcpy3DParms *p);
hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms *p, hipStream_t stream __dparm(0));
hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                         size_t sizeBytes);
hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                              size_t sizeBytes, hipStream_t stream __dparm(0));

// ---- Execution control --------------------------------------------------------------
hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0), hipStream_t stream __dparm(0));
hipError_t __hipPushCallConfiguration(dim3 gridDim,
                                      dim3 blockDim,
                                      size_t sharedMem __dparm(0),
                                      hipStream_t stream __dparm(0));
hipError_t __hipPopCallConfiguration(dim3 *gridDim,
                                     dim3 *blockDim,
                                     size_t *sharedMem,
                                     hipStream_t *stream);
hipError_t hipLaunchKernel(const void *function_address,
                           dim3 numBlocks,
                           dim3 dimBlocks,
                           void **args,
                           size_t sharedMemBytes __dparm(0),
                           hipStream_t stream __dparm(0));
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData);

#ifdef __cplusplus
} // extern "C"
#endif

// ---- C++ overloads (end of the real header) ---------------------------------------
#if defined(__cplusplus) && !defined(__HIP_DISABLE_CPP_FUNCTIONS__)
template <typename T>
hipError_t hipMemcpyToSymbol(const T &symbol, const void *src, size_t sizeBytes,
                             size_t offset __dparm(0),
                             hipMemcpyKind kind __dparm(hipMemcpyHostToDevice)) {
  return ::hipMemcpyToSymbol((const void *)&symbol, src, sizeBytes, offset, kind);
}
template <typename T>
hipError_t hipMemcpyToSymbolAsync(const T &symbol, const void *src, size_t sizeBytes, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream __dparm(0)) {
  return ::hipMemcpyToSymbolAsync((const void *)&symbol, src, sizeBytes, offset, kind, stream);
}
template <typename T>
hipError_t hipMemcpyFromSymbol(void *dst, const T &symbol,
                               size_t sizeBytes, size_t offset __dparm(0),
                               hipMemcpyKind kind __dparm(hipMemcpyDeviceToHost)) {
  return ::hipMemcpyFromSymbol(dst, (const void *)&symbol, sizeBytes, offset, kind);
}
template <typename T>
hipError_t hipMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t sizeBytes, size_t offset,
                                    hipMemcpyKind kind, hipStream_t stream __dparm(0)) {
  return ::hipMemcpyFromSymbolAsync(dst, (const void *)&symbol, sizeBytes, offset, kind, stream);
}

template <class T>
static inline hipError_t hipMalloc(T **devPtr, size_t size) {
  return hipMalloc((void **)devPtr, size);
}

// Provide an override to automatically typecast the pointer type from void**,
// and also provide a default for the flags.
template <class T>
static inline hipError_t hipHostMalloc(T **ptr, size_t size,
                                       unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc((void **)ptr, size, flags);
}

template <class T>
static inline hipError_t hipMallocManaged(T **devPtr, size_t size,
                                          unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged((void **)devPtr, size, flags);
}
#endif

#endif // HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
