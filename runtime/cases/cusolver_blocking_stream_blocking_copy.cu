// cusolver_handle_stream_blocking_copy.cu with a blocking stream
// (cudaStreamCreate): the legacy default stream waits for it, so each blocking
// cudaMemcpy of devInfo waits for the routine ("Stream synchronization
// behavior" of the CUDA Runtime API) and reads the 0 it wrote.
//
// semantics.md row: the same on a blocking stream (`cusolver_blocking_stream_blocking_copy`)
// Expected on the GPU: every access reads fresh data (0)
// Expected from the check: silent
//
// Twin: cusolver_handle_stream_blocking_copy.cu
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
  cudaStreamCreate(&s);
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
  int getrf = hInfo[0]; // access: getrf
  rt::observe("getrf", seen(getrf));
  cudaStreamSynchronize(s);

  cudaMemcpy(dB, hostA.data(), sizeof(float) * kN * kN, cudaMemcpyHostToDevice);
  cudaMemcpy(dInfo, &kBefore, sizeof(int), cudaMemcpyHostToDevice);
  rt::produce(x, n, s);
  cusolverDnSgetrs(handle, CUBLAS_OP_N, kN, kN, dA, kN, ipiv, dB, kN, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: getrs
  int getrs = hInfo[0]; // access: getrs
  rt::observe("getrs", seen(getrs));
  cudaStreamSynchronize(s);

  reset(dA, dInfo, hostA);
  rt::produce(x, n, s);
  cusolverDnSpotrf(handle, CUBLAS_FILL_MODE_LOWER, kN, dA, kN, work, kWork,
                   dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: potrf
  int potrf = hInfo[0]; // access: potrf
  rt::observe("potrf", seen(potrf));
  cudaStreamSynchronize(s);

  reset(dA, dInfo, hostA);
  rt::produce(x, n, s);
  cusolverDnSgeqrf(handle, kN, kN, dA, kN, tau, work, kWork, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: geqrf
  int geqrf = hInfo[0]; // access: geqrf
  rt::observe("geqrf", seen(geqrf));
  cudaStreamSynchronize(s);

  cudaMemcpy(dB, hostA.data(), sizeof(float) * kN * kN, cudaMemcpyHostToDevice);
  cudaMemcpy(dInfo, &kBefore, sizeof(int), cudaMemcpyHostToDevice);
  rt::produce(x, n, s);
  cusolverDnSormqr(handle, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, kN, kN, kN, dA, kN,
                   tau, dB, kN, work, kWork, dInfo);
  cudaMemcpy(hInfo, dInfo, sizeof(int), cudaMemcpyDeviceToHost); // copy: ormqr
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
