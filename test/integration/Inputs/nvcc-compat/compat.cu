// What nvcc's host compilation gives and clang's does not, each needed for
// this unit to parse (test/integration/nvcc-compat.test): an integer
// __CUDACC__, nvcc's host min()/max() overloads, and -Xcompiler -fopenmp.
#include <cuda_runtime.h>

#if __CUDACC__  // CUDA 13's NCCL device headers test it so
#define CARS_NVCC_LIKE 1
#endif

int host_sizes(int a, unsigned n) { return min(a, 3) + (int)max(n, 2u); }

void race(const float *dev, float *pinned, cudaStream_t s, int n) {
  cudaMemcpyAsync(pinned, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  pinned[0] += CARS_NVCC_LIKE;
}
