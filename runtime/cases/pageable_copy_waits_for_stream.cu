// A copy into pinned memory on stream s, then a device-to-host copy into
// pageable memory on the same stream: the second call returns once its
// copy is done (semantics.md, "pageable dst"), and that copy ran after the
// first one in stream order, so the first copy is complete too.
//
// semantics.md row: cudaMemcpyAsync D2H into pinned h on s; cudaMemcpyAsync D2H into pageable memory on s (no sync), then the read of h
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent (StrictMode warns: it does not assume the pageable copy's return)
//
// Twin: pageable_copy_other_stream.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <vector>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  std::vector<float> pageable(n);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(pageable.data(), d, bytes, cudaMemcpyDeviceToHost, s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
