// The seed (seed_race.cu), fixed with an event: record it on the copy's
// stream right after the copy, and wait for that event, not for the whole
// stream or device, before the host reads the staging buffer. Work enqueued
// after the record (the next tile) can keep the GPU busy meanwhile. In
// PyTorch: ev = torch.cuda.Event(); tmp = b.to('cpu', non_blocking=True);
// ev.record(); ...; ev.synchronize(); a[:] = tmp
//
// The check is silent here.
//
// Build and run: nvcc -o seed_fixed_event seed_fixed_event.cu && ./seed_fixed_event
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
  cudaEvent_t copied;
  cudaEventCreateWithFlags(&copied, cudaEventDisableTiming);
  cudaMalloc(&d_b, n * sizeof(unsigned short));
  cudaMallocHost(&staging, n * sizeof(unsigned short)); // pinned

  int mismatches = 0;
  for (int iteration = 0; iteration < 3; ++iteration) {
    produce<<<(n + 255) / 256, 256, 0, s>>>(d_b, n, iteration);
    cudaMemcpyAsync(staging, d_b, n * sizeof(unsigned short),
                    cudaMemcpyDeviceToHost, s);
    cudaEventRecord(copied, s);
    cudaEventSynchronize(copied); // the copy has landed
    for (int i = 0; i < n; ++i)
      a[i] = staging[i];
    for (int i = 0; i < n; ++i)
      if (a[i] != static_cast<unsigned short>(i + iteration)) {
        ++mismatches;
        break;
      }
  }
  printf("iterations with stale data: %d of 3\n", mismatches);
  cudaEventDestroy(copied);
  cudaFreeHost(staging);
  cudaFree(d_b);
  free(a);
  return 0;
}
