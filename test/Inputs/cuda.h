// Mock of <cuda.h> (CUDA driver API, CUDA toolkit 13.0) for clang-tidy lit
// tests that run without the CUDA toolkit.  Declarations only, with the real
// signatures and parameter names, real enum/macro values, real struct fields
// (in the real order).  Parses as C, as C++ and as host-side CUDA
// (-x cuda --cuda-host-only -nocudainc -nocudalib), alone or together with
// the runtime mock (cuda_runtime.h) in one TU.
//
// As in the real header:
//  * CUstream / CUevent are `struct CUstream_st *` / `struct CUevent_st *`,
//    the SAME structs as the runtime's cudaStream_t / cudaEvent_t
//    (driver_types.h), so the handles convert implicitly both ways.
//  * CUdeviceptr is an unsigned integer (unsigned long long on LP64), not a
//    pointer.
//  * Most entry points are renamed by macro: `cuMemcpyDtoHAsync` expands to
//    `cuMemcpyDtoHAsync_v2`, and with CUDA_API_PER_THREAD_DEFAULT_STREAM to
//    `cuMemcpyDtoHAsync_v2_ptsz`.  A check therefore sees the *_v2[_ptsz|_ptds]
//    names in the AST (FunctionDecl::getName()), with the call written as
//    cuMemcpyDtoHAsync(...) in the source.
//
// Only the subset used by the tests is declared; the macro list keeps the real
// header's grouping for the names that are declared here.
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#include <stdlib.h> // size_t (real header includes <stdlib.h>)
#include <stdint.h>

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

// ---- Per-thread default stream (cuda.h) -------------------------------------
// APIs that implicitly use the NULL stream get `_ptds`, APIs taking an explicit
// CUstream get `_ptsz`.  (The real header also enables this for
// __CUDA_API_VERSION_INTERNAL, i.e. when building the driver itself.)
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define __CUDA_API_PER_THREAD_DEFAULT_STREAM
#define __CUDA_API_PTDS(api) api##_ptds
#define __CUDA_API_PTSZ(api) api##_ptsz
#else
#define __CUDA_API_PTDS(api) api
#define __CUDA_API_PTSZ(api) api
#endif

// ---- Versioned-name macros (unconditional in the real header) ---------------
// Note the chaining: the _v2 name is what gets the _ptds/_ptsz suffix, e.g.
// cuMemcpyDtoHAsync -> cuMemcpyDtoHAsync_v2 -> cuMemcpyDtoHAsync_v2_ptsz.
#define cuCtxCreate cuCtxCreate_v4
#define cuMemAlloc cuMemAlloc_v2
#define cuMemFree cuMemFree_v2
#define cuMemAllocHost cuMemAllocHost_v2
#define cuMemHostGetDevicePointer cuMemHostGetDevicePointer_v2
#define cuMemcpyHtoD __CUDA_API_PTDS(cuMemcpyHtoD_v2)
#define cuMemcpyDtoH __CUDA_API_PTDS(cuMemcpyDtoH_v2)
#define cuMemcpyDtoD __CUDA_API_PTDS(cuMemcpyDtoD_v2)
#define cuMemcpy2D __CUDA_API_PTDS(cuMemcpy2D_v2)
#define cuMemcpy3D __CUDA_API_PTDS(cuMemcpy3D_v2)
#define cuMemcpyHtoDAsync __CUDA_API_PTSZ(cuMemcpyHtoDAsync_v2)
#define cuMemcpyDtoHAsync __CUDA_API_PTSZ(cuMemcpyDtoHAsync_v2)
#define cuMemcpyDtoDAsync __CUDA_API_PTSZ(cuMemcpyDtoDAsync_v2)
#define cuMemcpy2DAsync __CUDA_API_PTSZ(cuMemcpy2DAsync_v2)
#define cuMemcpy3DAsync __CUDA_API_PTSZ(cuMemcpy3DAsync_v2)
#define cuMemcpyBatchAsync __CUDA_API_PTSZ(cuMemcpyBatchAsync_v2)
#define cuMemcpy3DBatchAsync __CUDA_API_PTSZ(cuMemcpy3DBatchAsync_v2)
#define cuMemsetD8 __CUDA_API_PTDS(cuMemsetD8_v2)
#define cuCtxDestroy cuCtxDestroy_v2
#define cuStreamDestroy cuStreamDestroy_v2
#define cuEventDestroy cuEventDestroy_v2
#define cuMemHostRegister cuMemHostRegister_v2
#define cuEventElapsedTime cuEventElapsedTime_v2

