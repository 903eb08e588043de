// The planted race. It is a race only because the project is built with
// nvcc --default-stream per-thread: stream 0 is then this thread's own
// stream, and synchronizing it does not wait for the copy on stream `s`.
#include "pipeline.h"
#include <cuda/std/type_traits>

static_assert(cuda::std::is_same_v<float, float>, "CCCL headers parse");

float sumChunkRacy(const float *device, float *pinned) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(pinned, device, kChunk * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(0);
  float sum = 0;
  for (int i = 0; i < kChunk; ++i)
    sum += pinned[i];
  cudaStreamDestroy(s);
  return sum;
}
