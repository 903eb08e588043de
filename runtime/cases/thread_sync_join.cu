// A worker thread synchronizes the copy's stream and the host joins it before the read:
// std::thread::join returns after the thread's function returned ([thread.thread.member]:
// "the completion of the thread represented by *this synchronizes with the corresponding
// successful join() return"), and that function returned after cudaStreamSynchronize did.
//
// semantics.md row: cudaMemcpyAsync D2H on s; a std::thread whose function calls cudaStreamSynchronize(s), joined before the read
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent (the join applies what the thread's function synchronized)
//
// Twin: thread_sync_read_before_join.cu
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
  waiter.join();
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
