#pragma once
// Mock of <ATen/core/TensorBase.h> + <ATen/core/TensorBody.h> (libtorch
// 1.13.1): at::TensorBase and at::Tensor.  Member signatures (parameter
// names, order, defaults, constness) are the real ones; inline bodies are
// kept only where the real one is inline (cpu(), cuda(), rvalue operator=,
// accessor()).  Everything that dispatches (copy_, to, item, sum, ...) is a
// declaration, as it is out of line in the real header's dispatcher stubs.
#include <ATen/core/TensorAccessor.h>
#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace at {
class Tensor;
namespace indexing {
struct TensorIndex;
} // namespace indexing
using TensorList = c10::ArrayRef<Tensor>;
using Dimname = int64_t;                 // simplified (at::Dimname is a class)
using DimnameList = c10::ArrayRef<Dimname>;

class TORCH_API TensorBase {
 public:
  TensorBase() = default;
  TensorBase(const TensorBase &) = default;
  TensorBase(TensorBase &&) noexcept = default;
  TensorBase &operator=(const TensorBase &x) & = default;
  TensorBase &operator=(TensorBase &&x) & noexcept = default;

  int64_t dim() const;
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  bool defined() const;
  void reset();
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t ndimension() const { return dim(); }
  bool is_contiguous(at::MemoryFormat memory_format = at::MemoryFormat::Contiguous) const;
  size_t nbytes() const;
  int64_t numel() const;
  size_t itemsize() const;
  int64_t element_size() const;
  ScalarType scalar_type() const;
  caffe2::TypeMeta dtype() const;
  Device device() const;
  int64_t get_device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_hip() const;
  bool is_sparse() const;
  Layout layout() const;
  TensorOptions options() const;
  bool requires_grad() const;

  void *data_ptr() const;
  template <typename T>
  T *data_ptr() const;

  void print() const;

  // Return a `TensorAccessor` for CPU `Tensor`s.
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const & {
    static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
    return TensorAccessor<T, N>(data_ptr<T>(), sizes().data(), strides().data());
  }
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;

 protected:
  void *impl_ = nullptr; // stands in for c10::intrusive_ptr<TensorImpl>
};

class TORCH_API Tensor : public TensorBase {
 public:
  Tensor() = default;
  Tensor(const Tensor &tensor) = default;
  Tensor(Tensor &&tensor) = default;
  explicit Tensor(const TensorBase &base) : TensorBase(base) {}
  /*implicit*/ Tensor(TensorBase &&base) : TensorBase(static_cast<TensorBase &&>(base)) {}

  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;

  // Assignment: the lvalue (&) overloads rebind the handle; the rvalue (&&)
  // overloads are what make `t[i] = value` / `t.slice(...) = other` write
  // into the viewed storage (fill_ / copy_), as in the real header.
  Tensor &operator=(const TensorBase &x) & {
    TensorBase::operator=(x);
    return *this;
  }
  Tensor &operator=(TensorBase &&x) & {
    TensorBase::operator=(static_cast<TensorBase &&>(x));
    return *this;
  }
  Tensor &operator=(const Tensor &x) & { return operator=(static_cast<const TensorBase &>(x)); }
  Tensor &operator=(Tensor &&x) & { return operator=(static_cast<TensorBase &&>(x)); }
  Tensor &operator=(Scalar v) && { return fill_(v); }
  Tensor &operator=(const Tensor &rhs) && { return copy_(rhs); }
  Tensor &operator=(Tensor &&rhs) && { return copy_(rhs); }

  template <typename T>
  T item() const; // specializations defined out of line (DEFINE_ITEM)

  Tensor operator~() const;
  Tensor operator-() const;
  Tensor &operator+=(const Tensor &other);
  Tensor &operator+=(Scalar other);
  Tensor &operator-=(const Tensor &other);
  Tensor &operator-=(Scalar other);
  Tensor &operator*=(const Tensor &other);
  Tensor &operator*=(Scalar other);
  Tensor &operator/=(const Tensor &other);
  Tensor &operator/=(Scalar other);
  Tensor operator[](Scalar index) const;
  Tensor operator[](Tensor index) const;
  Tensor operator[](int64_t index) const;

