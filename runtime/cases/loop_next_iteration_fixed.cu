// Twin of loop_next_iteration: each step synchronizes after its copy.
//
// semantics.md row: pinned dst, cudaStreamSynchronize(s) before the read (extension: next loop iteration)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: loop_next_iteration.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

// The copy of one step is read at the top of the next one.
static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  for (int step = 0; step < 3; ++step) {
    if (step > 0) {
      float v = h[0]; // access: previous
      rt::observe("previous", v, 0, step - 1);
    }
    rt::produce(d, n, s, step);
    cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
  }
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
