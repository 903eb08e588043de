// Separate compilation (nvcc -rdc=true, -dc; test/integration/nvcc-compat.test):
// a kernel that launches a kernel parses only with clang's -fgpu-rdc.
#include <cuda_runtime.h>

__global__ void child(float *d) { d[0] = 1.0f; }
__global__ void parent(float *d) { child<<<1, 1>>>(d); }

void race(const float *dev, float *pinned, cudaStream_t s, int n) {
  cudaMemcpyAsync(pinned, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  pinned[0] += 1.0f;
}
