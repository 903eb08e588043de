// The fixed form of cusparse_spmv_blocking_copy.cu: the handle's stream is
// synchronized before the blocking cudaMemcpy of y, so SpMV has written it and
// the access reads x's fresh values (A is the identity).
//
// semantics.md row: the same, cudaStreamSynchronize(s) before the copy (`cusparse_spmv_blocking_copy_fixed`)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: cusparse_spmv_blocking_copy.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <cusparse.h>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseSetStream(handle, s);
  // The identity matrix in CSR.
  std::vector<int> rows(n + 1), cols(n);
  std::vector<float> ones(n, 1.f);
  for (size_t i = 0; i < n; ++i)
    rows[i] = cols[i] = (int)i;
  rows[n] = (int)n;
  int *dRows, *dCols;
  float *dVals, *x, *y, *h;
  cudaMalloc(&dRows, sizeof(int) * (n + 1));
  cudaMalloc(&dCols, sizeof(int) * n);
  cudaMalloc(&dVals, bytes);
  cudaMalloc(&x, bytes);
  cudaMalloc(&y, bytes);
  cudaMallocHost(&h, bytes);
  cudaMemcpy(dRows, rows.data(), sizeof(int) * (n + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(dCols, cols.data(), sizeof(int) * n, cudaMemcpyHostToDevice);
  cudaMemcpy(dVals, ones.data(), bytes, cudaMemcpyHostToDevice);
  rt::prime(h, n);
  cudaMemcpy(y, h, bytes, cudaMemcpyHostToDevice); // y holds the sentinel
  cusparseSpMatDescr_t A;
  cusparseCreateCsr(&A, (int64_t)n, (int64_t)n, (int64_t)n, dRows, dCols, dVals,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseConstDnVecDescr_t vecX;
  cusparseDnVecDescr_t vecY;
  cusparseCreateConstDnVec(&vecX, (int64_t)n, x, CUDA_R_32F);
  cusparseCreateDnVec(&vecY, (int64_t)n, y, CUDA_R_32F);
  const float one = 1.f, zero = 0.f;
  size_t bufferBytes = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A,
                          vecX, &zero, vecY, CUDA_R_32F,
                          CUSPARSE_SPMV_ALG_DEFAULT, &bufferBytes);
  void *buffer = nullptr;
  cudaMalloc(&buffer, bufferBytes > 0 ? bufferBytes : 1);
  rt::produce(x, n, s);
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vecX, &zero,
               vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, y, bytes, cudaMemcpyDeviceToHost); // copy: read
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cusparseDestroyDnVec(vecX);
  cusparseDestroyDnVec(vecY);
  cusparseDestroySpMat(A);
  cusparseDestroy(handle);
  cudaFree(buffer);
  cudaFreeHost(h);
  for (void *p : {(void *)dRows, (void *)dCols, (void *)dVals, (void *)x,
                  (void *)y})
    cudaFree(p);
  cudaStreamDestroy(s);
}

RT_MAIN()
