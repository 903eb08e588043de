// Work on another stream reads the destination (an H2D copy out of the staging buffer) with nothing ordering it after the D2H copy.
//
// semantics.md row: cudaStreamWaitEvent(other, e) only (extension: device work on other, without the wait, reads the destination)
// Expected on the GPU: the access reads stale data (the sentinel): the H2D copy on other runs while the D2H copy on s waits behind the producer
// Expected from the check: warns at the access (used by work on another stream)
//
// Twin: h2d_other_stream_after_wait.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStream_t other;
  cudaStreamCreate(&other);
  float *d, *h, *d2;
  cudaMalloc(&d, bytes);
  cudaMalloc(&d2, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(d2, h, bytes, cudaMemcpyHostToDevice, other); // access: h2d
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  cudaStreamSynchronize(other);
  float v = 0;
  cudaMemcpy(&v, d2, sizeof(float), cudaMemcpyDeviceToHost);
  rt::observe("h2d", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d2);
  cudaFree(d);
  cudaStreamDestroy(other);
  cudaStreamDestroy(s);
}

RT_MAIN()
