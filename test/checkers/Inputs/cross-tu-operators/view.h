// A device matrix whose conversion to a host matrix copies asynchronously
// and returns without a sync (votca/xtp's CudaMatrix before 4e53b667f), and
// an index operator that does the same for one element
// (test/checkers/cross-tu-operators.cu).
#include <cuda_runtime.h>

struct HostMatrix {
  float *data() const; // storage the check cannot see: not known pageable
  float *p;
};

struct DeviceMatrix {
  operator HostMatrix() const;
  HostMatrix operator[](int row) const;
  HostMatrix rows(int first) const;
  float *d;
  cudaStream_t s;
};

// A free function copying on a member of its parameter.
HostMatrix download(const DeviceMatrix &dm);
