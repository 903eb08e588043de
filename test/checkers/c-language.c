// The runtime API is a C API: plain C translation units are checked too.
// RUN: %clang_tidy_cars %s -- -x c -std=c11 -isystem %inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

void readBeforeSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost((void **)&h, 256);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  printf("%f\n", h[0]);
  // CHECK: :[[@LINE-1]]:18: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

void readAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost((void **)&h, 256);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("%f\n", h[0]);
  cudaFreeHost(h);
}

void pageableIsSilent(const float *d, cudaStream_t s) {
  float *h = malloc(256);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  printf("%f\n", h[0]);
  free(h);
}
