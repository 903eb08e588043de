#pragma once
// Mock of <c10/cuda/CUDAFunctions.h> (libtorch 1.13.1).  stream_synchronize
// and memcpy_and_sync are inline in the real header and are kept with the
// same CUDA calls (minus the sync-debug / GPU-trace hooks).
#include <c10/core/Device.h>
#include <c10/cuda/CUDAException.h>
#include <c10/macros/Macros.h>
#include <cuda_runtime_api.h>
#include <cstdint>

namespace c10 {
namespace cuda {
C10_CUDA_API DeviceIndex device_count() noexcept;
C10_CUDA_API DeviceIndex device_count_ensure_non_zero();
C10_CUDA_API DeviceIndex current_device();
C10_CUDA_API void set_device(DeviceIndex device);
C10_CUDA_API void device_synchronize();
C10_CUDA_API void warn_or_error_on_sync();

C10_CUDA_API void __inline__ memcpy_and_sync(void *dst, void *src, int64_t nbytes, cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  C10_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, kind, stream));
  C10_CUDA_CHECK(cudaStreamSynchronize(stream));
}

C10_CUDA_API void __inline__ stream_synchronize(cudaStream_t stream) {
  C10_CUDA_CHECK(cudaStreamSynchronize(stream));
}
} // namespace cuda
} // namespace c10
