// StrictMode follows only what the CUDA manual guarantees: copies into
// pageable memory "might be synchronous" (so they count as asynchronous),
// and cudaFree / cudaFreeHost are not synchronizations.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.StrictMode: true}}' \
// RUN:   -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefix=STRICT --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.StrictMode: false}}' \
// RUN:   -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <stdlib.h>
#include <vector>

void consume(float);

void pageableMalloc(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(256);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // STRICT: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // STRICT: :[[@LINE-4]]:3: note: 'h' is pageable host memory: the CUDA manual only says such a copy "might be synchronous", and StrictMode follows the manual
  free(h);
  // STRICT: :[[@LINE-1]]:8: warning: 'h' is passed to 'free' before the asynchronous
}

void pageableStackArray(const float *d, cudaStream_t s) {
  float h[64];
  cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void pageableVector(const float *d, cudaStream_t s) {
  std::vector<float> v(64);
  cudaMemcpyAsync(v.data(), d, 256, cudaMemcpyDeviceToHost, s);
  consume(v[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'v' is read before the asynchronous
}

void pageableThenSync(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(256);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
  free(h);
}

void freeOtherBuffer(float *h, const float *d, float *dOther,
                     cudaStream_t s) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaFree(dOther);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // STRICT: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // STRICT: :[[@LINE-4]]:3: note: 'cudaFree' is not documented to synchronize; StrictMode does not count it
}

void freeHostOtherBuffer(float *h, const float *d, float *hOther,
                         cudaStream_t s) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaFreeHost(hOther);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// Both modes agree where the pattern is plainly racy.
void pinnedNoSync(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // DEFAULT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // STRICT: :[[@LINE-2]]:11: warning: 'h' is read before the asynchronous
}
