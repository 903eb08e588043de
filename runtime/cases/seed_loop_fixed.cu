// Twin of seed_loop: synchronize before consuming the staging buffer.
//
// semantics.md row: PyTorch 2.11 on the same GPU, the seed's loop (corrected: synchronize before the assignment)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: seed_loop.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

// Each iteration a "model step" produces this iteration's result on the
// device; it is copied into a pinned staging buffer and consumed into the
// caller's array. In PyTorch: a[:] = b.to(cpu, non_blocking=True).
static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *staging, *out;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&staging, bytes);
  cudaMallocHost(&out, bytes);
  rt::prime(staging, n);
  for (int step = 0; step < 3; ++step) {
    rt::produce(d, n, s, step);
    cudaMemcpyAsync(staging, d, bytes, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    for (size_t i = 0; i < n; ++i)
      out[i] = staging[i]; // access: consume
    cudaStreamSynchronize(s);
    rt::observe("consume", out[0], 0, step);
  }
  cudaFreeHost(out);
  cudaFreeHost(staging);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
