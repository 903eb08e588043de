#pragma once
// Mock of <c10/macros/Macros.h> (libtorch 1.13): export macros and the
// namespace re-routing the real header performs.
#define C10_API
#define TORCH_API
#define C10_CUDA_API
#define TORCH_CUDA_CPP_API
#define C10_NODISCARD [[nodiscard]]
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_DEPRECATED_MESSAGE(msg) [[deprecated(msg)]]

namespace c10 {
namespace cuda {}
} // namespace c10

// As in the real header: everything in c10 is visible from at:: (and
// caffe2::), and c10::cuda from at::cuda.
namespace caffe2 {
using namespace c10;
}
namespace at {
using namespace c10;
}
namespace at {
namespace cuda {
using namespace c10::cuda;
}
} // namespace at
