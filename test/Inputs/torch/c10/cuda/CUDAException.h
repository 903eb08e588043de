#pragma once
// Mock of <c10/cuda/CUDAException.h>.
#include <c10/macros/Macros.h>
#include <cuda_runtime_api.h>
#include <cstdint>
#include <string>

namespace c10 {
namespace cuda {
C10_CUDA_API void c10_cuda_check_implementation(const std::string &filename, const std::string &function_name,
                                                const int line_number, const bool include_device_assertions);
} // namespace cuda
} // namespace c10

#define C10_CUDA_CHECK(EXPR)                                                                        \
  do {                                                                                              \
    const cudaError_t __err = EXPR;                                                                 \
    if (C10_UNLIKELY(__err != cudaSuccess)) {                                                       \
      c10::cuda::c10_cuda_check_implementation(__FILE__, __func__, static_cast<uint32_t>(__LINE__), \
                                               true);                                               \
    }                                                                                               \
  } while (0)

#define C10_CUDA_CHECK_WARN(EXPR) \
  do {                            \
    const cudaError_t __err = EXPR; \
    (void)__err;                  \
  } while (0)

#define C10_CUDA_ERROR_HANDLED(EXPR) EXPR
#define C10_CUDA_IGNORE_ERROR(EXPR) \
  do {                              \
    const cudaError_t __err = EXPR; \
    if (C10_UNLIKELY(__err != cudaSuccess)) { (void)cudaGetLastError(); } \
  } while (0)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
