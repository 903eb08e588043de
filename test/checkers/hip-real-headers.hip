// HIP against Debian's real headers (libamdhip64-dev), where installed:
// they parse host-only, and the check warns as with the mock headers.
//
// REQUIRES: hip-headers
// RUN: %clang_tidy_cars %s -- -x hip --offload-host-only -nogpulib \
// RUN:   -D__AMDGCN_WAVEFRONT_SIZE=64 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }

void readBeforeSync(hipStream_t s) {
  float *h, *d;
  (void)hipHostMalloc((void **)&h, 256, 0);
  (void)hipMalloc((void **)&d, 256);
  fill<<<1, 64, 0, s>>>(d);
  (void)hipMemcpyAsync(h, d, 256, hipMemcpyDeviceToHost, s);
  printf("%f\n", h[0]);
  // CHECK: :[[@LINE-1]]:18: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  (void)hipStreamSynchronize(s);
  printf("%f\n", h[1]);
}

void eventFix(hipStream_t s, hipEvent_t e, float *h, const float *d) {
  (void)hipMemcpyAsync(h, d, 256, hipMemcpyDeviceToHost, s);
  (void)hipEventRecord(e, s);
  (void)hipEventSynchronize(e);
  printf("%f\n", h[0]);
}
