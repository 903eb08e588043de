// Two translation units: the copy is issued here; the wait for it is a
// helper defined in the other unit (parts/xtu_stage.cu) that synchronizes
// the stream, called before the read. The check knows the wait covers the
// copy only through the summary exported from that unit; without it the
// helper is opaque and the read is warned (the false positive summaries
// remove, issue 26).
//
// semantics.md row: pinned dst, cudaStreamSynchronize(s) before the read (extension: the sync is in another translation unit)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent (with the other unit's summaries)
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
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --check-prefix=OPAQUE
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
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  xtu_wait(s);
  float v = h[0]; // access: read
  // OPAQUE: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
