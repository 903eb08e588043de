// A RAPIDS-style header-only library (raft's util/cudart_utils.hpp, rmm's
// containers), included by its users as a system header (-isystem, as
// CMake hands an imported target's include directories) or with -I.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

namespace mylib {

/// rmm::cuda_stream_view's shape: names one stream.
class stream_view {
public:
  stream_view(cudaStream_t s) : s_(s) {}
  operator cudaStream_t() const { return s_; }
  cudaStream_t value() const { return s_; }
  void synchronize() const { cudaStreamSynchronize(s_); }

private:
  cudaStream_t s_;
};

namespace detail {
template <typename T>
void copy(T *dst, const T *src, size_t len, cudaStream_t stream) {
  cudaMemcpyAsync(dst, src, len * sizeof(T), cudaMemcpyDefault, stream);
}
} // namespace detail

/// raft::copy: the direction follows from the pointers.
template <typename T>
void copy(T *dst, const T *src, size_t len, stream_view stream) {
  detail::copy(dst, src, len, stream.value());
}

/// raft::update_host: a copy to the host left in flight.
template <typename T>
void update_host(T *h_ptr, const T *d_ptr, size_t len, stream_view stream) {
  copy(h_ptr, d_ptr, len, stream);
}

/// A blocking fetch: copies, then waits.
template <typename T>
void fetch_and_wait(T *h_ptr, const T *d_ptr, size_t len, stream_view stream) {
  update_host(h_ptr, d_ptr, len, stream);
  stream.synchronize();
}

inline void sync_stream(cudaStream_t s) { cudaStreamSynchronize(s); }

/// rmm::device_uvector's element access: a copy into a local, then a sync.
template <typename T> class device_vector {
public:
  T element(size_t i, stream_view stream) const {
    T v;
    cudaMemcpyAsync(&v, data_ + i, sizeof(T), cudaMemcpyDefault,
                    stream.value());
    stream.synchronize();
    return v;
  }
  const T *data() const { return data_; }

private:
  T *data_ = nullptr;
};

/// Compiled into the library, not visible here.
void copy_compiled(float *h, const float *d, size_t n, cudaStream_t s);

} // namespace mylib
