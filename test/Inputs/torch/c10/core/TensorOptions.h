#pragma once
// Mock of <c10/core/TensorOptions.h>.
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>
#include <type_traits>
#include <utility>

namespace c10 {
struct C10_API TensorOptions {
  TensorOptions()
      : requires_grad_(false), pinned_memory_(false), has_device_(false), has_dtype_(false),
        has_layout_(false), has_requires_grad_(false), has_pinned_memory_(false), has_memory_format_(false) {}

  /* implicit */ TensorOptions(Layout layout) : TensorOptions() { this->set_layout(layout); }

  template <typename T, typename = std::enable_if_t<std::is_same<std::decay_t<T>, Device>::value>>
  /* implicit */ TensorOptions(T &&device) : TensorOptions() {
    this->set_device(std::forward<T>(device));
  }

  template <typename... Args,
            typename = std::enable_if_t<std::is_constructible<Device, Args &&...>::value>>
  /* implicit */ TensorOptions(Args &&...args) : TensorOptions(Device(std::forward<Args>(args)...)) {}

  /* implicit */ TensorOptions(caffe2::TypeMeta dtype) : TensorOptions() { this->set_dtype(dtype); }
  /* implicit */ TensorOptions(ScalarType dtype) : TensorOptions() { this->set_dtype(dtype); }
  /* implicit */ TensorOptions(MemoryFormat memory_format) : TensorOptions() { set_memory_format(memory_format); }

  C10_NODISCARD TensorOptions device(c10::optional<Device> device) const noexcept {
    TensorOptions r = *this;
    r.set_device(device);
    return r;
  }
  template <typename... Args>
  C10_NODISCARD TensorOptions device(Args &&...args) const noexcept {
    return device(c10::optional<Device>(c10::in_place, std::forward<Args>(args)...));
  }
  C10_NODISCARD TensorOptions device_index(c10::DeviceIndex device_index) const noexcept {
    return device(Device::Type::CUDA, device_index);
  }
  C10_NODISCARD TensorOptions dtype(c10::optional<caffe2::TypeMeta> dtype) const noexcept {
    TensorOptions r = *this;
    r.set_dtype(dtype);
    return r;
  }
  C10_NODISCARD TensorOptions dtype(c10::optional<ScalarType> dtype) const noexcept {
    TensorOptions r = *this;
    r.set_dtype(dtype);
    return r;
  }
  template <typename T>
  TensorOptions &dtype();
  C10_NODISCARD TensorOptions layout(c10::optional<Layout> layout) const noexcept {
    TensorOptions r = *this;
    r.set_layout(layout);
    return r;
  }
  C10_NODISCARD TensorOptions requires_grad(c10::optional<bool> requires_grad) const noexcept {
    TensorOptions r = *this;
    r.set_requires_grad(requires_grad);
    return r;
  }
  C10_NODISCARD TensorOptions pinned_memory(c10::optional<bool> pinned_memory) const noexcept {
    TensorOptions r = *this;
    r.set_pinned_memory(pinned_memory);
    return r;
  }
  C10_NODISCARD TensorOptions memory_format(c10::optional<MemoryFormat> memory_format) const noexcept {
    TensorOptions r = *this;
    r.set_memory_format(memory_format);
    return r;
  }

  Device device() const noexcept { return device_; }
  bool has_device() const noexcept { return has_device_; }
  bool pinned_memory() const noexcept { return has_pinned_memory_ && pinned_memory_; }
  bool has_pinned_memory() const noexcept { return has_pinned_memory_; }
  bool requires_grad() const noexcept { return has_requires_grad_ && requires_grad_; }
  bool has_dtype() const noexcept { return has_dtype_; }
  bool has_layout() const noexcept { return has_layout_; }
  Layout layout() const noexcept { return layout_; }

 private:
  void set_device(c10::optional<Device> device) & noexcept {
    if (device) { device_ = *device; has_device_ = true; } else { has_device_ = false; }
  }
  void set_dtype(c10::optional<caffe2::TypeMeta> dtype) & noexcept { has_dtype_ = static_cast<bool>(dtype); }
  void set_dtype(c10::optional<ScalarType> dtype) & noexcept {
    if (dtype) { scalar_type_ = *dtype; has_dtype_ = true; } else { has_dtype_ = false; }
  }
  void set_layout(c10::optional<Layout> layout) & noexcept {
    if (layout) { layout_ = *layout; has_layout_ = true; } else { has_layout_ = false; }
  }
  void set_requires_grad(c10::optional<bool> requires_grad) & noexcept {
    if (requires_grad) { requires_grad_ = *requires_grad; has_requires_grad_ = true; } else { has_requires_grad_ = false; }
  }
  void set_pinned_memory(c10::optional<bool> pinned_memory) & noexcept {
    if (pinned_memory) { pinned_memory_ = *pinned_memory; has_pinned_memory_ = true; } else { has_pinned_memory_ = false; }
  }
  void set_memory_format(c10::optional<MemoryFormat> memory_format) & noexcept {
    if (memory_format) { memory_format_ = *memory_format; has_memory_format_ = true; } else { has_memory_format_ = false; }
  }

  Device device_ = kCPU;
  ScalarType scalar_type_ = ScalarType::Float;
  Layout layout_ = kStrided;
  MemoryFormat memory_format_ = MemoryFormat::Contiguous;
  bool requires_grad_ : 1;
  bool pinned_memory_ : 1;
  bool has_device_ : 1;
  bool has_dtype_ : 1;
  bool has_layout_ : 1;
  bool has_requires_grad_ : 1;
  bool has_pinned_memory_ : 1;
  bool has_memory_format_ : 1;
};

// Free-function builders (TensorOptions.h): torch::dtype(kFloat).device(kCUDA)
inline TensorOptions dtype(caffe2::TypeMeta dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions layout(Layout layout) { return TensorOptions().layout(layout); }
inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions device_index(int16_t device_index) {
  return TensorOptions().device_index(static_cast<c10::DeviceIndex>(device_index));
}
inline TensorOptions requires_grad(bool requires_grad = true) { return TensorOptions().requires_grad(requires_grad); }
inline TensorOptions memory_format(MemoryFormat memory_format) { return TensorOptions().memory_format(memory_format); }
} // namespace c10
