#pragma once
// Mock of <ATen/TensorIndexing.h>: at::indexing::{Slice, None, Ellipsis,
// TensorIndex} for tensor.index({...}) / tensor.index_put_({...}, v).
#include <ATen/core/TensorBody.h>
#include <c10/util/ArrayRef.h>

namespace at {
namespace indexing {
constexpr int64_t INDEX_MAX = INT64_MAX;
constexpr int64_t INDEX_MIN = INT64_MIN;

enum class TensorIndexType { None, Ellipsis, Integer, Boolean, Slice, Tensor };
constexpr c10::nullopt_t None = c10::nullopt;
struct EllipsisIndexType final {
  EllipsisIndexType() = default;
};
constexpr EllipsisIndexType Ellipsis = EllipsisIndexType();

struct TORCH_API Slice final {
 public:
  Slice(c10::optional<int64_t> start_index = c10::nullopt, c10::optional<int64_t> stop_index = c10::nullopt,
        c10::optional<int64_t> step_index = c10::nullopt);
  int64_t start() const;
  int64_t stop() const;
  int64_t step() const;

 private:
  int64_t start_, stop_, step_;
};

struct TORCH_API TensorIndex final {
  TensorIndex(c10::nullopt_t) : type_(TensorIndexType::None) {}
  TensorIndex(at::indexing::EllipsisIndexType) : type_(TensorIndexType::Ellipsis) {}
  TensorIndex(const char *str);
  TensorIndex(int64_t integer) : integer_(integer), type_(TensorIndexType::Integer) {}
  TensorIndex(int integer) : TensorIndex((int64_t)integer) {}
  template <class T, class = typename std::enable_if<std::is_same<bool, T>::value>::type>
  TensorIndex(T boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}
  TensorIndex(Slice slice) : slice_(std::move(slice)), type_(TensorIndexType::Slice) {}
  TensorIndex(Tensor tensor) : tensor_(std::move(tensor)), type_(TensorIndexType::Tensor) {}

 private:
  int64_t integer_ = 0;
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
  TensorIndexType type_;
};
} // namespace indexing
} // namespace at
