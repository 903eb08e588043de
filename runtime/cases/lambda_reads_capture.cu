// A lambda that reads the destination through its capture, called before the synchronization.
//
// semantics.md row: pinned dst (cudaMallocHost), read right after the copy (extension: read in a lambda called there)
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: lambda_reads_capture_fixed.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
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
  auto first = [&] { return h[0]; };
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  float v = first(); // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
