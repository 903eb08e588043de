// Built with -Xcompiler -fopenmp (test/integration/nvcc-openmp.test): the
// translated command turns OpenMP on, so _OPENMP is defined and omp.h found.
#include <cuda_runtime.h>
#ifndef _OPENMP
#error "nvcc -Xcompiler -fopenmp defines _OPENMP"
#endif
#include <omp.h>

void race(const float *dev, float *pinned, cudaStream_t s, int n) {
  cudaMemcpyAsync(pinned, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    pinned[i] *= omp_get_max_threads();
}
