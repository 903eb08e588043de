// Twin of driver_api_no_sync: cuStreamSynchronize before the read.
//
// semantics.md row: cuMemcpyDtoHAsync (driver API), no sync (corrected)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent for now: the driver API is not modelled yet
//
// Twin: driver_api_no_sync.cu
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
  cuStreamSynchronize(s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
