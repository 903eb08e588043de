// Twin of host_register_no_sync: the stream is synchronized first.
//
// semantics.md row: cudaHostRegister'ed dst, no sync (corrected)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: host_register_no_sync.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d;
  cudaMalloc(&d, bytes);
  float *h = static_cast<float *>(malloc(bytes));
  cudaHostRegister(h, bytes, cudaHostRegisterDefault);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaHostUnregister(h);
  free(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
