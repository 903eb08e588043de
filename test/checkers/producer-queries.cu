// A query of the producer's stream and the producer diagnostic: a
// cudaStreamQuery that returned cudaSuccess proves the work on that stream
// complete ("Returns cudaSuccess if all operations in the specified stream
// have completed"), so the copy after the success edge of a test of its
// result (or after a polling loop) is ordered after the producer; a query
// whose result is ignored proves nothing, and the copy after it may still
// read the source before the producer wrote it (found by the generated
// programs: runtime/gen/README.md, class P5; the model's `query_once` row).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

__global__ void fill(float *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = 1.0f;
}

void ignoredQuery(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  (void)cudaStreamQuery(s1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished [cuda-async-read-before-sync]
  cudaStreamSynchronize(s2);
}

void ignoredQueryOfTheLegacyStream(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64>>>(d, 16);
  cudaStreamQuery(0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on the legacy default stream has finished [cuda-async-read-before-sync]
  cudaStreamSynchronize(s2);
}

void pollingLoop(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  while (cudaStreamQuery(s1) == cudaErrorNotReady) {
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void copyOnlyWhereTheQuerySucceeded(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  if (cudaStreamQuery(s1) == cudaSuccess) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
    cudaStreamSynchronize(s2);
  }
}

void copyWhereTheQueryFailed(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  if (cudaStreamQuery(s1) != cudaSuccess) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
    // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished [cuda-async-read-before-sync]
    cudaStreamSynchronize(s2);
  }
}

void workAfterTheQuery(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaError_t idle = cudaStreamQuery(s1);
  fill<<<1, 64, 0, s1>>>(d, 32); // not covered by the query
  if (idle == cudaSuccess) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
    // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished [cuda-async-read-before-sync]
    cudaStreamSynchronize(s2);
  }
}
