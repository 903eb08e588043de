// Calls whose target the check cannot know — through a pointer to a
// function (a backend's table of functions) or to a member function, a
// std::function not made from a lambda the function names, a virtual
// function called through a pointer or reference — may synchronize
// anything: nothing in flight is claimed past them. A named function
// without a visible body is not such a call (a summary can name its
// target), and neither is a virtual call the compiler devirtualizes (a
// final class) or a std::function made from a known lambda. A buffer
// handed to an unknown target while its copy is in flight is still
// reported: the hand-over itself is the access.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <functional>

void consume(float);

static float *pinned(size_t n) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  return h;
}

//===--- A table of function pointers (ggml-style backends) ---------------===//

struct BackendOps {
  void (*synchronize)(cudaStream_t);
};

void syncThroughTable(const float *d, cudaStream_t s, const BackendOps *ops) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  ops->synchronize(s);
  consume(h[0]);
}

void readBeforeTheTable(const float *d, cudaStream_t s, const BackendOps *ops) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  ops->synchronize(s);
}

void handedToAPointer(const float *d, cudaStream_t s, void (*use)(float *)) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  use(h);
  // CHECK: :[[@LINE-1]]:7: warning: 'h' is passed to a function before the asynchronous device-to-host copy into it is known to be complete
}

// A named function without a body is not an unknown target.
void opaqueNamed(cudaStream_t s);
void namedOpaque(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  opaqueNamed(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

//===--- std::function members ---------------------------------------------===//

struct Pipeline {
  std::function<void()> fence;
  float *h;
  const float *d;
  cudaStream_t s;
  void run() {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    fence();
    consume(h[0]);
  }
  void knownLambda() {
    std::function<void()> nothing = [] {};
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    nothing();
    consume(h[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  }
};

//===--- Virtual functions --------------------------------------------------===//

struct Device {
  virtual ~Device() = default;
  virtual void synchronize(cudaStream_t s) = 0;
  void finish(cudaStream_t s) { synchronize(s); }
};
struct Recorder final : Device {
  void synchronize(cudaStream_t) override {}
};

void virtualSync(Device &dev, const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  dev.synchronize(s);
  consume(h[0]);
}

void virtualThroughAHelper(Device &dev, const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  dev.finish(s); // its body calls the virtual function on `this`
  consume(h[0]);
}

void devirtualized(Recorder &dev, const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  dev.synchronize(s); // final: Recorder::synchronize, which does not sync
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void memberPointer(Device &dev, void (Device::*m)(cudaStream_t),
                   const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  (dev.*m)(s);
  consume(h[0]);
}

// A pointer parameter bound at the call to a named function is that
// function: looked through where its body is visible, opaque otherwise.
static void noSync(cudaStream_t) {}
static void syncIt(cudaStream_t s) { cudaStreamSynchronize(s); }
template <class Fn> void apply(Fn f, cudaStream_t s) { f(s); }
void boundToNoSync(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  apply(noSync, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}
void boundToSync(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  apply(syncIt, s);
  consume(h[0]);
}
