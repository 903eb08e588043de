// A host function enqueued on the copy's stream after the copy sets an atomic flag, and the host
// spins on the flag before the read: the host function runs after the stream's earlier work
// ("Stream Ordered Host Function": "the host function is called after all commands previously
// issued to the stream have completed"), so the flag orders the read after the copy.
//
// semantics.md row: cudaMemcpyAsync D2H on s; cudaLaunchHostFunc(s, fn, &flag) where fn stores 1 into the std::atomic flag; the host spins until it reads 1, then the read
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent (the spin on the flag waits for the stream up to the host function)
//
// Twin: host_func_flag_other_stream.cu
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
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  std::atomic<int> done{0};
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, set_flag, &done);
  while (done.load() == 0) {
  }
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
