// Twin of xtu_copy_left_in_flight: the caller waits for the copy through a
// second helper of the other unit (parts/xtu_stage.cu), which synchronizes
// the stream, before it reads. Without the summaries that wait is opaque;
// with them the check knows it covers the copy.
//
// semantics.md row: pinned dst, cudaStreamSynchronize(s) before the read (extension: the copy and the sync are in another translation unit)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: xtu_copy_left_in_flight.cu
// rt-parts: parts/xtu_stage.cu
//
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_tidy_cars %S/parts/xtu_stage.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t'}}" \
// RUN:   -- %cuda_real_flags -I%S/..
// RUN: %clang_tidy_cars %s \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryImportPaths: '%t'}}" \
// RUN:   -- %cuda_real_flags -I%S/.. | count 0
#include "rt.h"
#include "parts/xtu_stage.h"

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
  xtu_fetch(h, d, bytes, s);
  xtu_wait(s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