  Tensor index(ArrayRef<at::indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<at::indexing::TensorIndex> indices) const;
  Tensor &index_put_(ArrayRef<at::indexing::TensorIndex> indices, Tensor const &rhs);
  Tensor &index_put_(ArrayRef<at::indexing::TensorIndex> indices, const Scalar &v);
  Tensor &index_put_(std::initializer_list<at::indexing::TensorIndex> indices, Tensor const &rhs);
  Tensor &index_put_(std::initializer_list<at::indexing::TensorIndex> indices, const Scalar &v);

  Tensor cpu() const {
    return to(options().device(DeviceType::CPU), /*non_blocking*/ false, /*copy*/ false);
  }
  // TODO: The Python version also accepts arguments
  Tensor cuda() const {
    return to(options().device(DeviceType::CUDA), /*non_blocking*/ false, /*copy*/ false);
  }
  Tensor hip() const {
    return to(options().device(DeviceType::HIP), /*non_blocking*/ false, /*copy*/ false);
  }

  // ---- Generated methods (TensorBody.h "aten::" section) -------------------
  at::Tensor abs() const;
  at::Tensor add(const at::Tensor &other, const at::Scalar &alpha = 1) const;
  at::Tensor &add_(const at::Tensor &other, const at::Scalar &alpha = 1) const;
  at::Tensor &copy_(const at::Tensor &src, bool non_blocking = false) const;
  at::Tensor clone(c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor detach() const;
  at::Tensor &fill_(const at::Scalar &value) const;
  at::Tensor &zero_() const;
  at::Tensor &mul_(const at::Tensor &other) const;
  at::Tensor &mul_(const at::Scalar &other) const;
  bool is_pinned(c10::optional<at::Device> device = c10::nullopt) const;
  at::Tensor pin_memory(c10::optional<at::Device> device = c10::nullopt) const;
  at::Tensor reshape(at::IntArrayRef shape) const;
  at::Tensor view(at::IntArrayRef size) const;
  at::Tensor select(int64_t dim, int64_t index) const;
  at::Tensor slice(int64_t dim = 0, c10::optional<int64_t> start = c10::nullopt, c10::optional<int64_t> end = c10::nullopt, int64_t step = 1) const;
  at::Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  ::std::vector<at::Tensor> unbind(int64_t dim = 0) const;
  ::std::vector<at::Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  ::std::vector<at::Tensor> split(int64_t split_size, int64_t dim = 0) const;
  at::Tensor sum(c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor sum(at::OptionalIntArrayRef dim, bool keepdim = false, c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor mean(c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor max() const;
  at::Tensor t() const;
  at::Tensor matmul(const at::Tensor &other) const;
  at::Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  at::Tensor to(at::TensorOptions options = {}, bool non_blocking = false, bool copy = false, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor to(c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, bool non_blocking, bool copy, c10::optional<at::MemoryFormat> memory_format) const;
  at::Tensor to(at::Device device, at::ScalarType dtype, bool non_blocking = false, bool copy = false, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor to(at::ScalarType dtype, bool non_blocking = false, bool copy = false, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor to(const at::Tensor &other, bool non_blocking = false, bool copy = false, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Scalar item() const;

  // (TensorBody.h, hand-written at the end of the class)
  inline Tensor to(caffe2::TypeMeta type_meta, bool non_blocking = false, bool copy = false) const {
    return to(/*scalar_type=*/type_meta.toScalarType(), non_blocking, copy);
  }
  inline Tensor to(Device device, caffe2::TypeMeta type_meta, bool non_blocking = false, bool copy = false) const {
    return to(device, /*scalar_type=*/type_meta.toScalarType(), non_blocking, copy);
  }
};

// Binary operators (ATen/core/TensorBody.h bottom / ATen/TensorOperators.h).
Tensor operator+(const Tensor &x, const Tensor &y);
Tensor operator+(const Tensor &x, const Scalar &y);
Tensor operator+(const Scalar &x, const Tensor &y);
Tensor operator-(const Tensor &x, const Tensor &y);
Tensor operator-(const Tensor &x, const Scalar &y);
Tensor operator*(const Tensor &x, const Tensor &y);
Tensor operator*(const Tensor &x, const Scalar &y);
Tensor operator*(const Scalar &x, const Tensor &y);
Tensor operator/(const Tensor &x, const Tensor &y);
Tensor operator/(const Tensor &x, const Scalar &y);
Tensor operator==(const Tensor &x, const Tensor &y);
Tensor operator==(const Tensor &x, const Scalar &y);
} // namespace at
