// A stand-in for hipBLAS's <hipblas/hipblas.h>: the declarations the lit
// tests use, with the library's parameter names (hipBLAS API reference).
#pragma once
#include <hip/hip_runtime.h>

typedef void *hipblasHandle_t;
typedef enum { HIPBLAS_STATUS_SUCCESS = 0 } hipblasStatus_t;

hipblasStatus_t hipblasCreate(hipblasHandle_t *handle);
hipblasStatus_t hipblasDestroy(hipblasHandle_t handle);
hipblasStatus_t hipblasSetStream(hipblasHandle_t handle, hipStream_t streamId);
hipblasStatus_t hipblasGetStream(hipblasHandle_t handle, hipStream_t *streamId);
hipblasStatus_t hipblasSaxpy(hipblasHandle_t handle, int n, const float *alpha,
                             const float *x, int incx, float *y, int incy);
