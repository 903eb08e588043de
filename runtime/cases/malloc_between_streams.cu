// cudaMalloc between the kernel and the copy. The Programming Guide's "Implicit Synchronization"
// says two streams' commands cannot overlap a device allocation issued between them, but an H200
// does not keep that promise (measured 10/10 stale on 2026-12-05), so the check warns as it does
// for cudaMallocAsync.
//
// semantics.md row: cudaMalloc between a kernel on blocking stream s1 writing d and cudaMemcpyAsync D2H of d on s2; cudaStreamSynchronize(s2), then the read
// Expected on the GPU: the access reads stale data (the sentinel the buffer held before the kernel)
// Expected from the check: warns at the copy (the producer diagnostic)
//
// Twins: malloc_async_between_streams.cu, malloc_host_between_streams.cu
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
  cudaMalloc(&scratch, bytes);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaFree(scratch);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
