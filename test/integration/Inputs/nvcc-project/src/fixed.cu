// The same loop, synchronized on the stream that carries the copy.
#include "pipeline.h"

float sumChunkFixed(const float *device, float *pinned) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(pinned, device, kChunk * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  float sum = 0;
  for (int i = 0; i < kChunk; ++i)
    sum += pinned[i];
  cudaStreamDestroy(s);
  return sum;
}
