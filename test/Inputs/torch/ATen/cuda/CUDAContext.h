#pragma once
// Mock of <ATen/cuda/CUDAContext.h> (subset).  at::cuda::getCurrentCUDAStream,
// at::cuda::device_synchronize etc. are the c10::cuda functions, reached
// through `namespace at { namespace cuda { using namespace c10::cuda; } }`
// (c10/macros/Macros.h).
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

struct cudaDeviceProp; // real: driver_types.h (not in the runtime mock)

namespace at {
namespace cuda {
TORCH_CUDA_CPP_API bool is_available();
TORCH_CUDA_CPP_API int64_t getNumGPUs();
TORCH_CUDA_CPP_API cudaDeviceProp *getCurrentDeviceProperties();
TORCH_CUDA_CPP_API int warp_size();
} // namespace cuda
} // namespace at
