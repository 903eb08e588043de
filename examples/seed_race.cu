// The seed of this project, in CUDA C++. PyTorch users meet it as
//
//   a[:] = b.to('cpu', non_blocking=True); torch.cuda.synchronize()
//
// Each iteration produces a bf16-sized tile on the GPU, copies it to a
// pinned staging buffer with cudaMemcpyAsync, and widens it into `a` on the
// host. The copy returns before the DMA has finished, so the host reads the
// staging buffer while it is still being written: stale values, sometimes.
//
// Build and run: nvcc -o seed_race seed_race.cu && ./seed_race
// Lint:          clang-tidy --load=<plugin> -checks='-*,cuda-async-read-before-sync' \
//                  seed_race.cu -- -x cuda --cuda-host-only -nocudalib
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void produce(unsigned short *b, int n, int iteration) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = static_cast<unsigned short>(i + iteration);
}

int main() {
  const int rows = 13223, cols = 134;
  const int n = rows * cols;
  unsigned short *d_b, *staging;
  float *a = static_cast<float *>(malloc(n * sizeof(float)));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d_b, n * sizeof(unsigned short));
  cudaMallocHost(&staging, n * sizeof(unsigned short)); // pinned

  int mismatches = 0;
  for (int iteration = 0; iteration < 3; ++iteration) {
    produce<<<(n + 255) / 256, 256, 0, s>>>(d_b, n, iteration);
    cudaMemcpyAsync(staging, d_b, n * sizeof(unsigned short),
                    cudaMemcpyDeviceToHost, s);
    for (int i = 0; i < n; ++i)
      a[i] = staging[i]; // the copy may still be in flight
    cudaStreamSynchronize(s);
    for (int i = 0; i < n; ++i)
      if (a[i] != static_cast<unsigned short>(i + iteration)) {
        ++mismatches;
        break;
      }
  }
  printf("iterations with stale data: %d of 3\n", mismatches);
  cudaFreeHost(staging);
  cudaFree(d_b);
  free(a);
  return 0;
}
