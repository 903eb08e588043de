// The same scenarios against the real CUDA toolkit headers, where present:
// they parse, and the check warns exactly as with the mock headers,
// including per-thread mode, where the real header renames the API with
// token-pasting macros.
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags \
// RUN:   | FileCheck %s --check-prefix=CHECK --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -DCUDA_API_PER_THREAD_DEFAULT_STREAM \
// RUN:   | FileCheck %s --check-prefixes=CHECK,PTDS --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }

int seedLoop() {
  const int n = 256;
  float *h, *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  float sum = 0;
  for (int it = 0; it < 3; ++it) {
    fill<<<1, n, 0, s>>>(d);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    for (int i = 0; i < n; ++i)
      sum += h[i];
    // CHECK: :[[@LINE-1]]:14: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    // CHECK: :[[@LINE-4]]:5: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
    cudaStreamSynchronize(s);
  }
  printf("%f\n", sum);
  return 0;
}

int seedLoopFixed() {
  const int n = 256;
  float *h, *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  float sum = 0;
  for (int it = 0; it < 3; ++it) {
    fill<<<1, n, 0, s>>>(d);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    for (int i = 0; i < n; ++i)
      sum += h[i];
  }
  printf("%f\n", sum);
  return 0;
}

void eventAfterCopy(float *h, const float *d, cudaStream_t s, cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaEventSynchronize(e);
  printf("%f\n", h[0]);
}

void pageableVectorIsSilent(const float *d, cudaStream_t s) {
  std::vector<float> v(16);
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, s);
  printf("%f\n", v[0]);
}

void syncStreamZero(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(0);
  printf("%f\n", h[0]);
  // PTDS: :[[@LINE-1]]:18: warning: 'h' is read before the asynchronous
  // PTDS: :[[@LINE-4]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // PTDS: :[[@LINE-4]]:3: note: with per-thread default streams, stream '0' is this thread's own stream and does not wait for stream 's'
}

void hostRegistered(const float *d, cudaStream_t s) {
  static float buffer[64];
  cudaHostRegister(buffer, sizeof(buffer), cudaHostRegisterDefault);
  cudaMemcpyAsync(buffer, d, sizeof(buffer), cudaMemcpyDeviceToHost, s);
  printf("%f\n", buffer[0]);
  // CHECK: :[[@LINE-1]]:18: warning: 'buffer' is read before the asynchronous
}
