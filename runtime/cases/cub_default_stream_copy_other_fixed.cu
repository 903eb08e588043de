// The fix of cub_default_stream_copy_other.cu (cuML's): the CUB algorithm is
// given the copy's stream, so the copy runs after it.
//
// semantics.md row: the copy on a non-blocking stream of the output of a cub::DeviceScan given no stream (stream 0) (the scan given the copy's stream)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: cub_default_stream_copy_other.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <cub/device/device_scan.cuh>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *d_in, *d_out, *h;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d_out, h, bytes, cudaMemcpyHostToDevice); // d_out holds the sentinel
  size_t temp_bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_in, d_out, (int)n, s);
  void *temp;
  cudaMalloc(&temp, temp_bytes);
  rt::delay_then_fill<<<264, 256, 0, s>>>(d_in, n, rt::kDelayNs, 0);
  cub::DeviceScan::InclusiveSum(temp, temp_bytes, d_in, d_out, (int)n, s);
  cudaMemcpyAsync(h, d_out, bytes, cudaMemcpyDeviceToHost, s); // copy: read
  cudaStreamSynchronize(s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFree(temp);
  cudaFreeHost(h);
  cudaFree(d_out);
  cudaFree(d_in);
  cudaStreamDestroy(s);
}

RT_MAIN()
