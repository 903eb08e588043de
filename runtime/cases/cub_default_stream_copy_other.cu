// A CUB algorithm given no stream runs on stream 0 (CUB: "stream [optional]
// CUDA stream to launch kernels within. Default is stream 0"); a copy of its
// output on a non-blocking stream does not wait for it (cuML's decision tree
// read a cub::DeviceSelect::Flagged count so, fixed by passing the stream).
//
// semantics.md row: the copy on a non-blocking stream of the output of a cub::DeviceScan given no stream (stream 0)
// Expected on the GPU: the access reads stale data (the sentinel the output held before the scan)
// Expected from the check: warns at the copy (the producer diagnostic: the cub call writes d_out on the legacy default stream)
//
// Twin: cub_default_stream_copy_other_fixed.cu
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
  cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_in, d_out, (int)n);
  void *temp;
  cudaMalloc(&temp, temp_bytes);
  rt::delay_then_fill<<<264, 256, 0, 0>>>(d_in, n, rt::kDelayNs, 0);
  cub::DeviceScan::InclusiveSum(temp, temp_bytes, d_in, d_out, (int)n);
  cudaMemcpyAsync(h, d_out, bytes, cudaMemcpyDeviceToHost, s); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd_out' on stream 's' may read it before the work that writes it on the legacy default stream has finished
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
