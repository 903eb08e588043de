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

//===--- The producer diagnostic: blocking copies on the per-thread stream ===//

__global__ void fill(float *d);

// A blocking copy runs on this thread's stream, which waits for no created
// stream (blocking or not) and for a handed one only if it is a default
// stream.
void handedStreamThenBlockingCopy(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // PTDS: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the per-thread default stream may read it before the work that writes it on stream 's' has finished
  // PTDS: :[[@LINE-3]]:3: note: 'd' is written on stream 's' here
  // PTDS: :[[@LINE-3]]:3: note: nothing makes
  // PTDS: :[[@LINE-4]]:3: note: stream 's' is not created in this function: not a race if it is the legacy or the per-thread default stream
  // LEGACY: :[[@LINE-5]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // LEGACY: :[[@LINE-7]]:3: note: 'd' is written on stream 's' here
  // LEGACY: :[[@LINE-7]]:3: note: nothing makes
  // LEGACY: :[[@LINE-8]]:3: note: stream 's' is not created in this function: not a race if it is the legacy default stream or a blocking one
}

// rmm's stream pool creates blocking streams (cuda_stream_pool's flags
// default to sync_default): the legacy default stream waits for them, the
// per-thread default stream does not (raft builds in per-thread mode).
namespace rmm {
class cuda_stream_view {
public:
  cuda_stream_view(cudaStream_t stream) noexcept;
  operator cudaStream_t() const noexcept;
};
class cuda_stream_pool {
public:
  cuda_stream_view get_stream() const noexcept;
};
template <typename T> class device_uvector {
public:
  device_uvector(unsigned long n, cuda_stream_view s);
  T *data() noexcept { return data_; }

private:
  T *data_;
};
} // namespace rmm

void poolStreamThenBlockingCopy(rmm::cuda_stream_pool &pool, float *h, float *d) {
  rmm::cuda_stream_view s = pool.get_stream();
  fill<<<1, 64, 0, s>>>(d);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // PTDS: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the per-thread default stream may read it before the work that writes it on stream 's' has finished
  // PTDS: :[[@LINE-3]]:3: note: 'd' is written on stream 's' here
  // PTDS: :[[@LINE-3]]:3: note: nothing makes
}

void poolStreamSynchronized(rmm::cuda_stream_pool &pool, float *h, float *d) {
  rmm::cuda_stream_view s = pool.get_stream();
  fill<<<1, 64, 0, s>>>(d);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

// raft's Copy2DAsync test before 4e218c5964: raft::copy_matrix copies with
// cudaMemcpyDefault into a device_uvector on a pool stream; the blocking
// copy that reads it back runs on the per-thread default stream. A
// container's data() names the whole container.
template <typename T>
void copy_matrix(T *dst, unsigned long dpitch, const T *src,
                 unsigned long spitch, unsigned long width,
                 unsigned long height, rmm::cuda_stream_view stream) {
  cudaMemcpy2DAsync(dst, dpitch * sizeof(T), src, spitch * sizeof(T),
                    width * sizeof(T), height, cudaMemcpyDefault, stream);
}

void copyMatrixThenBlockingCopy(rmm::cuda_stream_pool &pool, float *h) {
  auto stream = pool.get_stream();
  rmm::device_uvector<float> d_src(256, stream);
  rmm::device_uvector<float> d_dst(256, stream);
  copy_matrix(d_dst.data(), 8, d_src.data(), 8, 5, 4, stream);
  cudaMemcpy(h, d_dst.data(), 128, cudaMemcpyDeviceToHost);
  // PTDS: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd_dst' on the per-thread default stream may read it before the work that writes it on stream 'stream' has finished
  // PTDS: :[[@LINE-3]]:3: note: 'd_dst' is written on stream 'stream' here
}

void copyMatrixSynchronized(rmm::cuda_stream_pool &pool, float *h) {
  auto stream = pool.get_stream();
  rmm::device_uvector<float> d_src(256, stream);
  rmm::device_uvector<float> d_dst(256, stream);
  copy_matrix(d_dst.data(), 8, d_src.data(), 8, 5, 4, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(h, d_dst.data(), 128, cudaMemcpyDeviceToHost);
}
