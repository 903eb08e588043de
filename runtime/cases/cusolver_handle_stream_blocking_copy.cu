// cuSOLVER's dense routines run on the stream their handle was given
// (cusolverDnSetStream) and "prefer to keep asynchronous execution as much as
// possible" (cuSOLVER, "Asynchronous Execution"). Each routine below writes
// its devInfo on a non-blocking stream behind a delay kernel; a blocking
// cudaMemcpy of devInfo runs on the legacy default stream, which does not
// wait for a non-blocking stream, so it may read the value devInfo held
// before the routine (-7 here; the routine writes 0). One access per routine
// family: LU (getrf, getrs), Cholesky (potrf), QR (geqrf, ormqr), SVD (gesvd),
// the symmetric eigensolver (syevd). Measured (H100, 10 runs each): the first
// five return before their work is done (stale), gesvd and syevd wait for it
// (fresh in every run), so the check takes only the first five families as
// producers and is silent at the last two copies.
//
// semantics.md row: cuSOLVER routines on a non-blocking stream set with cusolverDnSetStream, then a blocking cudaMemcpy D2H of devInfo (`cusolver_handle_stream_blocking_copy`)
// Expected on the GPU: the getrf, getrs, potrf, geqrf and ormqr accesses read stale data (-7, what devInfo held before the routine); gesvd and syevd read fresh data (they wait for their work)
// Expected from the check: warns at the first five copies (the producer diagnostic: the routine writes devInfo on stream 's'), silent at the last two
//
// Twins: cusolver_handle_stream_blocking_copy_fixed.cu (the stream synchronized first),
// cusolver_blocking_stream_blocking_copy.cu (a blocking stream: the legacy default stream waits)
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <cusolverDn.h>

namespace {
constexpr int kN = 64;             // the matrices are kN x kN
constexpr int kWork = 1 << 20;     // floats of workspace, more than any needs
constexpr int kBefore = -7;        // what devInfo holds before a routine

// A = 2 I (symmetric positive definite, full rank) and devInfo = kBefore.
void reset(float *dA, int *dInfo, std::vector<float> &hostA) {
  cudaMemcpy(dA, hostA.data(), sizeof(float) * kN * kN,
             cudaMemcpyHostToDevice);
  cudaMemcpy(dInfo, &kBefore, sizeof(int), cudaMemcpyHostToDevice);
}

float seen(int info) {
  return info == 0 ? rt::fresh(0, 0) : info == kBefore ? rt::kSentinel : 0.f;
}
} // namespace

static void scenario() {
  const size_t n = rt::kElems;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  cusolverDnSetStream(handle, s);
  std::vector<float> hostA(kN * kN, 0.f);
  for (int i = 0; i < kN; ++i)
    hostA[i * kN + i] = 2.f;
  float *x, *dA, *dB, *tau, *S, *U, *VT, *W, *work;
  int *ipiv, *dInfo, *hInfo;
  cudaMalloc(&x, rt::kBytes);
  cudaMalloc(&dA, sizeof(float) * kN * kN);
  cudaMalloc(&dB, sizeof(float) * kN * kN);
  cudaMalloc(&tau, sizeof(float) * kN);
  cudaMalloc(&S, sizeof(float) * kN);
  cudaMalloc(&U, sizeof(float) * kN * kN);
  cudaMalloc(&VT, sizeof(float) * kN * kN);
  cudaMalloc(&W, sizeof(float) * kN);
  cudaMalloc(&work, sizeof(float) * kWork);
  cudaMalloc(&ipiv, sizeof(int) * kN);
  cudaMalloc(&dInfo, sizeof(int));
  cudaMallocHost(&hInfo, sizeof(int));

  reset(dA, dInfo, hostA);
  rt::produce(x, n, s);
  cusolverDnSgetrf(handle, kN, kN, dA, kN, work, ipiv, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: getrf
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'dInfo' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  int getrf = hInfo[0]; // access: getrf
  rt::observe("getrf", seen(getrf));
  cudaStreamSynchronize(s);

  cudaMemcpy(dB, hostA.data(), sizeof(float) * kN * kN, cudaMemcpyHostToDevice);
  cudaMemcpy(dInfo, &kBefore, sizeof(int), cudaMemcpyHostToDevice);
  rt::produce(x, n, s);
  cusolverDnSgetrs(handle, CUBLAS_OP_N, kN, kN, dA, kN, ipiv, dB, kN, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: getrs
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'dInfo' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  int getrs = hInfo[0]; // access: getrs
  rt::observe("getrs", seen(getrs));
  cudaStreamSynchronize(s);

  reset(dA, dInfo, hostA);
  rt::produce(x, n, s);
  cusolverDnSpotrf(handle, CUBLAS_FILL_MODE_LOWER, kN, dA, kN, work, kWork,
                   dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: potrf
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'dInfo' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  int potrf = hInfo[0]; // access: potrf
  rt::observe("potrf", seen(potrf));
  cudaStreamSynchronize(s);

  reset(dA, dInfo, hostA);
  rt::produce(x, n, s);
  cusolverDnSgeqrf(handle, kN, kN, dA, kN, tau, work, kWork, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: geqrf
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'dInfo' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  int geqrf = hInfo[0]; // access: geqrf
  rt::observe("geqrf", seen(geqrf));
  cudaStreamSynchronize(s);

  cudaMemcpy(dB, hostA.data(), sizeof(float) * kN * kN, cudaMemcpyHostToDevice);
  cudaMemcpy(dInfo, &kBefore, sizeof(int), cudaMemcpyHostToDevice);
  rt::produce(x, n, s);
  cusolverDnSormqr(handle, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, kN, kN, kN, dA, kN,
                   tau, dB, kN, work, kWork, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: ormqr
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'dInfo' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  int ormqr = hInfo[0]; // access: ormqr
  rt::observe("ormqr", seen(ormqr));
  cudaStreamSynchronize(s);

  reset(dA, dInfo, hostA);
  rt::produce(x, n, s);
  cusolverDnSgesvd(handle, 'A', 'A', kN, kN, dA, kN, S, U, kN, VT, kN, work,
                   kWork, nullptr, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: gesvd
  int gesvd = hInfo[0]; // access: gesvd
  rt::observe("gesvd", seen(gesvd));
  cudaStreamSynchronize(s);

  reset(dA, dInfo, hostA);
  rt::produce(x, n, s);
  cusolverDnSsyevd(handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, kN,
                   dA, kN, W, work, kWork, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: syevd
  int syevd = hInfo[0]; // access: syevd
  rt::observe("syevd", seen(syevd));
  cudaStreamSynchronize(s);

  cudaDeviceSynchronize();
  cusolverDnDestroy(handle);
  cudaFreeHost(hInfo);
  for (void *p : {(void *)x, (void *)dA, (void *)dB, (void *)tau, (void *)S,
                  (void *)U, (void *)VT, (void *)W, (void *)work, (void *)ipiv,
                  (void *)dInfo})
    cudaFree(p);
  cudaStreamDestroy(s);
}

RT_MAIN()
