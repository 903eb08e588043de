// The fix of ptds_blocking_copy_after_blocking_stream.cu: the stream is
// synchronized before the blocking copy.
//
// semantics.md row: cudaMemcpy D2H (blocking) of a buffer a kernel on a blocking stream writes, then the read (per-thread default-stream mode, the stream synchronized first)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
// rt-per-thread-default-stream
//
// Twin: ptds_blocking_copy_after_blocking_stream.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -DCUDA_API_PER_THREAD_DEFAULT_STREAM -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
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
  cudaStreamSynchronize(s);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost); // copy: read
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
