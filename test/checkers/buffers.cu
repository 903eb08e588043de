// What a buffer is: arrays of buffers are tracked as a whole (ring and
// double buffers), and pinned memory owned by a smart pointer is not taken
// for a pageable local object.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <memory>

void consume(const float *, int);
void consumeValue(float);

//===--- Double buffering --------------------------------------------------===//

// The classic mistake: the other half is still being written by the copy
// of the previous iteration, which nothing has synchronized.
void doubleBufferReadsTheOtherHalf(float *h[2], float *d[2], cudaStream_t s[2],
                                   int n) {
  for (int it = 0; it < n; ++it) {
    int b = it & 1;
    cudaMemcpyAsync(h[b], d[b], 64, cudaMemcpyDeviceToHost, s[b]);
    consume(h[1 - b], 16);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[1 - b]' is passed to 'consume' before the asynchronous
  }
}

void doubleBufferSyncsTheOtherHalf(float *h[2], float *d[2],
                                   cudaStream_t s[2], int n) {
  for (int it = 0; it < n; ++it) {
    int b = it & 1;
    cudaMemcpyAsync(h[b], d[b], 64, cudaMemcpyDeviceToHost, s[b]);
    cudaDeviceSynchronize();
    consume(h[1 - b], 16);
  }
}

//===--- Smart pointers ----------------------------------------------------===//

struct PinnedDeleter {
  void operator()(float *p) const { cudaFreeHost(p); }
};

float uniquePtrOwnedPinned(const float *d, cudaStream_t s) {
  float *raw;
  cudaMallocHost(&raw, 64);
  std::unique_ptr<float[], PinnedDeleter> h(raw);
  cudaMemcpyAsync(h.get(), d, 64, cudaMemcpyDeviceToHost, s);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before the asynchronous
}

float uniquePtrOwnedPinnedThenSync(const float *d, cudaStream_t s) {
  float *raw;
  cudaMallocHost(&raw, 64);
  std::unique_ptr<float[], PinnedDeleter> h(raw);
  cudaMemcpyAsync(h.get(), d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return h[0];
}
