// Constructors with a visible body: their summary applies where the object
// is built, on the object (`Marker m(s);` records an event into m.e; a
// constructor that synchronizes its stream argument is that sync), as
// destructors' do where it goes out of scope (destructors.cu).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <memory>
#include <cuda_runtime.h>
void consume(float);

struct Marker {
  cudaEvent_t e;
  explicit Marker(cudaStream_t s) {
    cudaEventCreate(&e);
    cudaEventRecord(e, s);
  }
  void wait() { cudaEventSynchronize(e); }
};

void markerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Marker m(s);
  m.wait();
  consume(h[0]);
}

// Recorded before the copy: the event does not cover it.
void markerBeforeCopy(float *h, const float *d, cudaStream_t s) {
  Marker m(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m.wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-5]]:10: note: event 'm.e' was recorded before the copy, so synchronizing it does not wait for the copy
}

struct Fence {
  explicit Fence(cudaStream_t s) { cudaStreamSynchronize(s); }
};

void fenceAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Fence f(s);
  consume(h[0]);
}

void fenceOtherStream(float *h, const float *d, cudaStream_t s,
                      cudaStream_t t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Fence f(t);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-3]]:9: note: this synchronizes stream 't', not stream 's', the copy's stream
}

// Built before the copy: its sync came first.
void fenceBeforeCopy(float *h, const float *d, cudaStream_t s) {
  Fence f(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

//===--- Objects on the heap ----------------------------------------------===//
// `new T(args)` held by a local pointer, `std::unique_ptr<T> p(new T(..))`,
// `std::make_unique<T>(args)` and `std::make_shared<T>(args)`: the
// constructor runs on `*p`, so `p->e` is what it recorded (the first
// adversarial round's program 05, in the caller).
void newMarkerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Marker *m = new Marker(s);
  m->wait();
  consume(h[0]);
  delete m;
}
void newMarkerBeforeCopy(float *h, const float *d, cudaStream_t s) {
  Marker *m = new Marker(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  delete m;
}
void uniqueMarkerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::unique_ptr<Marker> m(new Marker(s));
  m->wait();
  consume(h[0]);
}
void madeUniqueMarkerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto m = std::make_unique<Marker>(s);
  m->wait();
  consume(h[0]);
}
void madeSharedMarkerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto m = std::make_shared<Marker>(s);
  m->wait();
  consume(h[0]);
}
void madeUniqueMarkerOtherStream(float *h, const float *d, cudaStream_t s,
                                 cudaStream_t t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto m = std::make_unique<Marker>(t);
  m->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
void madeUniqueMarkerBeforeCopy(float *h, const float *d, cudaStream_t s) {
  auto m = std::make_unique<Marker>(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m.get()->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
// The pointer is given another object before the wait: not followed.
void newMarkerReassigned(float *h, const float *d, cudaStream_t s,
                         Marker *other) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Marker *m = new Marker(s);
  m = other;
  m->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
// Two constructors taking one argument: which one make_unique runs is not
// followed.
struct TwoWays {
  cudaEvent_t e;
  explicit TwoWays(cudaStream_t s) { cudaEventCreate(&e); cudaEventRecord(e, s); }
  explicit TwoWays(int) { cudaEventCreate(&e); }
  void wait() { cudaEventSynchronize(e); }
};
void madeUniqueOverloaded(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto m = std::make_unique<TwoWays>(s);
  m->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// Made in a helper from its parameters and returned (the first adversarial
// round's program 05): the constructor runs on the object the caller holds.
std::unique_ptr<Marker> makeMarker(cudaStream_t s) {
  return std::make_unique<Marker>(s);
}
Marker *newMarker(cudaStream_t s) {
  Marker *m = new Marker(s);
  return m;
}
std::unique_ptr<Marker> makeMarkerOnDefault() {
  return std::make_unique<Marker>(nullptr);
}
void helperMadeMarkerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto m = makeMarker(s);
  m->wait();
  consume(h[0]);
}
void helperNewMarkerAfterCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Marker *m = newMarker(s);
  m->wait();
  consume(h[0]);
  delete m;
}
void helperMadeMarkerBeforeCopy(float *h, const float *d, cudaStream_t s) {
  auto m = makeMarker(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
void helperMadeMarkerOtherStream(float *h, const float *d, cudaStream_t s,
                                 cudaStream_t t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto m = makeMarker(t);
  m->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
// Built from a constant, not a parameter: not followed.
void helperMadeMarkerConstant(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  auto m = makeMarkerOnDefault();
  m->wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// A helper returning the object by value (`return Marker(s);`, `return
// {s};`, or a local built so): with C++17's guaranteed elision the object
// is the caller's local, which the constructor built from the arguments.
static Marker fetchAndMark(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return Marker(s);
}
static Marker markFirst(float *h, const float *d, cudaStream_t s) {
  Marker m(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return m;
}
static Marker markBraced(cudaStream_t s) { return Marker{s}; }
void returnedMarkerAfterCopy(float *h, const float *d, cudaStream_t s) {
  Marker token = fetchAndMark(h, d, s);
  token.wait();
  consume(h[0]);
}
void returnedMarkerBeforeCopy(float *h, const float *d, cudaStream_t s) {
  Marker token = markFirst(h, d, s);
  token.wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}
void returnedMarkerOtherStream(float *h, const float *d, cudaStream_t s,
                               cudaStream_t t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Marker token = markBraced(t);
  token.wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}
void returnedMarkerSameStream(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  Marker token = markBraced(s);
  token.wait();
  consume(h[0]);
}
