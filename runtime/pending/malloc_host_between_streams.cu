// cudaMallocHost between the kernel and the copy. The Programming Guide's "Implicit
// Synchronization" says two streams' commands cannot overlap a page-locked host allocation issued
// between them; it says the same of a device allocation, which an H200 does not keep (the twin).
// Until this one is measured the check makes no claim across it.
//
// semantics.md row: cudaMallocHost between a kernel on blocking stream s1 writing d and cudaMemcpyAsync D2H of d on s2; cudaStreamSynchronize(s2), then the read
// Expected on the GPU: the access reads fresh data (the Guide's promise)
// Expected from the check: silent
//
// Twin: malloc_between_streams.cu
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
  float *d, *h, *scratch;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  cudaMallocHost(&scratch, bytes);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaFreeHost(scratch);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
