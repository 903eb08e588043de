// Twin of launch_host_func: the stream is synchronized after the callback is enqueued.
//
// semantics.md row: cudaStreamAddCallback / cudaLaunchHostFunc enqueued, no sync (corrected)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: launch_host_func.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void CUDART_CB on_done(void *) {}

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, on_done, nullptr);
  cudaStreamSynchronize(s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
