// One of three translation units including download.cuh.
#include "download.cuh"

float one(float *pinned, const float *d, cudaStream_t s) {
  return downloadFirst(pinned, d, s);
}