// ---- Renamed only in per-thread mode (no _v2 in between) --------------------
// Note what is NOT renamed at all: cuInit, cuMemHostAlloc, cuMemFreeHost,
// cuMemHostUnregister, cuMemAllocManaged, cuStreamCreate(WithPriority),
// cuEventCreate, cuEventSynchronize, cuEventQuery, cuCtxSynchronize.
#if defined(__CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuMemcpy __CUDA_API_PTDS(cuMemcpy)
#define cuMemcpyAsync __CUDA_API_PTSZ(cuMemcpyAsync)
#define cuMemcpyPeer __CUDA_API_PTDS(cuMemcpyPeer)
#define cuMemcpyPeerAsync __CUDA_API_PTSZ(cuMemcpyPeerAsync)
#define cuMemsetD8Async __CUDA_API_PTSZ(cuMemsetD8Async)
#define cuStreamWaitEvent __CUDA_API_PTSZ(cuStreamWaitEvent)
#define cuStreamAddCallback __CUDA_API_PTSZ(cuStreamAddCallback)
#define cuStreamAttachMemAsync __CUDA_API_PTSZ(cuStreamAttachMemAsync)
#define cuStreamQuery __CUDA_API_PTSZ(cuStreamQuery)
#define cuStreamSynchronize __CUDA_API_PTSZ(cuStreamSynchronize)
#define cuEventRecord __CUDA_API_PTSZ(cuEventRecord)
#define cuEventRecordWithFlags __CUDA_API_PTSZ(cuEventRecordWithFlags)
#define cuLaunchKernel __CUDA_API_PTSZ(cuLaunchKernel)
#define cuLaunchHostFunc __CUDA_API_PTSZ(cuLaunchHostFunc)
#endif

// ---- Version ----------------------------------------------------------------
#define CUDA_VERSION 13000

