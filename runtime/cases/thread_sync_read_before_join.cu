// The worker thread that synchronizes the copy's stream is joined only after the read: the read
// runs while the thread may still wait in cudaStreamSynchronize.
//
// semantics.md row: cudaMemcpyAsync D2H on s; a std::thread whose function calls cudaStreamSynchronize(s), the read before the join
// Expected on the GPU: the access reads stale data
// Expected from the check: warns at the read
//
// Twin: thread_sync_join.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <thread>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  std::thread waiter([s] { cudaStreamSynchronize(s); });
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  waiter.join();
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
