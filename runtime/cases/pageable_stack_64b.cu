// Pageable destination on the stack, 64 B, read unsynchronized.
//
// semantics.md row: pageable dst (malloc), 4 MiB and 64 B, no sync (extension: stack array)
// Expected on the GPU: the copy call returns only once the copy is done: the access reads the fresh data
// Expected from the check: silent (default mode: a known-pageable destination is not asynchronous)
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = 16;
  const size_t bytes = n * sizeof(float);
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d;
  cudaMalloc(&d, rt::kBytes);
  float h[16];
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
