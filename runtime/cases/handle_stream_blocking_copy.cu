// A library function launches on the stream its caller put into a handle,
// then reads the result back with a blocking cudaMemcpy: the copy runs on the
// legacy default stream, which does not wait for the handle's stream when the
// caller made it non-blocking (issue 24: three real fixes in two GPU math
// libraries were this shape).
//
// semantics.md row: cudaMemcpy D2H (blocking) of a buffer a kernel on a non-blocking stream writes, then the read (a library handle's stream)
// Expected on the GPU: the access reads stale data (the sentinel the buffer held before the kernel)
// Expected from the check: warns at the copy (the producer diagnostic), with a note saying the
// copy is ordered only if the handle's stream is the legacy default stream or a blocking stream
//
// Twins: handle_stream_blocking_copy_fixed.cu (the fix: the copy on the handle's stream, then a
// sync), handle_stream_blocking_copy_blocking.cu (a blocking handle stream: the note's condition)
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

struct Handle {
  cudaStream_t stream;
};
// The library's setter: the handle holds whatever stream the caller gives.
static void setStream(Handle *hd, cudaStream_t s) { hd->stream = s; }

static void solve(Handle *hd, float *d, float *h, size_t n) {
  rt::delay_then_fill<<<264, 256, 0, hd->stream>>>(d, n, rt::kDelayNs, 0);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'hd->stream' has finished
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
