// cudaHostRegister between the kernel and the copy. The check models no host allocation or
// registration as a barrier between streams: cudaMalloc and cudaMallocHost issued between two
// streams' commands were measured 10/10 stale (malloc_between_streams on an H200,
// malloc_host_between_streams on an H100), and page-locking existing host memory is the same kind
// of call (docs/semantics.md, "Allocations between streams"). This case measures it.
//
// semantics.md row: cudaHostRegister between a kernel on blocking stream s1 writing d and cudaMemcpyAsync D2H of d on s2; cudaStreamSynchronize(s2), then the read
// Expected on the GPU: the access reads stale data (the sentinel the buffer held before the kernel)
// Expected from the check: warns at the copy (the producer diagnostic)
//
// Twin: malloc_host_between_streams.cu (the same with cudaMallocHost); the fix is a
// cudaStreamWaitEvent(s2, e) after an event recorded on s1 (copy_other_stream_event_wait).
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

#include <cstdlib>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  cudaStream_t s2;
  cudaStreamCreate(&s2);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  void *scratch = std::malloc(bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  cudaHostRegister(scratch, bytes, cudaHostRegisterDefault);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaHostUnregister(scratch);
  std::free(scratch);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
