// A stand-in for hipSOLVER's <hipsolver/hipsolver.h>: the declarations the
// lit tests use, with the library's parameter names (hipSOLVER API
// reference).
#pragma once
#include <hip/hip_runtime.h>

typedef void *hipsolverHandle_t;
typedef enum { HIPSOLVER_STATUS_SUCCESS = 0 } hipsolverStatus_t;

hipsolverStatus_t hipsolverCreate(hipsolverHandle_t *handle);
hipsolverStatus_t hipsolverDestroy(hipsolverHandle_t handle);
hipsolverStatus_t hipsolverSetStream(hipsolverHandle_t handle,
                                     hipStream_t streamId);
hipsolverStatus_t hipsolverSgetrf_bufferSize(hipsolverHandle_t handle, int m,
                                             int n, float *A, int lda,
                                             int *lwork);
hipsolverStatus_t hipsolverSgetrf(hipsolverHandle_t handle, int m, int n,
                                  float *A, int lda, float *work, int lwork,
                                  int *devIpiv, int *devInfo);
