// A copy on the legacy default stream, then a cudaMemsetAsync on a blocking stream b
// and a sync of b: the memset waited for the legacy stream's earlier work
// ("Stream synchronization behavior"), so the copy is complete.
//
// semantics.md row: cudaMemcpyAsync D2H on stream 0; a cudaMemsetAsync on a blocking stream b, then cudaStreamSynchronize(b) and the read
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: work_on_nonblocking_after_legacy_copy.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t b;
  cudaStreamCreate(&b);
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
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaFree(d2);
  cudaStreamDestroy(b);
}

RT_MAIN()
