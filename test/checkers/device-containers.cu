// Containers that own device memory: the data() of an rmm::device_uvector,
// device_buffer or device_scalar, or of a thrust::device_vector, is a device
// pointer, so a copy into it (cudaMemcpyDefault, as raft::copy does) is not
// a device-to-host copy. The classes are stand-ins with the real names and
// namespaces (thrust's versioned inline namespace included).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstddef>
void consumeValue(float v);
void launchOn(float *p, cudaStream_t s);

namespace rmm {
inline namespace v26 {
class cuda_stream_view {
public:
  cuda_stream_view(cudaStream_t s) noexcept;
  operator cudaStream_t() const noexcept;
};
template <class T> class device_uvector {
public:
  T *data();
  std::size_t size() const;
  T element(std::size_t i, cuda_stream_view stream) const;
  T front_element(cuda_stream_view stream) const;
};
class device_buffer {
public:
  void *data();
};
template <class T> class device_scalar {
public:
  T *data();
  T value(cuda_stream_view stream) const;
};
} // namespace v26
} // namespace rmm

namespace thrust {
inline namespace THRUST_300400_NS {
template <class T> class device_vector {
public:
  T *data();
};
} // namespace THRUST_300400_NS
} // namespace thrust

// A copy wrapper in raft's shape: the direction is left to the runtime.
void copyFloats(float *dst, const float *src, std::size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDefault, s);
}

void intoDeviceUvector(rmm::device_uvector<float> &v, const float *d,
                       cudaStream_t s, cudaStream_t other) {
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDefault, s);
  launchOn(v.data(), other);
}

void throughWrapperIntoDeviceUvector(rmm::device_uvector<float> &v,
                                     const float *d, cudaStream_t s) {
  copyFloats(v.data(), d, 16, s);
  launchOn(v.data(), s);
}

