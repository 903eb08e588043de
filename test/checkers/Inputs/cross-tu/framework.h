// A framework whose synchronization lives in its .cu file (framework.cu),
// and whose blocking copy is a header-inline asynchronous copy followed by
// that synchronization: from any other translation unit the sync is
// opaque without summaries.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

namespace fw {
cudaStream_t currentStream();
void streamSynchronize(); // cudaStreamSynchronize(currentStream())
void waitFor(cudaStream_t s);
void fetchAsync(float *h, const float *d, size_t n, cudaStream_t s);
void fetchAndWait(float *h, const float *d, size_t n, cudaStream_t s);
void syncThenRead(const float *h, cudaStream_t s);
float readFirst(const float *h);
extern cudaStream_t gStream;
void syncGlobal();
float *fetchNew(const float *d, size_t n, cudaStream_t s);
// cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s): the direction follows
// from the pointers.
void copyAny(float *dst, const float *src, size_t n, cudaStream_t s);
// A pointer-attribute query (cudaPointerGetAttributes): no access of p.
bool isPinned(const void *p);
// A blocking cudaMemcpy or a cudaMemcpyAsync left in flight, chosen by the
// caller's argument; and a copy whose sync the caller's flag decides.
enum class CallBehavior { Sync, Async };
void copyToHost(float *h, const float *d, size_t n, CallBehavior b,
                cudaStream_t s);
void fetchMaybeWait(float *h, const float *d, size_t n, bool wait,
                    cudaStream_t s);

inline void copyToHost(float *h, const float *d, size_t n) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, currentStream());
  streamSynchronize();
}

struct Reader {
  void start(const float *d, size_t n);
  void wait();
  float *h_;
  cudaStream_t s_;
};
} // namespace fw
