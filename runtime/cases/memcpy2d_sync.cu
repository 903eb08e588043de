// Twin of memcpy2d_no_sync: the stream is synchronized first.
//
// semantics.md row: cudaMemcpy2DAsync D2H, no sync (corrected)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: memcpy2d_no_sync.cu
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
  cudaMemcpy2DAsync(h, 4096, d, 4096, 4096, bytes / 4096, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