void throughWrapperIntoPinned(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  copyFloats(h, d, 16, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void intoOtherDeviceContainers(rmm::device_buffer &b,
                               rmm::device_scalar<float> &x,
                               thrust::device_vector<float> &t, const float *d,
                               cudaStream_t s, cudaStream_t other) {
  cudaMemcpyAsync(b.data(), d, 64, cudaMemcpyDefault, s);
  cudaMemcpyAsync(x.data(), d, 4, cudaMemcpyDefault, s);
  cudaMemcpyAsync(t.data(), d, 64, cudaMemcpyDefault, s);
  launchOn(static_cast<float *>(b.data()), other);
  launchOn(x.data(), other);
  launchOn(t.data(), other);
}

struct Model {
  rmm::device_uvector<float> weights;
  float *staging; // of unknown kind: may be pinned
};

void intoMemberDeviceUvector(Model &m, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(m.weights.data(), d, 64, cudaMemcpyDefault, s);
  launchOn(m.weights.data(), nullptr);
  cudaMemcpyAsync(m.staging, d, 64, cudaMemcpyDefault, s);
  consumeValue(m.staging[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'm.staging' is read before
}

// A class of the same name in another namespace is not known.
namespace mine {
template <class T> class device_uvector {
public:
  T *data();
};
} // namespace mine

void intoLookalike(mine::device_uvector<float> &v, const float *d,
                   cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDefault, s);
  consumeValue(v.data()[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'v' is read before
}

// rmm's members documented to synchronize their stream ("@note This
// function synchronizes `stream`"): a copy on that stream is complete after.
int valueSyncsItsStream(float *h, const float *d, cudaStream_t s,
                        rmm::device_scalar<int> &info) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  int v = info.value(s);
  consumeValue(h[0]);
  return v;
}

float elementSyncsItsStream(float *h, const float *d, cudaStream_t s,
                            rmm::device_uvector<float> &v) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  float first = v.front_element(s) + v.element(1, s);
  consumeValue(h[0]);
  return first;
}

int valueSyncsAnotherStream(float *h, const float *d, cudaStream_t s,
                            cudaStream_t other, rmm::device_scalar<int> &info) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  int v = info.value(other);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:11: note: this synchronizes stream 'other', not stream 's', the copy's stream
  return v;
}

// raft's device views: raft::span<T, true> (device_span), and an mdspan or
// mdarray whose accessor is host_device_accessor<P, memory_type::device>
// (device_mdspan, device_mdarray); their data() / data_handle() is device
// memory. The host ones are not.
namespace raft {
enum class memory_type : unsigned char { host = 0, pinned = 1, device = 2, managed = 3 };
template <typename T, bool is_device, unsigned long Extent = ~0ul> class span {
public:
  T *data() const;
};
template <typename AccessorPolicy, memory_type MemType>
struct host_device_accessor : public AccessorPolicy {};
struct default_accessor {};
template <typename T, typename Extents, typename Layout, typename Accessor>
class mdspan {
public:
  T *data_handle() const;
};
template <typename T>
using device_vector_view =
    mdspan<T, int, int, host_device_accessor<default_accessor, memory_type::device>>;
template <typename T>
using host_vector_view =
    mdspan<T, int, int, host_device_accessor<default_accessor, memory_type::host>>;
} // namespace raft

void intoDeviceSpan(raft::span<float, true> rows, const float *src,
                    cudaStream_t s) {
  copyFloats(rows.data(), src, 16, s);
  launchOn(rows.data(), s);
}

void intoDeviceMdspan(raft::device_vector_view<float> v, const float *src,
                      cudaStream_t s, cudaStream_t other) {
  float *p = v.data_handle();
  copyFloats(p, src, 16, s);
  launchOn(p, other);
}

void intoHostMdspan(raft::host_vector_view<float> v, const float *src,
                    cudaStream_t s) {
  float *p = v.data_handle();
  copyFloats(p, src, 16, s);
  consumeValue(p[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'p' is read before
}

void intoHostSpan(raft::span<float, false> rows, const float *src,
                  cudaStream_t s) {
  copyFloats(rows.data(), src, 16, s);
  consumeValue(rows.data()[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'rows' is read before
}

// raft before 23.04 numbered memory_type differently (host, device, managed,
// pinned): the enumerator's name decides, not its value.
namespace raft {
namespace v22 {
enum class memory_type { host, device, managed, pinned };
template <typename AccessorPolicy, memory_type MemType>
struct host_device_accessor : public AccessorPolicy {};
template <typename T, typename Extents, typename Layout, typename Accessor>
class mdarray {
public:
  T *data_handle();
};
template <typename T>
using device_matrix =
    mdarray<T, int, int, host_device_accessor<default_accessor, memory_type::device>>;
template <typename T>
using pinned_matrix =
    mdarray<T, int, int, host_device_accessor<default_accessor, memory_type::pinned>>;
template <typename T> device_matrix<T> make_device_matrix(int rows, int cols);
template <typename T> pinned_matrix<T> make_pinned_matrix(int rows, int cols);
} // namespace v22
} // namespace raft
void passMatrix(float *p);

// kmeans++ (raft 22.08): a device-to-device raft::copy into a slice of a
// device matrix, then the matrix handed on.
void intoOldDeviceMatrix(const float *src, cudaStream_t s) {
  auto m = raft::v22::make_device_matrix<float>(4, 16);
  copyFloats(m.data_handle() + 16, src, 16, s);
  passMatrix(m.data_handle());
}

void intoOldPinnedMatrix(const float *src, cudaStream_t s) {
  auto m = raft::v22::make_pinned_matrix<float>(4, 16);
  copyFloats(m.data_handle() + 16, src, 16, s);
  passMatrix(m.data_handle());
  // CHECK: :[[@LINE-1]]:14: warning: 'm' is passed to 'passMatrix' before
}

// A device view returned by a call (`m.structure_view().get_rows().data()`,
// raft's sparse matrices).
struct CooStructure {
  raft::span<float, true> get_rows();
  raft::span<float, false> get_host_rows();
};
void intoDeviceSpanOfACall(CooStructure &m, const float *src, cudaStream_t s,
                           cudaStream_t other) {
  float *rows = m.get_rows().data();
  copyFloats(rows, src, 16, s);
  launchOn(rows, other);
}
void intoHostSpanOfACall(CooStructure &m, const float *src, cudaStream_t s) {
  float *rows = m.get_host_rows().data();
  copyFloats(rows, src, 16, s);
  consumeValue(rows[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'rows' is read before
}

// raft's owning host arrays: an mdarray whose accessor is memory_type::host
// (make_host_vector) is pageable, so a copy into it is complete when it
// returns; memory_type::pinned (make_pinned_matrix) is pinned.
namespace raft {
template <typename T, typename Extents, typename Layout, typename Policy>
class mdarray {
public:
  T *data_handle();
};
template <typename T>
using host_vector =
    mdarray<T, int, int, host_device_accessor<default_accessor, memory_type::host>>;
template <typename T>
using pinned_vector =
    mdarray<T, int, int, host_device_accessor<default_accessor, memory_type::pinned>>;
template <typename T> host_vector<T> make_host_vector(int n);
template <typename T> pinned_vector<T> make_pinned_vector(int n);
} // namespace raft

void intoHostMdarray(const float *d, cudaStream_t s) {
  auto v = raft::make_host_vector<float>(16);
  copyFloats(v.data_handle(), d, 16, s);
  consumeValue(v.data_handle()[0]);
}

void intoPinnedMdarray(const float *d, cudaStream_t s) {
  auto v = raft::make_pinned_vector<float>(16);
  copyFloats(v.data_handle(), d, 16, s);
  consumeValue(v.data_handle()[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'v' is read before
}
