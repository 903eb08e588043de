// A loop reads, at the top of each step, the copy enqueued by the previous step.
//
// semantics.md row: pinned dst (cudaMallocHost), read right after the copy (extension: read in the next loop iteration)
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: loop_next_iteration_fixed.cu
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
      // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
      rt::observe("previous", v, 0, step - 1);
    }
    rt::produce(d, n, s, step);
    cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  }
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
