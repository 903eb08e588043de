// A stand-in for hipSPARSE's <hipsparse/hipsparse.h>: the declarations the
// lit tests use, with the library's parameter names (hipSPARSE API
// reference).
#pragma once
#include <hip/hip_runtime.h>
#include <stdint.h>

typedef struct hipsparseContext *hipsparseHandle_t;
typedef struct hipsparseSpMatDescr *hipsparseSpMatDescr_t;
typedef struct hipsparseSpMatDescr const *hipsparseConstSpMatDescr_t;
typedef struct hipsparseDnVecDescr *hipsparseDnVecDescr_t;
typedef struct hipsparseDnVecDescr const *hipsparseConstDnVecDescr_t;
typedef enum { HIPSPARSE_STATUS_SUCCESS = 0 } hipsparseStatus_t;
typedef enum { HIPSPARSE_OPERATION_NON_TRANSPOSE = 0 } hipsparseOperation_t;
typedef enum { HIPSPARSE_SPMV_ALG_DEFAULT = 0 } hipsparseSpMVAlg_t;
typedef enum { HIP_R_32F = 0 } hipDataType;

hipsparseStatus_t hipsparseCreate(hipsparseHandle_t *handle);
hipsparseStatus_t hipsparseDestroy(hipsparseHandle_t handle);
hipsparseStatus_t hipsparseSetStream(hipsparseHandle_t handle,
                                     hipStream_t streamId);
hipsparseStatus_t hipsparseCreateDnVec(hipsparseDnVecDescr_t *dnVecDescr,
                                       int64_t size, void *values,
                                       hipDataType valueType);
hipsparseStatus_t hipsparseCreateConstDnVec(
    hipsparseConstDnVecDescr_t *dnVecDescr, int64_t size, const void *values,
    hipDataType valueType);
hipsparseStatus_t hipsparseSpMV(hipsparseHandle_t handle,
                                hipsparseOperation_t opA, const void *alpha,
                                hipsparseConstSpMatDescr_t matA,
                                hipsparseConstDnVecDescr_t vecX,
                                const void *beta,
                                const hipsparseDnVecDescr_t vecY,
                                hipDataType computeType,
                                hipsparseSpMVAlg_t alg, void *externalBuffer);
