// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Host access forms on the destination of an asynchronous device-to-host
// copy: each positive case beside its synchronized (or harmless) twin.

#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>
#include <algorithm>

void consume(const float *p);
void consumeValue(float v);
void consumeRef(const float &r);
__global__ void kernel(float *p);

struct Pair {
  float x;
  float y;
};

//===--- Subscripts, dereferences and members ---===//

void subscriptRead(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  float v = h[0];
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  consumeValue(v);
}

void subscriptReadAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  float v = h[0];
  consumeValue(v);
}

void subscriptWrite(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  h[0] = 1.0f;
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is written before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void subscriptWriteAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  h[0] = 1.0f;
}

void compoundAssignment(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  h[1] += 2.0f;
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is written before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void compoundAssignmentAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaDeviceSynchronize();
  h[1] += 2.0f;
}

void incrementElement(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  ++h[2];
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is written before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void incrementPointerItself(const float *d, cudaStream_t s) {
  // Moving the pointer touches no host element.
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  ++h;
}

void dereference(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(*h);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void dereferenceAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(*h);
}

void arrowMember(const Pair *d, cudaStream_t s) {
  Pair *h;
  cudaMallocHost(&h, sizeof(Pair));
  cudaMemcpyAsync(h, d, sizeof(Pair), cudaMemcpyDeviceToHost, s);
  consumeValue(h->x);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void arrowMemberAfterSync(const Pair *d, cudaStream_t s) {
  Pair *h;
  cudaMallocHost(&h, sizeof(Pair));
  cudaMemcpyAsync(h, d, sizeof(Pair), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(h->x);
}

void elementMember(const Pair *d, cudaStream_t s, int i) {
  Pair *h;
  cudaMallocHost(&h, 4 * sizeof(Pair));
  cudaMemcpyAsync(h, d, 4 * sizeof(Pair), cudaMemcpyDeviceToHost, s);
  consumeValue(h[i].y);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void elementMemberAfterSync(const Pair *d, cudaStream_t s, int i) {
  Pair *h;
  cudaMallocHost(&h, 4 * sizeof(Pair));
  cudaMemcpyAsync(h, d, 4 * sizeof(Pair), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(h[i].y);
}

void pointerArithmetic(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(*(h + 1));
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void pointerArithmeticAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(*(h + 1));
}

//===--- Aliases ---===//

void aliasDeclaredBeforeCopy(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  float *p = h + 4;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(p[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'p' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void aliasDeclaredBeforeCopyAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  float *p = h + 4;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(p[0]);
}

void aliasDeclaredAfterCopy(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  float *p = h;
  consumeValue(p[3]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'p' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void aliasDeclaredAfterCopyAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  float *p = h;
  cudaStreamSynchronize(s);
  consumeValue(p[3]);
}

void elementAddressPassed(const float *d, cudaStream_t s, int k) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(&h[k]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'consume' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void elementAddressPassedAfterSync(const float *d, cudaStream_t s, int k) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(&h[k]);
}

void elementBoundToReference(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeRef(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'consumeRef' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void elementBoundToReferenceAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeRef(h[0]);
}

//===--- Containers with a pinning allocator ---===//

template <class T> struct PinnedAllocator {
  using value_type = T;
  PinnedAllocator() = default;
  template <class U> PinnedAllocator(const PinnedAllocator<U> &) {}
  T *allocate(size_t n) {
    void *p = nullptr;
    cudaMallocHost(&p, n * sizeof(T));
    return static_cast<T *>(p);
  }
  void deallocate(T *p, size_t) { cudaFreeHost(p); }
  bool operator==(const PinnedAllocator &) const { return true; }
  bool operator!=(const PinnedAllocator &) const { return false; }
};
using PinnedVector = std::vector<float, PinnedAllocator<float>>;

void pinnedVectorRangeFor(PinnedVector &v, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  for (float x : v)
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'v' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    consumeValue(x);
}

void pinnedVectorRangeForAfterSync(PinnedVector &v, const float *d,
                                   cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (float x : v)
    consumeValue(x);
}

void pinnedVectorIterator(PinnedVector &v, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  auto it = v.cbegin();
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'v' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  consumeValue(*it);
}

void pinnedVectorIteratorAfterSync(PinnedVector &v, const float *d,
                                   cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  auto it = v.cbegin();
  consumeValue(*it);
}

void pinnedVectorData(PinnedVector &v, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  consume(v.data());
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'v' is passed to 'consume' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void pinnedVectorSizeIsNotAnAccess(PinnedVector &v, const float *d,
                                   cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  consumeValue(static_cast<float>(v.size()));
  cudaStreamSynchronize(s);
  consume(v.data());
}

void pinnedVectorSubscript(PinnedVector &v, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  consumeValue(v[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'v' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void pageableVectorIsSilent(std::vector<float> &v, const float *d,
                            cudaStream_t s) {
  // std::allocator storage is pageable: the copy returns once complete.
  cudaMemcpyAsync(v.data(), d, v.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  for (float x : v)
    consumeValue(x);
}

//===--- Library calls ---===//

void memcpyFromDestination(float *out, const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::memcpy(out, h, 64);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'memcpy' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void memcpyFromDestinationAfterSync(float *out, const float *d,
                                    cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  std::memcpy(out, h, 64);
}

void fwriteDestination(FILE *f, const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  fwrite(h, sizeof(float), 16, f);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'fwrite' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void fwriteDestinationAfterSync(FILE *f, const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  fwrite(h, sizeof(float), 16, f);
}

void printfElement(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  printf("%f\n", h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void printfElementAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("%f\n", h[0]);
}

// The address printed (`%p`, the only conversion a pointer to void or to
// a floating type may take, C11 7.21.6.1) reads nothing it points to; a
// character pointer may be `%s`, which reads the string.
void printfAddress(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  printf("copy -> %p\n", static_cast<void *>(h));
  fprintf(stderr, "%p\n", (void *)h);
  cudaStreamSynchronize(s);
}
void printfCharPointer(const char *d, cudaStream_t s) {
  char *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  printf("%s\n", h);
  // CHECK: :[[@LINE-1]]:18: warning: 'h' is passed to 'printf' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  cudaStreamSynchronize(s);
}

void opaqueUserFunction(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(h);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'consume' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void opaqueUserFunctionAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h);
}

//===--- Stream-ordered work on the destination ---===//

void sourceOfCopyOnSameStream(float *d2, const float *d, cudaStream_t s) {
  // Ordered after the first copy on the same stream: no race.
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(d2, h, 64, cudaMemcpyHostToDevice, s);
}

void sourceOfCopyOnOtherStream(float *d2, const float *d, cudaStream_t s,
                               cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(d2, h, 64, cudaMemcpyHostToDevice, t);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is used by work on another stream before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void kernelOnSameStream(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  kernel<<<1, 1, 0, s>>>(h);
}

void kernelOnOtherStream(const float *d, cudaStream_t s, cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  kernel<<<1, 1, 0, t>>>(h);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is used by work on another stream before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void kernelOnOtherStreamAfterSync(const float *d, cudaStream_t s,
                                  cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  kernel<<<1, 1, 0, t>>>(h);
}

//===--- Uses that touch no element ---===//

void pointerComparisons(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (h == nullptr)
    return;
  if (h)
    consumeValue(0.0f);
  if (!h)
    return;
}

void unevaluatedOperands(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  size_t n = sizeof(h[0]);
  using Element = decltype(h[0]); // only the type of h[0]
  static_assert(sizeof(Element) == 4, "");
  consumeValue(static_cast<float>(n));
}

void unevaluatedOperandsThenRead(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  size_t n = sizeof(h[0]);
  consumeValue(h[n]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Members and globals (unknown provenance) ---===//

class Reader {
public:
  void fetch(const float *d, cudaStream_t s) {
    cudaMemcpyAsync(this->buf_, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(buf_[0]);
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'buf_' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  }
  void fetchAndSync(const float *d, cudaStream_t s) {
    cudaMemcpyAsync(this->buf_, d, 64, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    consumeValue(buf_[0]);
  }

private:
  float *buf_ = nullptr;
};

float *gHostBuffer;

void globalBuffer(const float *d, cudaStream_t s) {
  cudaMemcpyAsync(gHostBuffer, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(gHostBuffer[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'gHostBuffer' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void globalBufferAfterSync(const float *d, cudaStream_t s) {
  cudaMemcpyAsync(gHostBuffer, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(gHostBuffer[0]);
}

// Iterators into a container are pointers into it: dereferenced or handed to
// a function they are uses of its elements; compared or subtracted, not.
long iteratorsArePointers(const float *d, size_t n, cudaStream_t s) {
  PinnedVector v(n);
  cudaMemcpyAsync(v.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  bool empty = v.begin() == v.end();
  auto it = std::max_element(v.begin(), v.end());
  // CHECK: :[[@LINE-1]]:30: warning: 'v' is read before the asynchronous device-to-host copy into it is known to be complete
  long index = it - v.begin();
  float first = *v.begin();
  // CHECK: :[[@LINE-1]]:18: warning: 'v' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  return index + empty + long(first);
}
