// The copies are left in flight into the matrix returned.
#include "view.h"

DeviceMatrix::operator HostMatrix() const {
  HostMatrix m;
  cudaMemcpyAsync(m.data(), d, 64, cudaMemcpyDeviceToHost, s);
  return m;
}

HostMatrix DeviceMatrix::operator[](int row) const {
  HostMatrix m;
  cudaMemcpyAsync(m.data(), d + row * 16, 64, cudaMemcpyDeviceToHost, s);
  return m;
}

HostMatrix download(const DeviceMatrix &dm) {
  HostMatrix m;
  cudaMemcpyAsync(m.data(), dm.d, 64, cudaMemcpyDeviceToHost, dm.s);
  return m;
}

HostMatrix DeviceMatrix::rows(int first) const {
  HostMatrix m;
  cudaMemcpyAsync(m.data(), d + first * 16, 64, cudaMemcpyDeviceToHost, s);
  return m;
}
