#pragma once
// Mock of <torch/types.h> (torch/csrc/api/include/torch/types.h) plus the
// torch:: factory functions of torch/csrc/autograd/generated/
// variable_factories.h (which wrap the at:: ones, adding autograd).
#include <ATen/ATen.h>

namespace torch {
// `using namespace at;` exposes all of at:: (and, through it, c10::) in
// torch::, so torch::Tensor, torch::kCPU, torch::kFloat, torch::cat,
// torch::TensorOptions are the at::/c10:: entities.  torch:: functions with
// the same name as an at:: one (empty, zeros, ...) hide it for qualified
// lookup torch::f().
using namespace at; // NOLINT

constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;
constexpr auto kU8 = kUInt8;
constexpr auto kI8 = kInt8;
constexpr auto kI16 = kInt16;
constexpr auto kI32 = kInt32;
constexpr auto kI64 = kInt64;
constexpr auto kF16 = kFloat16;
constexpr auto kF32 = kFloat32;
constexpr auto kF64 = kFloat64;

// variable_factories.h (real bodies call at::f(...) under an
// AutoDispatchBelowADInplaceOrView guard and wrap the result with autograd).
inline at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::empty(size, options, memory_format);
}
inline at::Tensor empty_like(const at::Tensor &self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::empty_like(self, options, memory_format);
}
inline at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {}) { return at::zeros(size, options); }
inline at::Tensor zeros_like(const at::Tensor &self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::zeros_like(self, options, memory_format);
}
inline at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {}) { return at::ones(size, options); }
inline at::Tensor ones_like(const at::Tensor &self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::ones_like(self, options, memory_format);
}
inline at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {}) { return at::randn(size, options); }
inline at::Tensor arange(const at::Scalar &end, at::TensorOptions options = {}) { return at::arange(end, options); }
inline at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value, at::TensorOptions options = {}) {
  return at::full(size, fill_value, options);
}
inline at::Tensor from_blob(void *data, at::IntArrayRef sizes, const at::TensorOptions &options = at::TensorOptions()) {
  return at::from_blob(data, sizes, options);
}
} // namespace torch
