// Per-thread default-stream mode (nvcc --default-stream per-thread, or
// CUDA_API_PER_THREAD_DEFAULT_STREAM before the CUDA headers): stream 0 is
// the calling thread's own stream, which does not synchronize with other
// streams; cudaStreamLegacy still names the legacy default stream. The
// runtime header renames the API (cudaMemcpyAsync_ptsz, cudaMemcpy_ptds).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -DCUDA_API_PER_THREAD_DEFAULT_STREAM \
// RUN:   | FileCheck %s --check-prefix=PTDS --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefix=LEGACY --implicit-check-not='warning:'

#include <cuda_runtime.h>

void consume(float);

void syncStreamZero(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(0);
  consume(h[0]);
  // PTDS: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // PTDS: :[[@LINE-4]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // PTDS: :[[@LINE-4]]:3: note: with per-thread default streams, stream '0' is this thread's own stream and does not wait for stream 's'
}

void syncLegacyHandle(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(cudaStreamLegacy);
  consume(h[0]);
}

void blockingMemcpy(float *h, float *h2, const float *d, const float *d2) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaMemcpy(h2, d2, 64, cudaMemcpyDeviceToHost);
  consume(h[0]);
  // PTDS: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void copyOnStreamZeroSyncPerThread(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(cudaStreamPerThread);
  consume(h[0]);
  // LEGACY: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // LEGACY: :[[@LINE-4]]:3: note: asynchronous device-to-host copy into 'h' on the legacy default stream is issued here
  // LEGACY: :[[@LINE-4]]:3: note: this synchronizes stream 'cudaStreamPerThread', not the legacy default stream, the copy's stream
}

void copyOnStreamZeroNoSync(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, 0);
  consume(h[0]);
  // PTDS: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // PTDS: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on the per-thread default stream is issued here
  // LEGACY: :[[@LINE-3]]:11: warning: 'h' is read before the asynchronous
  // LEGACY: :[[@LINE-5]]:3: note: asynchronous device-to-host copy into 'h' on the legacy default stream is issued here
}
