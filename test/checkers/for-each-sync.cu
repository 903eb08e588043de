// std::for_each over a container of streams with a function that
// synchronizes its stream parameter on every path (a lambda, a helper, or
// cudaStreamSynchronize itself) synchronizes every stream of the container
// before it returns, as a range-for over it would (the sixth adversarial
// round's 23, a false warning). Another container, or a function that does
// not synchronize, covers nothing.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>
#include <algorithm>
void consume(float);

void byLambda(std::vector<cudaStream_t> &streams, std::vector<float *> &h,
              const float *d) {
  for (size_t k = 0; k < streams.size(); ++k)
    cudaMemcpyAsync(h[k], d, 256, cudaMemcpyDeviceToHost, streams[k]);
  std::for_each(streams.begin(), streams.end(),
                [](cudaStream_t s) { cudaStreamSynchronize(s); });
  consume(h[0][0]);
}
void byFunction(std::vector<cudaStream_t> &streams, std::vector<float *> &h,
                const float *d) {
  for (size_t k = 0; k < streams.size(); ++k)
    cudaMemcpyAsync(h[k], d, 256, cudaMemcpyDeviceToHost, streams[k]);
  std::for_each(streams.begin(), streams.end(), cudaStreamSynchronize);
  consume(h[0][0]);
}
void otherContainer(std::vector<cudaStream_t> &streams, std::vector<float *> &h,
                    const float *d) {
  std::vector<cudaStream_t> others(2);
  for (size_t k = 0; k < streams.size(); ++k)
    cudaMemcpyAsync(h[k], d, 256, cudaMemcpyDeviceToHost, streams[k]);
  std::for_each(others.begin(), others.end(),
                [](cudaStream_t s) { cudaStreamSynchronize(s); });
  consume(h[0][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h[0]' is read before the asynchronous device-to-host copy into it is known to be complete
}
void onlyQueries(std::vector<cudaStream_t> &streams, std::vector<float *> &h,
                 const float *d) {
  for (size_t k = 0; k < streams.size(); ++k)
    cudaMemcpyAsync(h[k], d, 256, cudaMemcpyDeviceToHost, streams[k]);
  std::for_each(streams.begin(), streams.end(),
                [](cudaStream_t s) { (void)cudaStreamQuery(s); });
  consume(h[0][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h[0]' is read before the asynchronous device-to-host copy into it is known to be complete
}
