// Mock of <hip/driver_types.h> (HIP 5.2.3, Debian bookworm libamdhip64-dev):
// hipDeviceptr_t and hipMemcpyKind (real values).
#ifndef HIP_INCLUDE_HIP_DRIVER_TYPES_H
#define HIP_INCLUDE_HIP_DRIVER_TYPES_H

#include <stddef.h>

typedef void *hipDeviceptr_t; // a pointer in HIP (CUDA's CUdeviceptr is an integer)

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,     // Host-to-Host Copy
  hipMemcpyHostToDevice = 1,   // Host-to-Device Copy
  hipMemcpyDeviceToHost = 2,   // Device-to-Host Copy
  hipMemcpyDeviceToDevice = 3, // Device-to-Device Copy
  hipMemcpyDefault = 4         // Runtime determines the kind from the pointers
} hipMemcpyKind;

typedef struct hipPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
} hipPitchedPtr;

typedef struct hipExtent {
  size_t width; // Width in elements when referring to array memory, in bytes when referring to linear memory
  size_t height;
  size_t depth;
} hipExtent;

typedef struct hipPos {
  size_t x;
  size_t y;
  size_t z;
} hipPos;

typedef struct hipArray *hipArray_t;

typedef struct hipMemcpy3DParms {
  hipArray_t srcArray;
  struct hipPos srcPos;
  struct hipPitchedPtr srcPtr;
  hipArray_t dstArray;
  struct hipPos dstPos;
  struct hipPitchedPtr dstPtr;
  struct hipExtent extent;
  enum hipMemcpyKind kind;
} hipMemcpy3DParms;

#endif // HIP_INCLUDE_HIP_DRIVER_TYPES_H
