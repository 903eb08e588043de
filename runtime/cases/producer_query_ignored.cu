// A cudaStreamQuery of the producer's stream whose result is ignored, between the kernel that
// writes the source and the copy on another stream: the query waits for nothing and orders
// nothing ("Returns cudaSuccess if all operations in the specified stream have completed, or
// cudaErrorNotReady if not"), so the copy reads the source before the kernel wrote it.
//
// semantics.md row: kernel on non-blocking s1 writes d; (void)cudaStreamQuery(s1); cudaMemcpyAsync D2H of d on non-blocking s2; cudaStreamSynchronize(s2), then the read
// Expected on the GPU: the access reads stale data (the sentinel the buffer held before the kernel)
// Expected from the check: warns at the copy (the producer diagnostic)
//
// Twin: producer_query_polled.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  (void)cudaStreamQuery(s1);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
