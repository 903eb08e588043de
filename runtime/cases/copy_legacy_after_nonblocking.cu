// The copy is on the legacy default stream, the kernel writing its source on a stream created
// non-blocking: the legacy default stream does not wait for it.
//
// semantics.md row: cudaMemcpyAsync D2H on stream 0 of a buffer a kernel on a non-blocking stream writes; cudaStreamSynchronize(0), then the read
// Expected on the GPU: the access reads stale data (the sentinel the buffer held before the kernel)
// Expected from the check: warns at the copy (the producer diagnostic)
//
// Twin: copy_legacy_after_blocking.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, 0); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(0);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
}

RT_MAIN()
