// Constructors with a visible body: their summary applies where the object
// is built, on the object (`Marker m(s);` records an event into m.e; a
// constructor that synchronizes its stream argument is that sync), as
// destructors' do where it goes out of scope (destructors.cu).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
void consume(float);

struct Marker {
  cudaEvent_t e;
  explicit Marker(cudaStream_t s) {
    cudaEventCreate(&e);
    cudaEventRecord(e, s);
  }
  void wait() { cudaEventSynchronize(e); }
};

void markerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Marker m(s);
  m.wait();
  consume(h[0]);
}

// Recorded before the copy: the event does not cover it.
void markerBeforeCopy(float *h, const float *d, cudaStream_t s) {
  Marker m(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m.wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-5]]:10: note: event 'm.e' was recorded before the copy, so synchronizing it does not wait for the copy
}

struct Fence {
  explicit Fence(cudaStream_t s) { cudaStreamSynchronize(s); }
};

void fenceAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Fence f(s);
  consume(h[0]);
}

void fenceOtherStream(float *h, const float *d, cudaStream_t s,
                      cudaStream_t t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Fence f(t);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-3]]:9: note: this synchronizes stream 't', not stream 's', the copy's stream
}

// Built before the copy: its sync came first.
void fenceBeforeCopy(float *h, const float *d, cudaStream_t s) {
  Fence f(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}
