// Transitive cover: other waits for an event recorded after the copy, then the host synchronizes other.
//
// semantics.md row: cudaStreamWaitEvent(other, e) only (extension: then cudaStreamSynchronize(other))
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: wait_event_only.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStream_t other;
  cudaStreamCreate(&other);
  cudaEvent_t e;
  cudaEventCreate(&e);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaStreamWaitEvent(other, e, 0);
  cudaStreamSynchronize(other);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaEventDestroy(e);
  cudaStreamDestroy(other);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
