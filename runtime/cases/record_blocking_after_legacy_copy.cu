// An event recorded on a blocking stream after a copy on the legacy default
// stream: the record is work on the blocking stream, which waits for the
// legacy stream's earlier work ("Stream synchronization behavior"), so
// synchronizing the event waits for the copy.
//
// semantics.md row: cudaMemcpyAsync D2H on stream 0; cudaEventRecord(e, blocking stream b), cudaEventSynchronize(e), then the read
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: sync_blocking_after_legacy_copy.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t b;
  cudaStreamCreate(&b);
  cudaEvent_t e;
  cudaEventCreate(&e);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, 0);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, 0);
  cudaEventRecord(e, b);
  cudaEventSynchronize(e);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaEventDestroy(e);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(b);
}

RT_MAIN()
