// Driver API: cuMemcpyDtoHAsync into a pinned destination, read unsynchronized.
//
// semantics.md row: cuMemcpyDtoHAsync (driver API), no sync
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: silent for now: the driver API is not modelled yet (rt-not-modelled: the agreement script lists it apart)
//
// Twin: driver_api_sync.cu
//
// rt-not-modelled: the driver API (cuMemcpyDtoHAsync) is out of scope for the check so far
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
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
