// The same with a blocking stream, which the legacy default stream waits for.
//
// semantics.md row: cudaMemcpy D2H (blocking) of a buffer a kernel on a blocking stream writes, then the read
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: blocking_copy_after_nonblocking.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost); // copy: read
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
}

RT_MAIN()
