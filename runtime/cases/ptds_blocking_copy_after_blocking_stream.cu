// Per-thread default-stream mode (nvcc --default-stream per-thread, as raft
// builds): a blocking cudaMemcpy runs on the per-thread default stream, which
// does not wait for a created stream, even a blocking one (rmm's
// cuda_stream_pool makes blocking streams: raft's copy2DAsync test read a pool
// stream's result so).
//
// semantics.md row: cudaMemcpy D2H (blocking) of a buffer a kernel on a blocking stream writes, then the read (per-thread default-stream mode)
// Expected on the GPU: the access reads stale data (the sentinel the buffer held before the kernel)
// Expected from the check: warns at the copy (the producer diagnostic)
// rt-per-thread-default-stream
//
// Twins: ptds_blocking_copy_after_blocking_stream_fixed.cu (the stream synchronized first),
// ptds_define_in_source_too_late.cu (the same program without the build flag)
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -DCUDA_API_PER_THREAD_DEFAULT_STREAM -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::delay_then_fill<<<264, 256, 0, s>>>(d, n, rt::kDelayNs, 0);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the per-thread default stream may read it before the work that writes it on stream 's' has finished
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
