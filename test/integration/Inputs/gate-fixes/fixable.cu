// Input of gate-fixes.test: one finding the check can fix (its fix-it
// inserts the copy stream's synchronization before the access) and one it
// cannot. Größe: the non-ASCII letters above the fix make its character
// offset differ from its byte offset.
#include <cuda_runtime.h>

void consume(float);

void fixable(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
}

// No fix: the stream variable names another stream by the access.
void unfixable(float *h, const float *d, cudaStream_t s, cudaStream_t t) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  s = t;
  consume(h[0]);
  cudaDeviceSynchronize();
}
