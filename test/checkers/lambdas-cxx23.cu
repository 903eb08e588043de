// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++23 | FileCheck %s --implicit-check-not='warning:'

// C++23 explicit object parameters ([dcl.fct]/6): the closure is the
// first parameter, so the arguments line up with the parameters as they
// are, without the shift of an implicit object.

#include <cuda_runtime.h>

void consumeValue(float v);

void explicitObjectLambdaSyncsItsArgument(const float *d, cudaStream_t s,
                                          cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  auto wait = [](this auto const &, cudaStream_t a, cudaStream_t) {
    cudaStreamSynchronize(a);
  };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  wait(t, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  wait(s, t);
  consumeValue(h[0]);
}

void explicitObjectLambdaReadsItsArgument(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto read = [](this auto const &, const float *p) { consumeValue(p[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  read(h);
  // CHECK: :[[@LINE-1]]:8: warning: 'h' is passed to 'read' before
  cudaStreamSynchronize(s);
  read(h);
}
