#include "stage.h"

namespace stage {
void fetchAsync(float *h, const float *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
}

void Staging::begin(const float *d, size_t n) {
  fetchAsync(host_, d, n, stream_);
}
} // namespace stage
