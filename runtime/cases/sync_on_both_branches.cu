// Twin of sync_on_one_branch: both branches synchronize.
//
// semantics.md row: pinned dst, cudaStreamSynchronize(s) before the read (extension: on both branches)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: sync_on_one_branch.cu
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
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  if (std::getenv("RT_SYNC_FIRST") != nullptr)
    cudaStreamSynchronize(s);
  else
    cudaDeviceSynchronize();
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
