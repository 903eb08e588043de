// A blocking cudaMemset of pinned host memory waits for the blocking stream s.
//
// semantics.md row: s blocking, then a blocking cudaMemset of pinned host memory (extension: the CUDA manual says cudaMemset is synchronous with respect to the host when its target is pinned host memory)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twins: blocking_memset_device.cu, blocking_memset_pinned_nonblocking.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *h2;
  cudaMallocHost(&h2, 64);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaMemset(h2, 0, 64);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h2);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
