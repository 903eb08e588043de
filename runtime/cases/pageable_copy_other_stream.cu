// A copy into pinned memory on stream s, then a device-to-host copy into
// pageable memory on another non-blocking stream t: its return says
// nothing of s, and the first copy is still in flight.
//
// semantics.md row: cudaMemcpyAsync D2H into pinned h on s; cudaMemcpyAsync D2H into pageable memory on another non-blocking stream t, then the read of h
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: pageable_copy_waits_for_stream.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <vector>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s, t;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
  float *d, *d2, *h;
  cudaMalloc(&d, bytes);
  cudaMalloc(&d2, bytes);
  cudaMallocHost(&h, bytes);
  std::vector<float> pageable(n);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(pageable.data(), d2, bytes, cudaMemcpyDeviceToHost, t);
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaFree(d2);
  cudaStreamDestroy(s);
  cudaStreamDestroy(t);
}

RT_MAIN()
