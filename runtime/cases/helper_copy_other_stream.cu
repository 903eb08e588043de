// A library's copy helper (raft::update_host's shape) copies the buffer to the host on the stream
// its caller gives, and the caller wrote the buffer with a kernel on another stream, with nothing
// making the helper's stream wait: the copy inside the helper reads the source too early. The
// check sees it through the helper's summary (HelperSummary::Consumes).
//
// semantics.md row: cudaMemcpyAsync D2H on stream s2 of a buffer a kernel on blocking stream s1 writes, no event wait; cudaStreamSynchronize(s2), then the read
// Expected on the GPU: the access reads stale data (the sentinel the buffer held before the kernel)
// Expected from the check: warns at the helper's call (the producer diagnostic)
//
// Twin: helper_copy_other_stream_fixed.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

template <typename T>
static void update_host(T *h, const T *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
}

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
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s1>>>(d, n, rt::kDelayNs, 0);
  update_host(h, d, n, s2); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
