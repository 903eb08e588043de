// Work on another stream reads the destination after that stream waited for an event recorded after the D2H copy (ggml's allreduce staging).
//
// semantics.md row: cudaStreamWaitEvent(other, e) only (extension: device work on other after the wait reads the destination)
// Expected on the GPU: the access reads the fresh data: cudaStreamWaitEvent orders other's later work after the copy
// Expected from the check: silent
//
// Twin: h2d_other_stream_no_wait.cu
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
  float *d, *h, *d2;
  cudaMalloc(&d, bytes);
  cudaMalloc(&d2, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaStreamWaitEvent(other, e, 0);
  cudaMemcpyAsync(d2, h, bytes, cudaMemcpyHostToDevice, other); // access: h2d
  cudaStreamSynchronize(other);
  float v = 0;
  cudaMemcpy(&v, d2, sizeof(float), cudaMemcpyDeviceToHost);
  rt::observe("h2d", v);
  cudaDeviceSynchronize();
  cudaEventDestroy(e);
  cudaFreeHost(h);
  cudaFree(d2);
  cudaFree(d);
  cudaStreamDestroy(other);
  cudaStreamDestroy(s);
}

RT_MAIN()
