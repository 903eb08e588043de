// Two translation units: a helper defined in the other unit
// (parts/xtu_stage.cu) issues the copy into the caller's pinned buffer and
// returns with it in flight; the caller reads the buffer at once. The check
// sees the helper only through the summary exported from that unit.
//
// semantics.md row: pinned dst (cudaMallocHost), read right after the copy (extension: the copy is issued in another translation unit)
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access, with a note at the copy in the other unit
//
// Twin: xtu_copy_left_in_flight_fixed.cu
// rt-parts: parts/xtu_stage.cu
//
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_tidy_cars %S/parts/xtu_stage.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t'}}" \
// RUN:   -- %cuda_real_flags -I%S/..
// RUN: %clang_tidy_cars %s \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryImportPaths: '%t'}}" \
// RUN:   -- %cuda_real_flags -I%S/.. | FileCheck %s --implicit-check-not='warning:'
// Without the summary the helper is opaque and nothing is claimed.
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | count 0
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
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-4]]:3: note: the copy is issued in another translation unit, at {{.*}}xtu_stage.cu:9:3
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
