#pragma once
// Mock of <ATen/Functions.h> (ATen/ops/*.h): at:: factory and free
// functions, real signatures (1.13.1).
#include <ATen/core/TensorBody.h>
#include <c10/util/ArrayRef.h>
#include <functional>
#include <vector>

namespace at {
// at::ITensorListRef (ATen/core/IListRef.h), simplified: what
// `at::cat({a, b})` / `at::cat(vec)` accept.
class ITensorListRef {
 public:
  ITensorListRef() = default;
  ITensorListRef(at::ArrayRef<Tensor> ref) : ref_(ref) {}
  ITensorListRef(const std::vector<Tensor> &vec) : ref_(vec) {}
  ITensorListRef(std::initializer_list<Tensor> list) : ref_(list) {}
  size_t size() const { return ref_.size(); }

 private:
  at::ArrayRef<Tensor> ref_;
};

TORCH_API at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
TORCH_API at::Tensor empty(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor empty_like(const at::Tensor &self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
TORCH_API at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor zeros_like(const at::Tensor &self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
TORCH_API at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor ones_like(const at::Tensor &self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
TORCH_API at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor arange(const at::Scalar &end, at::TensorOptions options = {});
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value, at::TensorOptions options = {});
TORCH_API at::Tensor cat(const at::ITensorListRef &tensors, int64_t dim = 0);
TORCH_API at::Tensor stack(at::TensorList tensors, int64_t dim = 0);
TORCH_API at::Tensor matmul(const at::Tensor &self, const at::Tensor &other);
TORCH_API bool allclose(const at::Tensor &self, const at::Tensor &other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false);

// ATen/ops/from_blob.h (no deleter / with deleter).
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes, const TensorOptions &options = {});
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes, const std::function<void(void *)> &deleter, const TensorOptions &options = {});
} // namespace at
