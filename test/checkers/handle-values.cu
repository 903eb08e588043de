// Stream and event handles are values: a copy of a handle names the same
// stream or event. Followed: a local variable initialised from another
// handle and never changed after (`cudaStream_t t = s;`), and a member of a
// local object set from a constructor's parameter (`Syncer g(s)` with
// `Syncer(cudaStream_t s) : s_(s) {}`) or by aggregate initialisation
// (`Pair p{s, t}`), when nothing changes it afterwards: neither this
// function, nor the constructor's body, nor a member function called on the
// object. A local or parameter handle assigned another value in the
// function (`t = other;`, `std::swap(a, b)`) holds, at a read, the value of
// the one assignment that reaches it in straight-line code (the latest
// `t = x;` before it in a block around it, nothing else changing t in
// between or in a loop around the read: FunctionFacts::reachingValue);
// elsewhere it may hold any stream, and is not told apart from any other
// (StreamRef::Rebound).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cstdlib>
#include <optional>
#include <utility>
#include <cuda_runtime.h>
void consumeValue(float v);
void takeStream(cudaStream_t &s);

//===--- Local copies of a handle -----------------------------------------===//

void syncThroughLocalCopy(float *h, const float *d, cudaStream_t s) {
  cudaStream_t t = s;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(t);
  consumeValue(h[0]);
}

void syncThroughCopyOfCopy(float *h, const float *d, cudaStream_t s) {
  cudaStream_t t = s;
  cudaStream_t u = t;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, u);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void syncThroughLocalCopyOfAnother(float *h, const float *d, cudaStream_t s,
                                   cudaStream_t other) {
  cudaStream_t t = other;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(t);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 't', not stream 's', the copy's stream
}

// Reassigned: t holds other at the sync.
void localCopyReassigned(float *h, const float *d, cudaStream_t s,
                         cudaStream_t other) {
  cudaStream_t t = s;
  t = other;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(t);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'other', not stream 's', the copy's stream
}

// The copy on the handle's first value, the sync on its second (probe g5 of
// docs/real-code.md), and the fixed order.
void handleReassignedBetween(float *h, const float *d) {
  cudaStream_t s, other;
  cudaStreamCreate(&s);
  cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
  cudaStream_t cur = s;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cur);
  cur = other;
  cudaStreamSynchronize(cur);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'other', not stream 's', the copy's stream
  cudaStreamSynchronize(s);
}

void handleReassignedAfterSync(float *h, const float *d) {
  cudaStream_t s, other;
  cudaStreamCreate(&s);
  cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
  cudaStream_t cur = s;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cur);
  cudaStreamSynchronize(cur);
  consumeValue(h[0]);
  cur = other;
  cudaStreamSynchronize(cur);
}

// Assigned under a branch, or later in a loop around the read: the value
// there is not one assignment's, so the handle may be any stream.
bool pickOther();
void handleAssignedInBranch(float *h, const float *d, cudaStream_t s,
                            cudaStream_t other) {
  cudaStream_t cur = s;
  if (pickOther())
    cur = other;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cur);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void handleAssignedLaterInLoop(float *h, const float *d, cudaStream_t *ring,
                               int n) {
  cudaStream_t cur = ring[0];
  for (int i = 1; i < n; ++i) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ring[i - 1]);
    cudaStreamSynchronize(cur);
    consumeValue(h[0]);
    cur = ring[i];
  }
}

// The handle the copy ran on is swapped into b before b is synchronized.
void streamsSwappedBeforeSync(float *h, const float *d, cudaStream_t a,
                              cudaStream_t b) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, a);
  std::swap(a, b);
  cudaStreamSynchronize(b);
  consumeValue(h[0]);
}

// The same without the swap: two parameters, taken for distinct streams.
void streamsNotSwapped(float *h, const float *d, cudaStream_t a,
                       cudaStream_t b) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, a);
  cudaStreamSynchronize(b);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'b', not stream 'a', the copy's stream
}

// A copy of a handle assigned once more after the sync: the copy is on a.
void handleAssignedAfterSync(float *h, const float *d, cudaStream_t a,
                             cudaStream_t b) {
  cudaStream_t cur = a;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cur);
  cudaStreamSynchronize(b);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'b', not stream 'a', the copy's stream
  cur = b;
}

// The stream a loop picks, copied: the same stream.
void localCopyInLoop(float *h, const float *d, cudaStream_t *streams, int n) {
  cudaStream_t s = nullptr;
  for (int i = 0; i < n; ++i) {
    s = streams[i];
    cudaStream_t t = s;
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, t);
    cudaStreamSynchronize(s);
    consumeValue(h[0]);
  }
}

void localCopyAfterCreate(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStream_t t = s;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, t);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void localCopyPassedByReference(float *h, const float *d, cudaStream_t s) {
  cudaStream_t t = s;
  takeStream(t); // may point t at another stream
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(t);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 't', not stream 's', the copy's stream
}

void eventThroughLocalCopy(float *h, const float *d, cudaStream_t s,
                           cudaEvent_t e) {
  cudaEvent_t done = e;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaEventSynchronize(done);
  consumeValue(h[0]);
}

void eventCopyOfAnother(float *h, const float *d, cudaStream_t s,
                        cudaEvent_t e, cudaEvent_t f) {
  cudaEvent_t done = f;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaEventSynchronize(done);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: event 'done' is synchronized here, but it is not recorded after the copy on every path to this point
}

//===--- Members of a local object ----------------------------------------===//

struct Pair {
  cudaStream_t copy, compute;
};

