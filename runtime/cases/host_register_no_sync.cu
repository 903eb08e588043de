// A malloc'ed destination pinned with cudaHostRegister, read unsynchronized.
//
// semantics.md row: cudaHostRegister'ed dst, no sync
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: host_register_sync.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d;
  cudaMalloc(&d, bytes);
  float *h = static_cast<float *>(malloc(bytes));
  cudaHostRegister(h, bytes, cudaHostRegisterDefault);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaHostUnregister(h);
  free(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
