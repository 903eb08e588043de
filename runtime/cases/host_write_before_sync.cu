// The host writes the destination after the copy is enqueued, then synchronizes: the copy overwrites the host's value.
//
// semantics.md row: host WRITES dst after the copy, then syncs: the host's value is lost
// Expected on the GPU: the host's write is lost (counted as stale)
// Expected from the check: warns at the access
//
// Twin: host_write_after_sync.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  h[0] = 42.0f; // access: write
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  cudaStreamSynchronize(s);
  rt::observe_write("write", h[0], 42.0f);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
