#pragma once
// Mock of <c10/cuda/CUDAGuard.h>: RAII device / current-stream guards.
// Constructors and destructors are inline in the real header (through
// c10::impl::InlineDeviceGuard / InlineStreamGuard); here they are declared.
#include <c10/core/Device.h>
#include <c10/core/Stream.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/util/ArrayRef.h>
#include <cstddef>

namespace c10 {
namespace cuda {
struct CUDAGuard {
  explicit CUDAGuard() = delete;
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  CUDAGuard(const CUDAGuard &) = delete;
  CUDAGuard &operator=(const CUDAGuard &) = delete;
  CUDAGuard(CUDAGuard &&other) = delete;
  CUDAGuard &operator=(CUDAGuard &&other) = delete;
  ~CUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  Device original_device() const;
  Device current_device() const;
};

struct OptionalCUDAGuard {
  explicit OptionalCUDAGuard();
  explicit OptionalCUDAGuard(optional<Device> device_opt);
  explicit OptionalCUDAGuard(optional<DeviceIndex> device_index_opt);
  OptionalCUDAGuard(const OptionalCUDAGuard &) = delete;
  ~OptionalCUDAGuard();
  void set_device(Device device);
  void set_index(DeviceIndex device_index);
  void reset();
};

struct CUDAStreamGuard {
  explicit CUDAStreamGuard() = delete;
  /// Set the current CUDA device to the device associated with the passed
  /// stream, and set the current CUDA stream on that device to the passed
  /// stream.
  explicit CUDAStreamGuard(Stream stream);
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  CUDAStreamGuard &operator=(const CUDAStreamGuard &) = delete;
  CUDAStreamGuard(CUDAStreamGuard &&other) = delete;
  CUDAStreamGuard &operator=(CUDAStreamGuard &&other) = delete;
  ~CUDAStreamGuard();
  void reset_stream(Stream stream);
  CUDAStream original_stream() const;
  CUDAStream current_stream() const;
  Device current_device() const;
  Device original_device() const;
};

struct OptionalCUDAStreamGuard {
  explicit OptionalCUDAStreamGuard();
  explicit OptionalCUDAStreamGuard(Stream stream);
  explicit OptionalCUDAStreamGuard(optional<Stream> stream_opt);
  OptionalCUDAStreamGuard(const OptionalCUDAStreamGuard &) = delete;
  ~OptionalCUDAStreamGuard();
  void reset_stream(Stream stream);
  optional<CUDAStream> original_stream() const;
  optional<CUDAStream> current_stream() const;
  void reset();
};

struct CUDAMultiStreamGuard {
  explicit CUDAMultiStreamGuard(ArrayRef<CUDAStream> streams);
  CUDAMultiStreamGuard(const CUDAMultiStreamGuard &) = delete;
  ~CUDAMultiStreamGuard();
};
} // namespace cuda
} // namespace c10
