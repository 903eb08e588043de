// A host-only C++ file, compiled by the host compiler: its database entry
// is not nvcc's and passes through the translation unchanged.
#include "pipeline.h"

float hostOnlySum(const float *values, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += values[i];
  return sum;
}
