// Work on the legacy default stream between the kernel on blocking stream s1 and the copy on
// blocking stream s2 orders them: it waits for s1's kernel, and s2's later copy waits for it.
//
// semantics.md row: cudaMemsetAsync of another buffer on stream 0 between a kernel on blocking s1 and the D2H copy on blocking s2
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: legacy_work_nonblocking_streams.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  cudaStream_t s2;
  cudaStreamCreate(&s2);
  float *x;
  cudaMalloc(&x, 64);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  cudaMemsetAsync(x, 0, 64, 0);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFree(x);
}

RT_MAIN()
