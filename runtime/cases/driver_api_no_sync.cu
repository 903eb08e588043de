// Driver API: cuMemcpyDtoHAsync into a pinned destination, read unsynchronized.
//
// semantics.md row: cuMemcpyDtoHAsync (driver API), no sync
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns on the read
//
// Twin: driver_api_sync.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include <cuda.h>
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
  rt::produce(d, n, s);
  cuMemcpyDtoHAsync(h, reinterpret_cast<CUdeviceptr>(d), bytes, s);
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
