// Buffers held in a std::map or std::unordered_map: `m[k]` is the element
// of key k, as `v[i]` of a std::vector is element i. Keys are unique in
// both ([associative.reqmts], [unord.req]), so two constant keys, or two
// keys spelled as different string literals, are two elements; an element
// stays where it is while others are inserted. (The break rounds' r12 and
// r24: a copy into one element read before its sync.)
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>

void consume(float);

void stringKeys(const float *d, cudaStream_t s) {
  std::map<std::string, float *> staging;
  cudaMallocHost(&staging["loss"], 64);
  cudaMallocHost(&staging["acc"], 64);
  cudaMemcpyAsync(staging["loss"], d, 64, cudaMemcpyDeviceToHost, s);
  consume(staging["acc"][0]);
  consume(staging["loss"][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'staging["loss"]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  consume(staging["loss"][1]);
}

void integerKeys(const float *d, cudaStream_t s) {
  std::unordered_map<int, float *> m;
  cudaMallocHost(&m[1], 64);
  cudaMallocHost(&m[2], 64);
  cudaMemcpyAsync(m[1], d, 64, cudaMemcpyDeviceToHost, s);
  consume(m[2][0]);
  consume(*m[1]);
  // CHECK: :[[@LINE-1]]:11: warning: 'm[1]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}

// A key the check cannot tell from the copy's: the same element, maybe.
void variableKeys(const float *d, std::map<int, float *> &m, int k, int j,
                  cudaStream_t s) {
  cudaMemcpyAsync(m[k], d, 64, cudaMemcpyDeviceToHost, s);
  consume(m[j][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'm[j]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  consume(m[k][0]);
}
