// The host function that sets the flag is enqueued on another stream, which has no earlier work:
// it runs at once, and the spin on the flag orders nothing about the copy.
//
// semantics.md row: cudaMemcpyAsync D2H on s1; cudaLaunchHostFunc(s2, fn, &flag) on another created stream; the host spins on the flag, then the read
// Expected on the GPU: the access reads stale data
// Expected from the check: warns at the read
//
// Twin: host_func_flag_wait.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <atomic>

static void CUDART_CB set_flag(void *data) {
  static_cast<std::atomic<int> *>(data)->store(1);
}

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  std::atomic<int> done{0};
  rt::produce(d, n, s1);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s1);
  cudaLaunchHostFunc(s2, set_flag, &done);
  while (done.load() == 0) {
  }
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
