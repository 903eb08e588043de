// The fix: an event recorded on the kernel's stream, waited for by the helper's stream before the
// helper copies.
//
// semantics.md row: cudaMemcpyAsync D2H on stream s2 after cudaEventRecord(e, s1) following the kernel and cudaStreamWaitEvent(s2, e)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: helper_copy_other_stream.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

template <typename T>
static void update_host(T *h, const T *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
}

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  cudaStream_t s2;
  cudaStreamCreate(&s2);
  cudaEvent_t e;
  cudaEventCreate(&e);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  cudaEventRecord(e, s1);
  cudaStreamWaitEvent(s2, e, 0);
  update_host(h, d, n, s2); // copy: read
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaEventDestroy(e);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
