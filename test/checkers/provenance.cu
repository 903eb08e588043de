// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Where the destination comes from. Known-pageable host memory is silent by
// default (the copy returns once it is complete, semantics.md); pinned,
// registered and unknown memory (parameters, members, globals) warn.

#include <cuda_runtime.h>
#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

void consumeValue(float v);
void consume(const void *p);

//===--- Pageable destinations: silent by default ---===//

void stackArray(const float *d, cudaStream_t s) {
  float h[16];
  cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
}

void localScalar(const float *d, cudaStream_t s) {
  float x;
  cudaMemcpyAsync(&x, d, sizeof(x), cudaMemcpyDeviceToHost, s);
  consumeValue(x);
}

void localStruct(const float *d, cudaStream_t s) {
  struct {
    float a, b;
  } v;
  cudaMemcpyAsync(&v, d, sizeof(v), cudaMemcpyDeviceToHost, s);
  consumeValue(v.a);
}

void localVectorData(const float *d, cudaStream_t s) {
  std::vector<float> v(16);
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(v[0]);
}

void localVectorElementAddress(const float *d, cudaStream_t s) {
  std::vector<float> v(16);
  cudaMemcpyAsync(&v[0], d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(v[1]);
}

void stdArray(const float *d, cudaStream_t s) {
  std::array<float, 16> a;
  cudaMemcpyAsync(a.data(), d, sizeof(a), cudaMemcpyDeviceToHost, s);
  consumeValue(a[0]);
}

void stdString(const char *d, cudaStream_t s) {
  std::string str(16, ' ');
  cudaMemcpyAsync(&str[0], d, 16, cudaMemcpyDeviceToHost, s);
  consume(str.c_str());
}

void mallocBuffer(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
}

void newArray(const float *d, cudaStream_t s) {
  float *h = new float[16];
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  delete[] h;
}

// std::make_unique / unique_ptr(new T[n]) own memory from operator new.
void makeUniqueArray(const float *d, cudaStream_t s) {
  auto h = std::make_unique<float[]>(16);
  cudaMemcpyAsync(h.get(), d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
}

void uniquePtrFromNew(const float *d, cudaStream_t s) {
  std::unique_ptr<float[]> h(new float[16]);
  cudaMemcpyAsync(h.get(), d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
}

// A unique_ptr with a deleter of its own may own pinned memory: unknown.
struct FreeHost {
  void operator()(float *p) const { cudaFreeHost(p); }
};
void uniquePtrWithDeleter(const float *d, cudaStream_t s, float *pinned) {
  std::unique_ptr<float[], FreeHost> h(pinned);
  cudaMemcpyAsync(h.get(), d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A local object of a class that holds no pointer (a half-precision
// value, as raft's device_reference reads one): its own bytes, on the stack.
struct Half {
  Half() = default;
  explicit Half(float f);
  unsigned short bits = 0;
};
float toFloat(Half h);
void localClassWithoutPointers(const Half *d, cudaStream_t s) {
  Half v{};
  cudaMemcpyAsync(&v, d, sizeof(v), cudaMemcpyDeviceToHost, s);
  consumeValue(toFloat(v));
}

// One that holds a pointer may stand for other memory: unknown.
struct Handle {
  Handle();
  float *data() const { return p; }
  float *p;
};
void localClassWithPointer(const float *d, cudaStream_t s) {
  Handle v;
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(v.data()[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'v' is read before
}

void aliasOfPageable(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  float *p = h + 4;
  cudaMemcpyAsync(p, d, 32, cudaMemcpyDeviceToHost, s);
  consumeValue(h[4]);
}

//===--- Pinned destinations: warn ---===//

void mallocHostBuffer(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void mallocHostVoidPointer(const float *d, cudaStream_t s) {
  void *raw;
  cudaMallocHost(&raw, 64);
  float *h = static_cast<float *>(raw);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void hostAllocBuffer(const float *d, cudaStream_t s) {
  float *h;
  cudaHostAlloc(&h, 64, cudaHostAllocDefault);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void hostAllocBufferSynced(const float *d, cudaStream_t s) {
  float *h;
  cudaHostAlloc(&h, 64, cudaHostAllocDefault);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void registeredMallocBuffer(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  cudaHostRegister(h, 64, cudaHostRegisterDefault);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void registeredMallocBufferSynced(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  cudaHostRegister(h, 64, cudaHostRegisterDefault);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void aliasOfPinned(const float *d, cudaStream_t s) {
  float *pinned;
  cudaMallocHost(&pinned, 64);
  float *p = pinned + 4;
  cudaMemcpyAsync(p, d, 32, cudaMemcpyDeviceToHost, s);
  consumeValue(p[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'p' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'p' on stream 's' is issued here
  consumeValue(pinned[4]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'pinned' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Unknown provenance: warn ---===//

void parameterBuffer(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void parameterBufferSynced(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

struct Staging {
  float *host;
  void fetch(const float *d, cudaStream_t s) {
    cudaMemcpyAsync(host, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(host[0]);
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'host' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  }
};

void memberThroughObject(Staging &st, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(st.host, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(st.host[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'st.host' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

float *gResult;

void globalBuffer(const float *d, cudaStream_t s) {
  cudaMemcpyAsync(gResult, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(gResult[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'gResult' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- cudaMemcpyDefault: direction from the pointers ---===//

void defaultKindIntoPinned(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDefault, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void defaultKindIntoDeviceMemory(const float *src, cudaStream_t s) {
  float *dev;
  cudaMalloc(&dev, 64);
  cudaMemcpyAsync(dev, src, 64, cudaMemcpyDefault, s);
  consume(dev);
}

void defaultKindFromPinnedSource(float *dst, cudaStream_t s) {
  // Host to device (or host): the pinned buffer is the source.
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(dst, h, 64, cudaMemcpyDefault, s);
  consumeValue(dst[0]);
}

void defaultKindFromPageableSource(float *dst, cudaStream_t s) {
  float src[16] = {};
  cudaMemcpyAsync(dst, src, 64, cudaMemcpyDefault, s);
  consumeValue(dst[0]);
}

void hostToDeviceIsNotTracked(float *dev, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(dev, h, 64, cudaMemcpyHostToDevice, s);
  consume(dev);
}
