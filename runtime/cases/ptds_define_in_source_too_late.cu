// ptds_blocking_copy_after_blocking_stream.cu with the mode asked for by a
// #define in the file instead of the build flag: nvcc (and clang) include
// cuda_runtime.h before the file's first line, so the define comes too late,
// the API keeps its legacy default stream, and the blocking copy waits for the
// blocking stream. The check must not take the define for per-thread mode.
//
// semantics.md row: cudaMemcpy D2H (blocking) of a buffer a kernel on a blocking stream writes, then the read (CUDA_API_PER_THREAD_DEFAULT_STREAM defined in the file: too late)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: ptds_blocking_copy_after_blocking_stream.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
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
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s>>>(d, n, rt::kDelayNs, 0);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost); // copy: read
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
