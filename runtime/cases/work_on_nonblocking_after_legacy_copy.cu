// A copy on the legacy default stream, then a cudaMemsetAsync on a non-blocking
// stream b and a sync of b: a non-blocking stream waits for nothing on
// the legacy stream, and the copy is still in flight.
//
// semantics.md row: cudaMemcpyAsync D2H on stream 0; a cudaMemsetAsync on a non-blocking stream b, then cudaStreamSynchronize(b) and the read
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: work_on_blocking_after_legacy_copy.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t b;
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  float *d, *d2, *h;
  cudaMalloc(&d, bytes);
  cudaMalloc(&d2, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, 0);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, 0);
  cudaMemsetAsync(d2, 0, bytes, b); // short work on b
  cudaStreamSynchronize(b);
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaFree(d2);
  cudaStreamDestroy(b);
}

RT_MAIN()
