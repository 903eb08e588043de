// A pointer to a destination handed to the standard library to keep, not
// to read through, is no access (blind round 21: c14, c62): a pair's,
// tuple's, optional's or container's constructor or member whose parameter
// takes the pointer itself where the pointer type is one of the class's
// element types (`std::pair<float *, cudaStream_t> job{h, s}`,
// `pending.push_back(h)`, `emplace_back(h, s)`), and std::make_pair /
// make_tuple / tie / forward_as_tuple / ref / cref / make_optional. An
// iterator range of the pointed-to elements is read (`std::vector<float>
// v(h, h + n)`, `assign`, `std::copy`), as is a function of the project's
// the check cannot see into.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

void consume(float);
void keep(float *);

void pairKeepsPointer(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::pair<float *, cudaStream_t> job{h, s};
  auto made = std::make_pair(h, s);
  auto tuple = std::make_tuple(h, s, 64);
  cudaStreamSynchronize(job.second);
  consume(job.first[0] + made.first[1] + std::get<0>(tuple)[2]);
}

void containerKeepsPointer(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  std::vector<float *> pending;
  std::vector<std::pair<float *, cudaStream_t>> jobs;
  std::map<int, float *> byId;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  pending.push_back(h);
  jobs.emplace_back(h, s);
  byId.emplace(7, h);
  cudaStreamSynchronize(s);
  consume(pending[0][0]);
}

void rangeOfElementsIsRead(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::vector<float> copy(h, h + 16);
  // CHECK: :[[@LINE-1]]:27: warning: 'h' is passed to 'vector<float>' before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  copy.assign(h, h + 16);
  // CHECK: :[[@LINE-1]]:15: warning: 'h' is passed to 'assign' before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  keep(h);
  // CHECK: :[[@LINE-1]]:8: warning: 'h' is passed to 'keep' before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
