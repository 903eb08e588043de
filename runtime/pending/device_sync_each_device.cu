// Twin of device_sync_other_device: each device synchronized while it is
// current, after the copies: device 0's copy is complete at the read.
//
// semantics.md row: cudaSetDevice loop over 2 GPUs, copy on each, cudaDeviceSynchronize of each device in a loop, read of device 0's buffer
// Expected on the GPU: fresh (needs 2 GPUs: RT_DEVICES)
// Expected from the check: silent
//
// Twin: device_sync_other_device.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#define RT_DEVICES 2
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  float *d[2], *h[2];
  cudaStream_t s[2];
  for (int dev = 0; dev < 2; ++dev) {
    cudaSetDevice(dev);
    cudaStreamCreate(&s[dev]);
    cudaMalloc(&d[dev], bytes);
    cudaMallocHost(&h[dev], bytes);
    rt::prime(h[dev], n);
  }
  for (int dev = 0; dev < 2; ++dev) {
    cudaSetDevice(dev);
    if (dev == 0)
      rt::produce(d[dev], n, s[dev]); // only device 0's copy waits 30 ms
    cudaMemcpyAsync(h[dev], d[dev], bytes, cudaMemcpyDeviceToHost, s[dev]);
  }
  for (int dev = 0; dev < 2; ++dev) {
    cudaSetDevice(dev);
    cudaDeviceSynchronize();
  }
  float v = h[0][0]; // access: read
  rt::observe("read", v, 0);
  for (int dev = 0; dev < 2; ++dev) {
    cudaSetDevice(dev);
    cudaFreeHost(h[dev]);
    cudaFree(d[dev]);
    cudaStreamDestroy(s[dev]);
  }
  cudaSetDevice(0);
}

RT_MAIN()
