// Twin of memcpy_consume: synchronize, then std::memcpy.
//
// semantics.md row: pinned dst, cudaStreamSynchronize(s) before the read (extension: std::memcpy)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: memcpy_consume.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *out = static_cast<float *>(malloc(bytes));
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  std::memcpy(out, h, bytes); // access: consume
  rt::observe("consume", out[0]);
  cudaDeviceSynchronize();
  free(out);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
