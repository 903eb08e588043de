// The project's stream and its synchronization (defined in src/stage.cu),
// a header-inline blocking copy built on them, copy wrappers defined in
// src/fetch.cu, and a staging buffer whose members are defined there too.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

namespace stage {
cudaStream_t currentStream();
void streamSynchronize();
void waitFor(cudaStream_t s);

inline void copyToHost(float *h, const float *d, size_t n) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                  currentStream());
  streamSynchronize();
}

void fetchAsync(float *h, const float *d, size_t n, cudaStream_t s);

struct Staging {
  void begin(const float *d, size_t n);
  void finish();
  float *host_ = nullptr;
  cudaStream_t stream_ = nullptr;
};
} // namespace stage