#ifdef __cplusplus
extern "C" {
#endif

// ---- Handles (cuda.h) ---------------------------------------------------------
#if defined(_WIN64) || defined(__LP64__)
typedef unsigned long long CUdeviceptr_v2;
#else
typedef unsigned int CUdeviceptr_v2;
#endif
typedef CUdeviceptr_v2 CUdeviceptr; // CUDA device pointer (an integer)

typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUarray_st *CUarray;
typedef struct CUevent_st *CUevent;   // same struct as cudaEvent_t
typedef struct CUstream_st *CUstream; // same struct as cudaStream_t

// ---- Flags ------------------------------------------------------------------
typedef enum CUstream_flags_enum {
  CU_STREAM_DEFAULT = 0x0,     // Default stream flag
  CU_STREAM_NON_BLOCKING = 0x1 // Stream does not synchronize with stream 0 (the NULL stream)
} CUstream_flags;

// Legacy / per-thread implicit stream handles.
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

typedef enum CUevent_flags_enum {
  CU_EVENT_DEFAULT = 0x0,
  CU_EVENT_BLOCKING_SYNC = 0x1,
  CU_EVENT_DISABLE_TIMING = 0x2,
  CU_EVENT_INTERPROCESS = 0x4
} CUevent_flags;

typedef enum CUevent_record_flags_enum {
  CU_EVENT_RECORD_DEFAULT = 0x0,
  CU_EVENT_RECORD_EXTERNAL = 0x1
} CUevent_record_flags;

typedef enum CUevent_wait_flags_enum {
  CU_EVENT_WAIT_DEFAULT = 0x0,
  CU_EVENT_WAIT_EXTERNAL = 0x1
} CUevent_wait_flags;

typedef enum CUmemAttach_flags_enum {
  CU_MEM_ATTACH_GLOBAL = 0x1,
  CU_MEM_ATTACH_HOST = 0x2,
  CU_MEM_ATTACH_SINGLE = 0x4
} CUmemAttach_flags;

#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04

#define CU_MEMHOSTREGISTER_PORTABLE 0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define CU_MEMHOSTREGISTER_IOMEMORY 0x04
#define CU_MEMHOSTREGISTER_READ_ONLY 0x08

// ---- CUresult (enum cudaError_enum; subset, real values) --------------------
typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

// ---- Callbacks ----------------------------------------------------------------
#ifdef _WIN32
#define CUDA_CB __stdcall
#else
#define CUDA_CB
#endif
typedef void(CUDA_CB *CUhostFn)(void *userData);
typedef void(CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);

// ---- Memory types and copy descriptors ---------------------------------------
typedef enum CUmemorytype_enum {
  CU_MEMORYTYPE_HOST = 0x01,
  CU_MEMORYTYPE_DEVICE = 0x02,
  CU_MEMORYTYPE_ARRAY = 0x03,
  CU_MEMORYTYPE_UNIFIED = 0x04
} CUmemorytype;

typedef struct CUDA_MEMCPY2D_st {
  size_t srcXInBytes; // Source X in bytes
  size_t srcY;        // Source Y

  CUmemorytype srcMemoryType; // Source memory type (host, device, array)
  const void *srcHost;        // Source host pointer
  CUdeviceptr srcDevice;      // Source device pointer
  CUarray srcArray;           // Source array reference
  size_t srcPitch;            // Source pitch (ignored when src is array)

  size_t dstXInBytes; // Destination X in bytes
  size_t dstY;        // Destination Y

  CUmemorytype dstMemoryType; // Destination memory type (host, device, array)
  void *dstHost;              // Destination host pointer
  CUdeviceptr dstDevice;      // Destination device pointer
  CUarray dstArray;           // Destination array reference
  size_t dstPitch;            // Destination pitch (ignored when dst is array)

  size_t WidthInBytes; // Width of 2D memory copy in bytes
  size_t Height;       // Height of 2D memory copy
} CUDA_MEMCPY2D_v2;
typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D;

typedef struct CUDA_MEMCPY3D_st {
  size_t srcXInBytes;
  size_t srcY;
  size_t srcZ;
  size_t srcLOD;
  CUmemorytype srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0; // Must be NULL
  size_t srcPitch;
  size_t srcHeight;

  size_t dstXInBytes;
  size_t dstY;
  size_t dstZ;
  size_t dstLOD;
  CUmemorytype dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1; // Must be NULL
  size_t dstPitch;
  size_t dstHeight;

  size_t WidthInBytes;
  size_t Height;
  size_t Depth;
} CUDA_MEMCPY3D_v2;
typedef CUDA_MEMCPY3D_v2 CUDA_MEMCPY3D;

// ---- Batch copies (CUDA 12.8+; CUDA 13 signatures) ---------------------------
typedef enum CUmemLocationType_enum {
  CU_MEM_LOCATION_TYPE_INVALID = 0x0,
  CU_MEM_LOCATION_TYPE_NONE = 0x0,
  CU_MEM_LOCATION_TYPE_DEVICE = 0x1,
  CU_MEM_LOCATION_TYPE_HOST = 0x2,
  CU_MEM_LOCATION_TYPE_HOST_NUMA = 0x3,
  CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 0x4,
  CU_MEM_LOCATION_TYPE_MAX = 0x7FFFFFFF
} CUmemLocationType;

typedef struct CUmemLocation_st {
  CUmemLocationType type;
  int id;
} CUmemLocation_v1;
typedef CUmemLocation_v1 CUmemLocation;

typedef enum CUmemcpyFlags_enum {
  CU_MEMCPY_FLAG_DEFAULT = 0x0,
  CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE = 0x1
} CUmemcpyFlags;

typedef enum CUmemcpySrcAccessOrder_enum {
  CU_MEMCPY_SRC_ACCESS_ORDER_INVALID = 0x0,
  CU_MEMCPY_SRC_ACCESS_ORDER_STREAM = 0x1,
  CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL = 0x2,
  CU_MEMCPY_SRC_ACCESS_ORDER_ANY = 0x3,
  CU_MEMCPY_SRC_ACCESS_ORDER_MAX = 0x7FFFFFFF
} CUmemcpySrcAccessOrder;

typedef struct CUmemcpyAttributes_st {
  CUmemcpySrcAccessOrder srcAccessOrder;
  CUmemLocation srcLocHint;
  CUmemLocation dstLocHint;
  unsigned int flags; // See CUmemcpyFlags
} CUmemcpyAttributes_v1;
typedef CUmemcpyAttributes_v1 CUmemcpyAttributes;

typedef enum CUmemcpy3DOperandType_enum {
  CU_MEMCPY_OPERAND_TYPE_POINTER = 0x1,
  CU_MEMCPY_OPERAND_TYPE_ARRAY = 0x2,
  CU_MEMCPY_OPERAND_TYPE_MAX = 0x7FFFFFFF
} CUmemcpy3DOperandType;

typedef struct CUoffset3D_st {
  size_t x;
  size_t y;
  size_t z;
} CUoffset3D_v1;
typedef CUoffset3D_v1 CUoffset3D;

typedef struct CUextent3D_st {
  size_t width;
  size_t height;
  size_t depth;
} CUextent3D_v1;
typedef CUextent3D_v1 CUextent3D;

typedef struct CUmemcpy3DOperand_st {
  CUmemcpy3DOperandType type;
  union {
    struct {
      CUdeviceptr ptr;
      size_t rowLength;
      size_t layerHeight;
      CUmemLocation locHint;
    } ptr;
    struct {
      CUarray array;
      CUoffset3D offset;
    } array;
  } op;
} CUmemcpy3DOperand_v1;
typedef CUmemcpy3DOperand_v1 CUmemcpy3DOperand;

typedef struct CUDA_MEMCPY3D_BATCH_OP_st {
  CUmemcpy3DOperand src;
  CUmemcpy3DOperand dst;
  CUextent3D extent;
  CUmemcpySrcAccessOrder srcAccessOrder;
  unsigned int flags;
} CUDA_MEMCPY3D_BATCH_OP_v1;
typedef CUDA_MEMCPY3D_BATCH_OP_v1 CUDA_MEMCPY3D_BATCH_OP;

// Context-creation parameters (CUDA 12.5+).  The real struct's first and last
// members point to CUexecAffinityParam / CUctxCigParam, which this mock does
// not declare; only the struct tags are declared here (tests pass NULL).
struct CUexecAffinityParam_st;
struct CUctxCigParam_st;
typedef struct CUctxCreateParams_st {
  struct CUexecAffinityParam_st *execAffinityParams;
  int numExecAffinityParams;
  struct CUctxCigParam_st *cigParams;
} CUctxCreateParams;

// ---- Entry points (CUDAAPI is empty outside Windows) -------------------------
#ifdef _WIN32
#define CUDAAPI __stdcall
#else
#define CUDAAPI
#endif

// Error handling / initialization / device / context
CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);
CUresult CUDAAPI cuInit(unsigned int Flags);
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
CUresult CUDAAPI cuDeviceGetCount(int *count);
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev);
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx);
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx);
CUresult CUDAAPI cuCtxSynchronize(void);

