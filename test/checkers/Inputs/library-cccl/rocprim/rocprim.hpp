// Stands for rocPRIM's device-level algorithms (rocprim/device/*.hpp): free
// functions of namespace rocprim, outputs named *_output, the stream last.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

namespace rocprim {
template <class InputIterator, class UniqueOutputIterator,
          class CountsOutputIterator, class RunsCountOutputIterator>
cudaError_t run_length_encode(void *temporary_storage, size_t &storage_size,
                              InputIterator input, unsigned int size,
                              UniqueOutputIterator unique_output,
                              CountsOutputIterator counts_output,
                              RunsCountOutputIterator runs_count_output,
                              cudaStream_t stream = 0,
                              bool debug_synchronous = false);
} // namespace rocprim
