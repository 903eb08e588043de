// Stands for CUB's device-wide primitives (cub/device/device_reduce.cuh,
// device_select.cuh): static members of Device* classes, in a versioned
// inline namespace, their bodies in a system header; the parameter names
// are CUB's. A null d_temp_storage asks for the size and does no work.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

namespace cub {
inline namespace CUB_300000_SM_900 {
template <typename T> __global__ void reduceKernel(const T *in, T *out, int n);

struct DeviceReduce {
  template <typename InputIteratorT, typename OutputIteratorT>
  static cudaError_t Sum(void *d_temp_storage, size_t &temp_storage_bytes,
                         InputIteratorT d_in, OutputIteratorT d_out,
                         int num_items, cudaStream_t stream = 0) {
    if (!d_temp_storage) {
      temp_storage_bytes = 256;
      return cudaSuccess;
    }
    reduceKernel<<<1, 256, 0, stream>>>(d_in, d_out, num_items);
    return cudaGetLastError();
  }
};

struct DeviceSelect {
  template <typename InputIteratorT, typename FlagIterator,
            typename OutputIteratorT, typename NumSelectedIteratorT>
  static cudaError_t Flagged(void *d_temp_storage, size_t &temp_storage_bytes,
                             InputIteratorT d_in, FlagIterator d_flags,
                             OutputIteratorT d_out,
                             NumSelectedIteratorT d_num_selected_out,
                             int num_items, cudaStream_t stream = 0);
};
} // namespace CUB_300000_SM_900
} // namespace cub
