// HIP twins of the math libraries whose routines run on the stream their
// handle holds (hipblasSetStream, hipfftSetStream, hipsolverSetStream,
// hipsparseSetStream; library-handles.cu and solver-sparse-handles.cu have
// the CUDA forms): the routine is device work on that stream writing its
// outputs, so a copy of an output on another stream, or a blocking
// hipMemcpy on the legacy default stream, that nothing made wait for it may
// read it early (the producer diagnostic). Stand-in headers with the
// libraries' declarations and parameter names (test/Inputs/hipblas,
// test/Inputs/hipfft, test/Inputs/hipsolver, test/Inputs/hipsparse).
//
// RUN: %clang_tidy_cars %s -- -x cuda --cuda-host-only -nocudainc -nocudalib -isystem %inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipfft/hipfft.h>
#include <hipsolver/hipsolver.h>
#include <hipsparse/hipsparse.h>

void axpyThenBlockingCopy(float *h, const float *x, float *y, int n) {
  hipStream_t s1;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipblasHandle_t handle;
  hipblasCreate(&handle);
  hipblasSetStream(handle, s1);
  const float a = 2.0f;
  hipblasSaxpy(handle, n, &a, x, 1, y, 1);
  hipMemcpy(h, y, n * sizeof(float), hipMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'y' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  hipblasDestroy(handle);
}

void axpyThenSyncThenBlockingCopy(float *h, const float *x, float *y, int n) {
  hipStream_t s1;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipblasHandle_t handle;
  hipblasCreate(&handle);
  hipblasSetStream(handle, s1);
  const float a = 2.0f;
  hipblasSaxpy(handle, n, &a, x, 1, y, 1);
  hipStreamSynchronize(s1);
  hipMemcpy(h, y, n * sizeof(float), hipMemcpyDeviceToHost);
  hipblasDestroy(handle);
}

void fftThenCopyOnAnotherStream(hipfftComplex *h, hipfftComplex *in, hipfftComplex *out,
                                int n) {
  hipStream_t s1, s2;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipStreamCreateWithFlags(&s2, hipStreamNonBlocking);
  hipfftHandle plan;
  hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
  hipfftSetStream(plan, s1);
  hipfftExecC2C(plan, in, out, HIPFFT_FORWARD);
  hipMemcpyAsync(h, out, n * sizeof(hipfftComplex), hipMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'out' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  hipStreamSynchronize(s2);
  hipfftDestroy(plan);
}

void fftThenCopyOnItsStream(hipfftComplex *h, hipfftComplex *in, hipfftComplex *out, int n) {
  hipStream_t s1;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipfftHandle plan;
  hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
  hipfftSetStream(plan, s1);
  hipfftExecC2C(plan, in, out, HIPFFT_FORWARD);
  hipMemcpyAsync(h, out, n * sizeof(hipfftComplex), hipMemcpyDeviceToHost, s1);
  hipStreamSynchronize(s1);
  hipfftDestroy(plan);
}

void getrfThenBlockingCopy(int *hInfo, float *A, float *work, int *ipiv,
                           int *info, int n) {
  hipStream_t s1;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipsolverHandle_t handle;
  hipsolverCreate(&handle);
  hipsolverSetStream(handle, s1);
  hipsolverSgetrf(handle, n, n, A, n, work, 0, ipiv, info);
  hipMemcpy(hInfo, info, sizeof(int), hipMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'info' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  hipsolverDestroy(handle);
}

// The size query writes only the host's lwork.
void getrfSizeQueryThenBlockingCopy(float *h, float *A, int n) {
  hipStream_t s1;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipsolverHandle_t handle;
  hipsolverCreate(&handle);
  hipsolverSetStream(handle, s1);
  int lwork = 0;
  hipsolverSgetrf_bufferSize(handle, n, n, A, n, &lwork);
  hipMemcpy(h, A, n * n * sizeof(float), hipMemcpyDeviceToHost);
  hipsolverDestroy(handle);
}

void spmvThenBlockingCopy(float *h, hipsparseConstSpMatDescr_t A,
                          const float *x, float *y, int n) {
  hipStream_t s1;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipsparseHandle_t handle;
  hipsparseCreate(&handle);
  hipsparseSetStream(handle, s1);
  hipsparseConstDnVecDescr_t vecX;
  hipsparseDnVecDescr_t vecY;
  hipsparseCreateConstDnVec(&vecX, n, x, HIP_R_32F);
  hipsparseCreateDnVec(&vecY, n, y, HIP_R_32F);
  const float one = 1, zero = 0;
  hipsparseSpMV(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vecX,
                &zero, vecY, HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, nullptr);
  hipMemcpy(h, y, n * sizeof(float), hipMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'y' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  hipMemcpy(h, x, n * sizeof(float), hipMemcpyDeviceToHost);
  hipsparseDestroy(handle);
}
