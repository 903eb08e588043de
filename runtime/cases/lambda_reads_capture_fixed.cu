// The same lambda, called after cudaStreamSynchronize on the copy's stream.
//
// semantics.md row: pinned dst (cudaMallocHost), cudaStreamSynchronize(s) (extension: read in a lambda called after it)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: lambda_reads_capture.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  auto first = [&] { return h[0]; };
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  float v = first(); // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
