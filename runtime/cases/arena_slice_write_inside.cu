// A copy into the second half of a pinned buffer, then a host write into that half before the
// copy is known complete: the copy lands on top of the host's value.
//
// semantics.md row: copy into h + n/2 (n/2 elements), host WRITES h[n/2] before the sync: the host's value is lost
// Expected on the GPU: the host's write is lost (counted as stale)
// Expected from the check: warns at the access
//
// Twin: arena_slice_write_outside.cu
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
  cudaMemcpyAsync(h + n / 2, d + n / 2, bytes / 2, cudaMemcpyDeviceToHost, s);
  h[n / 2] = 42.0f; // access: write
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is written before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  rt::observe_write("write", h[n / 2], 42.0f, n / 2);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
