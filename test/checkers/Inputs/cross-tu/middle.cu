// A second unit between the user and the framework: its summaries rest on
// framework.cu's (a chain across three translation units).
#include "framework.h"

void middleFetch(float *h, const float *d, size_t n, cudaStream_t s) {
  fw::fetchAsync(h, d, n, s);
}

void middleSync(cudaStream_t s) { fw::waitFor(s); }