void syncThroughAggregateMember(float *h, const float *d, cudaStream_t s,
                                cudaStream_t t) {
  Pair p{s, t};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(p.copy);
  consumeValue(h[0]);
}

void syncThroughOtherAggregateMember(float *h, const float *d, cudaStream_t s,
                                     cudaStream_t t) {
  Pair p{s, t};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(p.compute);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'p.compute', not stream 's', the copy's stream
}

void aggregateMemberAssigned(float *h, const float *d, cudaStream_t s,
                             cudaStream_t t) {
  Pair p{s, t};
  p.copy = t;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(p.copy);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'p.copy', not stream 's', the copy's stream
}

class Syncer {
public:
  explicit Syncer(cudaStream_t s) : s_(s) {}
  void sync() { cudaStreamSynchronize(s_); }
  void log() { ++calls_; }
  void retarget(cudaStream_t t) { s_ = t; }
  void opaque();
  cudaStream_t stream() const { return s_; }

private:
  cudaStream_t s_;
  int calls_ = 0;
};

void memberSyncOfConstructorArgument(float *h, const float *d,
                                     cudaStream_t s) {
  Syncer g(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  g.log();
  g.sync();
  consumeValue(h[0]);
}

void memberSyncOfAnotherArgument(float *h, const float *d, cudaStream_t s,
                                 cudaStream_t t) {
  Syncer g(t);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  g.sync();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'g.s_', not stream 's', the copy's stream
}

void memberRetargeted(float *h, const float *d, cudaStream_t s,
                      cudaStream_t t) {
  Syncer g(s);
  g.retarget(t);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  g.sync();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'g.s_', not stream 's', the copy's stream
}

void memberAfterOpaqueMethod(float *h, const float *d, cudaStream_t s) {
  Syncer g(s);
  g.opaque(); // no visible body: may change s_
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  g.sync();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'g.s_', not stream 's', the copy's stream
}

void copyOnAccessorStream(float *h, const float *d, cudaStream_t s) {
  auto g = Syncer(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, g.stream());
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

class Rebinding {
public:
  Rebinding(cudaStream_t s, cudaStream_t t) : s_(s) { s_ = t; }
  void sync() { cudaStreamSynchronize(s_); }

private:
  cudaStream_t s_;
};

void constructorBodyChangesMember(float *h, const float *d, cudaStream_t s,
                                  cudaStream_t t) {
  Rebinding g(s, t);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  g.sync();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'g.s_', not stream 's', the copy's stream
}

// A helper that returns the handle it was given (`return e;`, or as a
// std::optional with `return std::nullopt;` on a path that copied
// nothing): the call's value is the argument, so a sync of the local it
// initialises (`*ev`, `ev.value()` of a std::optional) is a sync of that
// event. (The third adversarial round's program 02 records only on the
// path that copies; a record on some paths is not in a summary, and that
// program is still warned.)
static cudaEvent_t fetchAndRecord(float *h, const float *d, cudaStream_t s,
                                  cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  return e;
}
static std::optional<cudaEvent_t> fetchIfAny(float *h, const float *d, int n,
                                             cudaStream_t s, cudaEvent_t e) {
  if (n > 0)
    cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  if (n == 0)
    return std::nullopt;
  return e;
}
static cudaEvent_t recordOnly(cudaStream_t s, cudaEvent_t e) {
  cudaEventRecord(e, s);
  return e;
}

float returnedEventSynced(float *h, const float *d, cudaStream_t s,
                          cudaEvent_t e) {
  cudaEvent_t done = fetchAndRecord(h, d, s, e);
  cudaEventSynchronize(done);
  return h[0];
}

float returnedOptionalEventSynced(float *h, const float *d, int n,
                                  cudaStream_t s, cudaEvent_t e) {
  if (auto ev = fetchIfAny(h, d, n, s, e)) {
    cudaEventSynchronize(*ev);
    return h[0];
  }
  return 0;
}

float returnedEventRecordedBeforeTheCopy(float *h, const float *d,
                                         cudaStream_t s, cudaEvent_t e) {
  cudaEvent_t done = recordOnly(s, e);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventSynchronize(done);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-6]]:22: note: event 'done' was recorded before the copy, so synchronizing it does not wait for the copy
}

float optionalOfAnotherEvent(float *h, const float *d, cudaStream_t s,
                             cudaEvent_t e, cudaEvent_t other) {
  const std::optional<cudaEvent_t> ev = other;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaEventSynchronize(*ev);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
}

// An event a call the check does not follow returns (`lookupEvent(key)`)
// may be any event, the one recorded after the copy included: a sync of it
// is not claimed to be of another. Its own record before the copy is still
// its own.
cudaEvent_t lookupEvent(int key);
std::optional<cudaEvent_t> findEvent(int key);

float eventFromUnknownCall(float *h, const float *d, cudaStream_t s,
                           cudaEvent_t e, int key) {
  cudaEvent_t ev = lookupEvent(key);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaEventSynchronize(ev);
  return h[0];
}

float optionalEventFromUnknownCall(float *h, const float *d, cudaStream_t s,
                                   cudaEvent_t e, int key) {
  std::optional<cudaEvent_t> ev = findEvent(key);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaEventSynchronize(*ev);
  return h[0];
}

float eventFromUnknownCallRecordedBefore(float *h, const float *d,
                                         cudaStream_t s, int key) {
  cudaEvent_t ev = lookupEvent(key);
  cudaEventRecord(ev, s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventSynchronize(ev);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
}
