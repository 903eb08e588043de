// An inline helper with a finding, included by several translation units.
#pragma once
#include <cuda_runtime.h>

inline float downloadFirst(float *pinned, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(pinned, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  float v = pinned[0]; // read before the copy is known to be complete
  cudaStreamSynchronize(s);
  return v;
}
