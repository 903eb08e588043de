// Destructors of local objects run where the object goes out of scope, on
// every path out of it (C++ [stmt.jump], [class.dtor]; clang's CFG with its
// implicit destructors): a destructor with a visible body is looked through
// as a call on the object. A RAII guard that synchronizes its stream there
// covers the copies on that stream for what follows its scope; inside the
// scope, the guard has not run yet. The guard's stream is the one its
// constructor was given (handle-values.cu). Notes about a destructor point
// at the end of the object's scope, where it runs.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <memory>
void consumeValue(float v);
bool failed();

class StreamSyncGuard {
public:
  explicit StreamSyncGuard(cudaStream_t s) : s_(s) {}
  ~StreamSyncGuard() { cudaStreamSynchronize(s_); }

private:
  cudaStream_t s_;
};

void readAfterGuardScope(float *h, const float *d, cudaStream_t s) {
  {
    StreamSyncGuard g(s);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  consumeValue(h[0]);
}

void readInsideGuardScope(float *h, const float *d, cudaStream_t s) {
  StreamSyncGuard g(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void guardOfAnotherStream(float *h, const float *d, cudaStream_t s,
                          cudaStream_t t) {
  {
    StreamSyncGuard g(t);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'g.s_', not stream 's', the copy's stream
}

// The guard runs on the early exit too: the read after the loop is covered
// on both paths out of the loop body's scope.
void guardInLoopWithBreak(float *h, const float *d, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    StreamSyncGuard g(s);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    if (failed())
      break;
  }
  consumeValue(h[0]);
}

// A guard made before the copy's scope is left with it still in flight
// when the inner scope ends.
void guardInInnerScopeBeforeTheCopy(float *h, const float *d,
                                    cudaStream_t s) {
  {
    StreamSyncGuard g(s);
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A destructor that only records an event: the event covers the copy once
// it is synchronized.
class Marker {
public:
  Marker(cudaEvent_t e, cudaStream_t s) : e_(e), s_(s) {}
  ~Marker() { cudaEventRecord(e_, s_); }

private:
  cudaEvent_t e_;
  cudaStream_t s_;
};

void markerThenEventSync(float *h, const float *d, cudaStream_t s,
                         cudaEvent_t e) {
  {
    Marker m(e, s);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  cudaEventSynchronize(e);
  consumeValue(h[0]);
}

void markerWithoutEventSync(float *h, const float *d, cudaStream_t s,
                            cudaEvent_t e) {
  {
    Marker m(e, s);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A destructor whose body the check cannot read is not a sync.
class OpaqueGuard {
public:
  explicit OpaqueGuard(cudaStream_t s) : s_(s) {}
  ~OpaqueGuard();

private:
  cudaStream_t s_;
};

void opaqueDestructor(float *h, const float *d, cudaStream_t s) {
  {
    OpaqueGuard g(s);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A virtual destructor of a local object is the one that runs.
class Base {
public:
  virtual ~Base() = default;
};
class DeviceSyncGuard : public Base {
public:
  ~DeviceSyncGuard() override { cudaDeviceSynchronize(); }
};

void virtualDestructor(float *h, const float *d, cudaStream_t s) {
  {
    DeviceSyncGuard g;
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  consumeValue(h[0]);
}

// A destructor that reads a member buffer, at the end of the object's
// scope: a pending copy into it is read there.
class Staging {
public:
  explicit Staging(float *h) : h_(h) {}
  ~Staging() { consumeValue(h_[0]); }
  float *h_;
};

void destructorReadsPendingBuffer(float *h, const float *d, cudaStream_t s) {
  Staging st(h);
  cudaMemcpyAsync(st.h_, d, 64, cudaMemcpyDeviceToHost, s);
}
// CHECK: :[[@LINE-1]]:1: warning: 'st.h_' is used by '~Staging' before the asynchronous device-to-host copy into it is known to be complete
// CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'st.h_' on stream 's' is issued here
// CHECK: :[[@LINE-10]]:29: note: '~Staging' touches the buffer here

void destructorAfterSync(float *h, const float *d, cudaStream_t s) {
  Staging st(h);
  cudaMemcpyAsync(st.h_, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

//===--- std::unique_ptr runs its deleter ---------------------------------===//
// [unique.ptr.single.dtor] and [unique.ptr.single.modifiers]: the destructor
// and reset() call get_deleter()(get()). A deleter class whose call operator
// the check can read is looked through there, on the owned pointer.

struct SyncAndDestroy {
  void operator()(cudaStream_t s) const {
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
};
struct DestroyOnly {
  void operator()(cudaStream_t s) const { cudaStreamDestroy(s); }
};
using StreamPtr = std::unique_ptr<CUstream_st, SyncAndDestroy>;
StreamPtr makeStream();

void deleterSyncsAtScopeEnd(float *h, const float *d) {
  {
    StreamPtr s = makeStream();
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s.get());
    consumeValue(h[0]); // the deleter has not run yet
    // CHECK: :[[@LINE-1]]:18: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  }
  consumeValue(h[0]); // the deleter synchronized s.get()
}

void deleterDoesNotSync(float *h, const float *d) {
  {
    cudaStream_t raw;
    cudaStreamCreate(&raw);
    std::unique_ptr<CUstream_st, DestroyOnly> s(raw);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s.get());
  }
  consumeValue(h[0]); // cudaStreamDestroy does not wait (semantics.md)
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void resetRunsTheDeleter(float *h, const float *d) {
  StreamPtr s = makeStream();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s.get());
  s.reset();
  consumeValue(h[0]);
}

void resetLater(float *h, const float *d) {
  StreamPtr s = makeStream();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s.get());
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  s.reset();
}
