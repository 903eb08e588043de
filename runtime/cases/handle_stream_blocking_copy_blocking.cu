// handle_stream_blocking_copy.cu with a blocking handle stream: the legacy
// default stream waits for it, so the blocking copy reads what the kernel
// wrote. The check cannot see which stream the caller gave, so it warns as
// for the racy twin; its note names this very condition ("ordered after the
// write if it is the legacy default stream or a blocking stream").
//
// semantics.md row: cudaMemcpy D2H (blocking) of a buffer a kernel on a blocking stream writes, then the read (a library handle's stream: the note's condition)
// Expected on the GPU: the access reads fresh data
// Expected from the check: warns at the copy, conditionally
// rt-conditional: the note's condition holds: 'hd->stream' is a blocking stream
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
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'hd->stream' has finished
  // CHECK: :[[@LINE-2]]:3: note: stream 'hd->stream' is not created in this function: not a race if it is the legacy default stream or a blocking one
}

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
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
