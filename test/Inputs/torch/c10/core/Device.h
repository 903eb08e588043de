#pragma once
// Mock of <c10/core/DeviceType.h> and <c10/core/Device.h>.
#include <c10/macros/Macros.h>
#include <cstdint>
#include <ostream>
#include <string>

namespace c10 {
enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  ORT = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  MTIA = 19,
  PrivateUse1 = 20,
};

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kXPU = DeviceType::XPU;

using DeviceIndex = int8_t;

struct C10_API Device final {
  using Type = DeviceType;

  /* implicit */ Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {}
  /* implicit */ Device(const std::string &device_string);

  bool operator==(const Device &other) const noexcept { return type_ == other.type_ && index_ == other.index_; }
  bool operator!=(const Device &other) const noexcept { return !(*this == other); }
  void set_index(DeviceIndex index) { index_ = index; }
  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_hip() const noexcept { return type_ == DeviceType::HIP; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  std::string str() const;

 private:
  DeviceType type_;
  DeviceIndex index_ = -1;
};

C10_API std::ostream &operator<<(std::ostream &stream, const Device &device);
C10_API std::ostream &operator<<(std::ostream &stream, DeviceType type);
} // namespace c10

namespace torch {
using c10::DeviceType;
} // namespace torch
