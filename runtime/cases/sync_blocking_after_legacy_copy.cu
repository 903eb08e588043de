// A copy on the legacy default stream, then cudaStreamSynchronize of a
// blocking stream that was given no work after it: the sync waits for that
// stream's own work only, and the copy is still in flight.
//
// semantics.md row: cudaMemcpyAsync D2H on stream 0; cudaStreamSynchronize(blocking stream b) with nothing enqueued on b, then the read
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: record_blocking_after_legacy_copy.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t b;
  cudaStreamCreate(&b);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, 0);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(b);
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(b);
}

RT_MAIN()
