// The fix of handle_stream_blocking_copy.cu, as the real fixes made it: the
// result is copied on the handle's stream, which is then synchronized.
//
// semantics.md row: cudaMemcpy D2H (blocking) of a buffer a kernel on a non-blocking stream writes, then the read (the copy on the handle's stream, then its sync)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: handle_stream_blocking_copy.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

struct Handle {
  cudaStream_t stream;
};
static void setStream(Handle *hd, cudaStream_t s) { hd->stream = s; }

static void solve(Handle *hd, float *d, float *h, size_t n) {
  rt::delay_then_fill<<<264, 256, 0, hd->stream>>>(d, n, rt::kDelayNs, 0);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, hd->stream); // copy: read
  cudaStreamSynchronize(hd->stream);
}

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  Handle hd;
  setStream(&hd, s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  solve(&hd, d, h, n);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
