// A RAII guard whose destructor synchronizes the copy's stream: a read after the guard's scope sees the copy complete.
//
// semantics.md row: pinned dst, cudaStreamSynchronize(s) before the read (extension: called by a local object's destructor at the end of its scope, C++ [class.dtor])
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: raii_guard_read_in_scope.cu
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
  {
    StreamSyncGuard guard(s);
    rt::produce(d, n, s);
    cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  }
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
