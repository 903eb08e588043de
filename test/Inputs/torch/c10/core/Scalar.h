#pragma once
// Mock of <c10/core/Scalar.h>.
#include <c10/core/ScalarType.h>
#include <cstdint>

namespace c10 {
class C10_API Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double vv) : tag(Tag::HAS_d) { v.d = vv; }
  Scalar(float vv) : Scalar(double(vv)) {}
  Scalar(int vv) : Scalar(int64_t(vv)) {}
  Scalar(long vv) : tag(Tag::HAS_i) { v.i = vv; }
  Scalar(long long vv) : tag(Tag::HAS_i) { v.i = vv; }
  Scalar(bool vv) : tag(Tag::HAS_b) { v.i = vv; }
  Scalar(c10::BFloat16 vv) : Scalar(double(float(vv))) {}
  Scalar(c10::Half vv) : Scalar(double(float(vv))) {}

  double toDouble() const { return tag == Tag::HAS_d ? v.d : double(v.i); }
  float toFloat() const { return float(toDouble()); }
  int64_t toLong() const { return tag == Tag::HAS_d ? int64_t(v.d) : v.i; }
  int toInt() const { return int(toLong()); }
  bool toBool() const { return toLong() != 0; }
  c10::BFloat16 toBFloat16() const;
  c10::Half toHalf() const;

  template <typename T>
  T to() const;

  bool isFloatingPoint() const { return tag == Tag::HAS_d; }
  bool isIntegral(bool includeBool) const { return tag == Tag::HAS_i || (includeBool && tag == Tag::HAS_b); }
  bool isBoolean() const { return tag == Tag::HAS_b; }

 private:
  enum class Tag { HAS_d, HAS_i, HAS_b };
  Tag tag;
  union v_t {
    double d;
    int64_t i;
  } v;
};

template <> inline double Scalar::to<double>() const { return toDouble(); }
template <> inline float Scalar::to<float>() const { return toFloat(); }
template <> inline int64_t Scalar::to<int64_t>() const { return toLong(); }
template <> inline int Scalar::to<int>() const { return toInt(); }
template <> inline bool Scalar::to<bool>() const { return toBool(); }
} // namespace c10
