// Mock of <driver_types.h> (CUDA toolkit 13.0): the types, enums and flag
// macros used by the runtime API subset mocked in cuda_runtime_api.h.
// Values are the real ones.
#pragma once

#include "crt/host_defines.h"
#include <stddef.h> // size_t

// ---- Flag macros (driver_types.h) -----------------------------------------
#define cudaHostAllocDefault 0x00       // Default page-locked allocation flag
#define cudaHostAllocPortable 0x01      // Pinned memory accessible by all contexts
#define cudaHostAllocMapped 0x02        // Map allocation into device space
#define cudaHostAllocWriteCombined 0x04 // Write-combined memory

#define cudaHostRegisterDefault 0x00  // Default host memory registration flag
#define cudaHostRegisterPortable 0x01 // Pinned memory accessible by all contexts
#define cudaHostRegisterMapped 0x02   // Map registered memory into device space
#define cudaHostRegisterIoMemory 0x04 // Memory-mapped I/O space
#define cudaHostRegisterReadOnly 0x08 // Memory-mapped read-only

#define cudaStreamDefault 0x00     // Default stream flag
#define cudaStreamNonBlocking 0x01 // Does not synchronize with stream 0

// Special stream handles (implicit per-context / per-thread default streams).
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

#define cudaEventDefault 0x00       // Default event flag
#define cudaEventBlockingSync 0x01  // Event uses blocking synchronization
#define cudaEventDisableTiming 0x02 // Event will not record timing data
#define cudaEventInterprocess 0x04  // Suitable for interprocess use

#define cudaEventRecordDefault 0x00
#define cudaEventRecordExternal 0x01
#define cudaEventWaitDefault 0x00
#define cudaEventWaitExternal 0x01

#define cudaMemAttachGlobal 0x01 // Accessible by any stream on any device
#define cudaMemAttachHost 0x02   // Not accessible by any stream on any device
#define cudaMemAttachSingle 0x04 // Accessible by a single stream only

#define cudaCpuDeviceId ((int)-1)     // Device id that represents the CPU
#define cudaInvalidDeviceId ((int)-2) // Device id that represents an invalid device

// ---- enum cudaError (driver_types.h; subset, real values) ------------------
enum __device_builtin__ cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorTimeout = 909,
  cudaErrorUnknown = 999
};

// ---- enum cudaMemoryType, struct cudaPointerAttributes (driver_types.h) ----
enum __device_builtin__ cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct __device_builtin__ cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

// ---- enum cudaMemcpyKind (driver_types.h) ----------------------------------
enum __device_builtin__ cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4 // Direction inferred from pointer values (UVA)
};

// ---- enum cudaMemLocationType / struct cudaMemLocation (driver_types.h) ----
// Needed by the CUDA 13 cudaMemPrefetchAsync signature.
enum __device_builtin__ cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};

struct __device_builtin__ cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};

// ---- CUDA arrays (driver_types.h) ------------------------------------------
struct cudaArray;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;

// ---- 3D copy descriptors (driver_types.h; real fields, real order) ---------
struct __device_builtin__ cudaPitchedPtr {
  void *ptr;    // Pointer to allocated memory
  size_t pitch; // Pitch of allocated memory in bytes
  size_t xsize; // Logical width of allocation in elements
  size_t ysize; // Logical height of allocation in elements
};

struct __device_builtin__ cudaExtent {
  size_t width;  // Elements for arrays, bytes for linear memory
  size_t height; // Height in elements
  size_t depth;  // Depth in elements
};

struct __device_builtin__ cudaPos {
  size_t x;
  size_t y;
  size_t z;
};

struct __device_builtin__ cudaMemcpy3DParms {
  cudaArray_t srcArray;         // Source memory address
  struct cudaPos srcPos;        // Source position offset
  struct cudaPitchedPtr srcPtr; // Pitched source memory address

  cudaArray_t dstArray;         // Destination memory address
  struct cudaPos dstPos;        // Destination position offset
  struct cudaPitchedPtr dstPtr; // Pitched destination memory address

  struct cudaExtent extent;  // Requested memory copy size
  enum cudaMemcpyKind kind;  // Type of transfer
};

// ---- Batch copy descriptors (driver_types.h, CUDA 12.8+; real fields/order) -
// Used by cudaMemcpyBatchAsync / cudaMemcpy3DBatchAsync.
enum __device_builtin__ cudaMemcpyFlags {
  cudaMemcpyFlagDefault = 0x0,
  cudaMemcpyFlagPreferOverlapWithCompute = 0x1
};

enum __device_builtin__ cudaMemcpySrcAccessOrder {
  cudaMemcpySrcAccessOrderInvalid = 0x0,
  cudaMemcpySrcAccessOrderStream = 0x1,        // Source accessed in stream order
  cudaMemcpySrcAccessOrderDuringApiCall = 0x2, // Source read before the call returns
  cudaMemcpySrcAccessOrderAny = 0x3,           // Source may be read even after the call returns
  cudaMemcpySrcAccessOrderMax = 0x7FFFFFFF
};

struct __device_builtin__ cudaMemcpyAttributes {
  enum cudaMemcpySrcAccessOrder srcAccessOrder;
  struct cudaMemLocation srcLocHint;
  struct cudaMemLocation dstLocHint;
  unsigned int flags; // See cudaMemcpyFlags
};

enum __device_builtin__ cudaMemcpy3DOperandType {
  cudaMemcpyOperandTypePointer = 0x1,
  cudaMemcpyOperandTypeArray = 0x2,
  cudaMemcpyOperandTypeMax = 0x7FFFFFFF
};

struct __device_builtin__ cudaOffset3D {
  size_t x;
  size_t y;
  size_t z;
};

struct __device_builtin__ cudaMemcpy3DOperand {
  enum cudaMemcpy3DOperandType type;
  union {
    struct {
      void *ptr;
      size_t rowLength;   // Length of each row in elements
      size_t layerHeight; // Height of each layer in elements
      struct cudaMemLocation locHint;
    } ptr;
    struct {
      cudaArray_t array;
      struct cudaOffset3D offset;
    } array;
  } op;
};

struct __device_builtin__ cudaMemcpy3DBatchOp {
  struct cudaMemcpy3DOperand src;
  struct cudaMemcpy3DOperand dst;
  struct cudaExtent extent;
  enum cudaMemcpySrcAccessOrder srcAccessOrder;
  unsigned int flags; // See cudaMemcpyFlags
};

// ---- Host callbacks (driver_types.h) ---------------------------------------
#ifdef _WIN32
#define CUDART_CB __stdcall
#else
#define CUDART_CB
#endif
typedef void(CUDART_CB *cudaHostFn_t)(void *userData);

// ---- Opaque handle typedefs (driver_types.h) -------------------------------
typedef __device_builtin__ enum cudaError cudaError_t;
typedef __device_builtin__ struct CUstream_st *cudaStream_t;
typedef __device_builtin__ struct CUevent_st *cudaEvent_t;
typedef __device_builtin__ struct CUgraph_st *cudaGraph_t;
typedef __device_builtin__ struct CUgraphExec_st *cudaGraphExec_t;
enum __device_builtin__ cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
typedef __device_builtin__ struct CUmemPoolHandle_st *cudaMemPool_t;
