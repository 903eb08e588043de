// The framework's definitions: exported as summaries by cross-tu.cu's RUN
// lines, then applied where user code calls them.
#include "framework.h"

namespace fw {
cudaStream_t gStream;
static cudaStream_t current;

cudaStream_t currentStream() { return current; }

void streamSynchronize() { cudaStreamSynchronize(currentStream()); }

void waitFor(cudaStream_t s) { cudaStreamSynchronize(s); }

void fetchAsync(float *h, const float *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
}

void fetchAndWait(float *h, const float *d, size_t n, cudaStream_t s) {
  fetchAsync(h, d, n, s);
  waitFor(s);
}

void syncThenRead(const float *h, cudaStream_t s) {
  cudaStreamSynchronize(s);
  (void)h[0];
}

float readFirst(const float *h) { return h[0]; }

void syncGlobal() { cudaStreamSynchronize(gStream); }

float *fetchNew(const float *d, size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  return h;
}

void Reader::start(const float *d, size_t n) {
  cudaMemcpyAsync(h_, d, n, cudaMemcpyDeviceToHost, s_);
}

void Reader::wait() { cudaStreamSynchronize(s_); }

void copyAny(float *dst, const float *src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s);
}

void copyToHost(float *h, const float *d, size_t n, CallBehavior b,
                cudaStream_t s) {
  if (b == CallBehavior::Sync)
    cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
  else
    cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
}

void fetchMaybeWait(float *h, const float *d, size_t n, bool wait,
                    cudaStream_t s) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  if (wait)
    cudaStreamSynchronize(s);
}

bool isPinned(const void *p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess)
    return false;
  return a.type == cudaMemoryTypeHost;
}
} // namespace fw
