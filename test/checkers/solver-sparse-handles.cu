// cuSOLVER's dense routines and cuSPARSE's routines run on the stream their
// handle holds (cusolverDnSetStream, cusparseSetStream), with the toolkit's
// own headers: device work on that stream writing their outputs (the
// producer diagnostic), the generic sparse API's dense outputs through the
// values their descriptors were created with. Size queries, routines that
// write host memory or were measured to wait for their own work, cuSOLVER
// families not measured, and descriptors made elsewhere claim nothing. GPU cases: runtime/cases/cusolver_*.cu,
// runtime/cases/cusparse_*.cu.
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusparse.h>

void getrfThenBlockingCopy(int *hInfo, float *A, float *work, int *ipiv,
                           int *info, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s);
  cusolverDnSgetrf(handle, n, n, A, n, work, ipiv, info);
  cudaMemcpy(hInfo, info, sizeof(int), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'info' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  cusolverDnDestroy(handle);
}

void getrfSyncedThenBlockingCopy(int *hInfo, float *A, float *work, int *ipiv,
                                 int *info, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s);
  cusolverDnSgetrf(handle, n, n, A, n, work, ipiv, info);
  cudaStreamSynchronize(s);
  cudaMemcpy(hInfo, info, sizeof(int), cudaMemcpyDeviceToHost);
  cusolverDnDestroy(handle);
}

// A blocking stream: the legacy default stream waits for it.
void getrfBlockingStreamThenBlockingCopy(int *hInfo, float *A, float *work,
                                         int *ipiv, int *info, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s);
  cusolverDnSgetrf(handle, n, n, A, n, work, ipiv, info);
  cudaMemcpy(hInfo, info, sizeof(int), cudaMemcpyDeviceToHost);
  cusolverDnDestroy(handle);
}

void ormqrThenOtherStream(float *h, const float *A, const float *tau,
                          float *C, float *work, int *info, int n,
                          cudaStream_t s1, cudaStream_t s2) {
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s1);
  cusolverDnSormqr(handle, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, 1, n, A, n, tau,
                   C, n, work, n, info);
  cudaMemcpyAsync(h, C, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'C' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaMemcpyAsync(h, A, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  cusolverDnDestroy(handle);
}

// gesvd and syevd wait for their work before they return (measured:
// runtime/cases/cusolver_handle_stream_blocking_copy.cu): not producers.
void gesvdThenBlockingCopy(int *hInfo, float *A, float *S, float *U,
                           float *VT, float *work, int *info, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s);
  cusolverDnSgesvd(handle, 'A', 'A', n, n, A, n, S, U, n, VT, n, work, n,
                   nullptr, info);
  cudaMemcpy(hInfo, info, sizeof(int), cudaMemcpyDeviceToHost);
  cusolverDnDestroy(handle);
}

// The size query writes only the host's lwork: A is not written.
void sizeQueryThenOtherStream(float *h, float *A, int n, cudaStream_t s1,
                              cudaStream_t s2) {
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s1);
  int lwork = 0;
  cusolverDnSgetrf_bufferSize(handle, n, n, A, n, &lwork);
  cudaMemcpyAsync(h, A, n * n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  cusolverDnDestroy(handle);
}

// syevdx returns the count of eigenvalues found in host memory (`meig`):
// it may wait for its own work, so it is no producer.
void syevdxThenOtherStream(float *h, float *A, float *W, float *work,
                           int *info, int n, cudaStream_t s1,
                           cudaStream_t s2) {
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s1);
  int found = 0;
  cusolverDnSsyevdx(handle, CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_RANGE_ALL,
                    CUBLAS_FILL_MODE_LOWER, n, A, n, 0.f, 0.f, 0, 0, &found, W,
                    work, n, info);
  cudaMemcpyAsync(h, W, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  cusolverDnDestroy(handle);
}

void spmvThenBlockingCopy(float *h, cusparseConstSpMatDescr_t A,
                          const float *x, float *y, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseSetStream(handle, s);
  cusparseConstDnVecDescr_t vecX;
  cusparseDnVecDescr_t vecY;
  cusparseCreateConstDnVec(&vecX, n, x, CUDA_R_32F);
  cusparseCreateDnVec(&vecY, n, y, CUDA_R_32F);
  const float one = 1, zero = 0;
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vecX, &zero,
               vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr);
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'y' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cusparseDestroyDnVec(vecX);
  cusparseDestroyDnVec(vecY);
  cusparseDestroy(handle);
}

void spmvSyncedThenBlockingCopy(float *h, cusparseConstSpMatDescr_t A,
                                const float *x, float *y, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseSetStream(handle, s);
  cusparseConstDnVecDescr_t vecX;
  cusparseDnVecDescr_t vecY;
  cusparseCreateConstDnVec(&vecX, n, x, CUDA_R_32F);
  cusparseCreateDnVec(&vecY, n, y, CUDA_R_32F);
  const float one = 1, zero = 0;
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vecX, &zero,
               vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cusparseDestroy(handle);
}

// The descriptor given two buffers: which one the routine writes is not
// told.
void spmvRebound(float *h, cusparseConstSpMatDescr_t A,
                 cusparseConstDnVecDescr_t vecX, float *y, float *z, int n,
                 bool second) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseSetStream(handle, s);
  cusparseDnVecDescr_t vecY;
  cusparseCreateDnVec(&vecY, n, y, CUDA_R_32F);
  if (second)
    cusparseDnVecSetValues(vecY, z);
  const float one = 1, zero = 0;
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vecX, &zero,
               vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr);
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cusparseDestroy(handle);
}

// A descriptor the caller made: its values are not known here.
void spmvHandedDescriptor(float *h, cusparseConstSpMatDescr_t A,
                          cusparseConstDnVecDescr_t vecX,
                          cusparseDnVecDescr_t vecY, float *y, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseSetStream(handle, s);
  const float one = 1, zero = 0;
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vecX, &zero,
               vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr);
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cusparseDestroy(handle);
}

// The legacy API's pointer outputs.
void csr2cooThenBlockingCopy(int *h, const int *rowPtr, int *cooRows, int nnz,
                             int m) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseSetStream(handle, s);
  cusparseXcsr2coo(handle, rowPtr, nnz, m, cooRows, CUSPARSE_INDEX_BASE_ZERO);
  cudaMemcpy(h, cooRows, nnz * sizeof(int), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'cooRows' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  cusparseDestroy(handle);
}
