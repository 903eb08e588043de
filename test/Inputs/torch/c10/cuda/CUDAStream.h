#pragma once
// Mock of <c10/cuda/CUDAStream.h> (libtorch 1.13.1): c10::cuda::CUDAStream.
// query()/synchronize() are inline in the real header and call
// cudaStreamQuery / c10::cuda::stream_synchronize (-> cudaStreamSynchronize)
// on stream(); stream() itself is out of line.
#include <cstdint>
#include <ostream>
#include <tuple>
#include <utility>

#include <cuda_runtime_api.h>

#include <c10/core/Device.h>
#include <c10/core/Stream.h>
#include <c10/cuda/CUDAFunctions.h>

namespace c10 {
namespace cuda {
class C10_CUDA_API CUDAStream {
 public:
  enum Unchecked { UNCHECKED };

  explicit CUDAStream(Stream stream) : stream_(stream) {}
  explicit CUDAStream(Unchecked, Stream stream) : stream_(stream) {}

  bool operator==(const CUDAStream &other) const noexcept { return unwrap() == other.unwrap(); }
  bool operator!=(const CUDAStream &other) const noexcept { return unwrap() != other.unwrap(); }

  /// Implicit conversion to cudaStream_t.
  operator cudaStream_t() const { return stream(); }
  /// Implicit conversion to Stream (a.k.a., forget that the stream is a CUDA stream).
  operator Stream() const { return unwrap(); }

  DeviceIndex device_index() const { return stream_.device_index(); }
  Device device() const { return Device(DeviceType::CUDA, device_index()); }
  StreamId id() const { return stream_.id(); }

  bool query() const {
    cudaError_t err = C10_CUDA_ERROR_HANDLED(cudaStreamQuery(stream()));
    if (err == cudaSuccess) {
      return true;
    } else if (err != cudaErrorNotReady) {
      C10_CUDA_CHECK(err);
    } else {
      (void)cudaGetLastError();
    }
    return false;
  }

  void synchronize() const { c10::cuda::stream_synchronize(stream()); }

  int priority() const;

  /// Explicit conversion to cudaStream_t.
  cudaStream_t stream() const;

  /// Explicit conversion to Stream.
  Stream unwrap() const { return stream_; }

  static std::tuple<int, int> priority_range();

 private:
  Stream stream_;
};

TORCH_API CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex device = -1);
TORCH_API CUDAStream getStreamFromExternal(cudaStream_t ext_stream, DeviceIndex device_index);
TORCH_API CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
TORCH_API CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
TORCH_API void setCurrentCUDAStream(CUDAStream stream);

C10_API std::ostream &operator<<(std::ostream &stream, const CUDAStream &s);
} // namespace cuda
} // namespace c10
