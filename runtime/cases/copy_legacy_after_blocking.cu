// The same with a blocking stream: the legacy default stream waits for it ("Stream
// synchronization behavior"), so the copy runs after the kernel.
//
// semantics.md row: cudaMemcpyAsync D2H on stream 0 of a buffer a kernel on a blocking stream writes; cudaStreamSynchronize(0), then the read
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: copy_legacy_after_nonblocking.cu
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
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, 0); // copy: read
  cudaStreamSynchronize(0);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
}

RT_MAIN()