// Memory management
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
CUresult CUDAAPI cuMemFree(CUdeviceptr dptr);
CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize);
CUresult CUDAAPI cuMemFreeHost(void *p);
CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags);
CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags);
CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemHostUnregister(void *p);

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D *pCopy);
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
// CUDA 13 (_v2) forms: no failIdx parameter (CUDA 12.8's had one).
CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream);
CUresult CUDAAPI cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);

// Stream management
CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority);
CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags);
CUresult CUDAAPI cuStreamQuery(CUstream hStream);
CUresult CUDAAPI cuStreamSynchronize(CUstream hStream);
CUresult CUDAAPI cuStreamDestroy(CUstream hStream);

// Event management
CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult CUDAAPI cuEventQuery(CUevent hEvent);
CUresult CUDAAPI cuEventSynchronize(CUevent hEvent);
CUresult CUDAAPI cuEventDestroy(CUevent hEvent);
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);

// Execution control
CUresult CUDAAPI cuLaunchKernel(CUfunction f,
                                unsigned int gridDimX,
                                unsigned int gridDimY,
                                unsigned int gridDimZ,
                                unsigned int blockDimX,
                                unsigned int blockDimY,
                                unsigned int blockDimZ,
                                unsigned int sharedMemBytes,
                                CUstream hStream,
                                void **kernelParams,
                                void **extra);
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);

#ifdef __cplusplus
}
#endif

#endif // __cuda_cuda_h__
