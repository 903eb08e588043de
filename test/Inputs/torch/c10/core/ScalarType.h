#pragma once
// Mock of <c10/core/ScalarType.h>, <c10/core/Layout.h>,
// <c10/core/MemoryFormat.h>.
#include <c10/macros/Macros.h>
#include <cstdint>

namespace c10 {
// Real values (the order of AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS).
enum class ScalarType : int8_t {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  Undefined,
  NumOptions
};

// DEFINE_CONSTANT(_, name): constexpr ScalarType k##name = ScalarType::name;
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

enum class Layout : int8_t { Strided, Sparse, SparseCsr, Mkldnn, SparseCsc, SparseBsr, SparseBsc, NumOptions };
constexpr auto kStrided = Layout::Strided;
constexpr auto kSparse = Layout::Sparse;

enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d, NumOptions };

// c10::BFloat16 / c10::Half (c10/util/BFloat16.h, Half.h), value-only stand-ins.
struct alignas(2) BFloat16 {
  uint16_t x;
  BFloat16() = default;
  /* implicit */ BFloat16(float value);
  operator float() const;
};
struct alignas(2) Half {
  unsigned short x;
  Half() = default;
  /* implicit */ Half(float value);
  operator float() const;
};
} // namespace c10

namespace caffe2 {
// caffe2::TypeMeta (c10/util/typeid.h), opaque.
class TypeMeta {
 public:
  template <typename T>
  static TypeMeta Make();
  c10::ScalarType toScalarType() const;
};
} // namespace caffe2
