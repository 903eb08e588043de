// The fix of producer_query_ignored.cu: the host polls the producer's stream until the query
// returns cudaSuccess, so the kernel has finished before the copy on the other stream is
// issued ("Returns cudaSuccess if all operations in the specified stream have completed").
//
// semantics.md row: kernel on non-blocking s1 writes d; while (cudaStreamQuery(s1) == cudaErrorNotReady) {}; cudaMemcpyAsync D2H of d on non-blocking s2; cudaStreamSynchronize(s2), then the read
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: producer_query_ignored.cu
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
  while (cudaStreamQuery(s1) == cudaErrorNotReady) {
  }
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
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
