// The same RAII guard, but the read is inside its scope: the destructor has not run yet, so nothing waited for the copy.
//
// semantics.md row: pinned dst (cudaMallocHost), read right after the copy (extension: the guard's destructor runs only at the end of its scope)
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: raii_guard_synced.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

namespace {
class StreamSyncGuard {
public:
  explicit StreamSyncGuard(cudaStream_t s) : s_(s) {}
  ~StreamSyncGuard() { cudaStreamSynchronize(s_); }

private:
  cudaStream_t s_;
};
} // namespace

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  float v = 0;
  {
    StreamSyncGuard guard(s);
    rt::produce(d, n, s);
    cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
    v = h[0]; // access: read
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  }
  rt::observe("read", v);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
