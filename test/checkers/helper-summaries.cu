// Helper summaries: what a same-TU helper does with its parameters decides
// what the call means, and the result does not depend on the order in which
// functions appear in the file.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.HelperDepth: 0}}' \
// RUN:   -- %cuda_mock_flags | FileCheck %s --check-prefix=DEPTH0 --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdio>
void consumeValue(float v);

//===--- A helper that reads through its parameter -------------------------===//

void use(const float *p) { printf("%f\n", p[0]); }
void passedToReadingHelper(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  use(h);
  // CHECK: :[[@LINE-1]]:7: warning: 'h' is passed to 'use' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-8]]:43: note: 'use' touches the buffer here
  // DEPTH0: :[[@LINE-4]]:7: warning: 'h' is passed to 'use' before
}

//===--- A helper that syncs, then reads -----------------------------------===//

void syncThenRead(const float *p, cudaStream_t s) {
  cudaStreamSynchronize(s);
  consumeValue(p[0]);
}
void helperSyncsItsStreamThenReads(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncThenRead(h, s);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'h' is passed to 'syncThenRead' before
}
void helperSyncsAnotherStreamThenReads(const float *d, cudaStream_t s,
                                       cudaStream_t other) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncThenRead(h, other);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is passed to 'syncThenRead' before
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-17]]:16: note: 'syncThenRead' touches the buffer here
  // DEPTH0: :[[@LINE-4]]:16: warning: 'h' is passed to 'syncThenRead' before
}

// Synced on one path only: each seed (this buffer on that stream, on any
// stream) is answered on its own, not by the first one found at the read.
void syncSometimesThenRead(const float *p, cudaStream_t s, bool c) {
  if (c)
    cudaStreamSynchronize(s);
  consumeValue(p[0]);
}
void helperSyncsItsStreamOnOnePathOnly(const float *d, cudaStream_t s,
                                       bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncSometimesThenRead(h, s, c);
  // CHECK: :[[@LINE-1]]:25: warning: 'h' is passed to 'syncSometimesThenRead' before
  // DEPTH0: :[[@LINE-2]]:25: warning: 'h' is passed to 'syncSometimesThenRead' before
  cudaStreamSynchronize(s);
}

//===--- A helper that only keeps the pointer ------------------------------===//

float *gStash;
void stash(float *p) { gStash = p; }
void helperOnlyStoresThePointer(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  stash(h);
  // DEPTH0: :[[@LINE-1]]:9: warning: 'h' is passed to 'stash' before
  cudaStreamSynchronize(s);
}

//===--- Helper chains and the depth bound (HelperDepth, default 3) ---------===//

void level4(cudaStream_t s) { cudaStreamSynchronize(s); }
void level3(cudaStream_t s) { level4(s); }
void level2(cudaStream_t s) { level3(s); }
void level1(cudaStream_t s) { level2(s); }

// level4 is past the bound from here: the chain is opaque, not a sync.
void chainDeeperThanTheBound(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  level1(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // DEPTH0: :[[@LINE-2]]:16: warning: 'h' is read before
}

// Within the bound, although level2's summary was first computed (cut
// short) for the function above.
void chainWithinTheBound(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  level2(s);
  consumeValue(h[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'h' is read before
}

//===--- Function objects and lambdas called like functions -----------------===//

struct SyncThenRead {
  void operator()(const float *p, cudaStream_t st) const {
    cudaStreamSynchronize(st);
    consumeValue(p[0]);
  }
};
void functorSyncsThenReads(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  SyncThenRead{}(h, s);
  // DEPTH0: :[[@LINE-1]]:18: warning: 'h' is passed to 'operator()' before
}

void lambdaIssuesTheCopy(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto fetch = [](float *dst, const float *src, cudaStream_t st) {
    cudaMemcpyAsync(dst, src, 64, cudaMemcpyDeviceToHost, st);
  };
  fetch(h, d, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-6]]:5: note: the copy is issued here
}

//===--- Helpers that synchronize a member or global stream -----------------===//

cudaStream_t gStream;
void syncGlobalStream() { cudaStreamSynchronize(gStream); }

class Pipeline {
public:
  void wait() { cudaStreamSynchronize(s_); }
  void waitOther() { cudaStreamSynchronize(other_); }

  void fetchThenWait(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
    wait();
    consumeValue(h_[0]);
    // DEPTH0: :[[@LINE-1]]:18: warning: 'h_' is read before the asynchronous
  }
  void fetchThenWaitOther(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
    waitOther();
    consumeValue(h_[0]);
    // CHECK: :[[@LINE-1]]:18: warning: 'h_' is read before the asynchronous
    // CHECK: :[[@LINE-4]]:5: note: asynchronous device-to-host copy into 'h_' on stream 's_' is issued here
    // CHECK: :[[@LINE-4]]:5: note: this synchronizes stream 'other_', not stream 's_', the copy's stream
    // DEPTH0: :[[@LINE-4]]:18: warning: 'h_' is read before the asynchronous
  }
  void fetchThenThisWait(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
    this->wait();
    consumeValue(h_[0]);
    // DEPTH0: :[[@LINE-1]]:18: warning: 'h_' is read before the asynchronous
  }

  float *h_;
  cudaStream_t s_, other_;
};

void fetchThroughObject(Pipeline &p, const float *d) {
  cudaMemcpyAsync(p.h_, d, 64, cudaMemcpyDeviceToHost, p.s_);
  p.wait();
  consumeValue(p.h_[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'p.h_' is read before the asynchronous
}

// Two references may name one object: q.wait() may wait for p's stream,
// and the check does not claim otherwise.
void fetchThroughObjectWaitReference(Pipeline &p, Pipeline &q,
                                     const float *d) {
  cudaMemcpyAsync(p.h_, d, 64, cudaMemcpyDeviceToHost, p.s_);
  q.wait();
  consumeValue(p.h_[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'p.h_' is read before the asynchronous
}

void fetchThroughObjectWaitOther(Pipeline &p, const float *d) {
  Pipeline q;
  cudaMemcpyAsync(p.h_, d, 64, cudaMemcpyDeviceToHost, p.s_);
  q.wait(); // another object's stream
  consumeValue(p.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'p.h_' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy into 'p.h_' on stream 'p.s_' is issued here
  // CHECK: :[[@LINE-4]]:3: note: this synchronizes stream 'q.s_', not stream 'p.s_', the copy's stream
  // DEPTH0: :[[@LINE-4]]:16: warning: 'p.h_' is read before the asynchronous
}

void fetchOnGlobalStream(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, gStream);
  syncGlobalStream();
  consumeValue(h[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
}

//===--- Helpers that record or synchronize an event ------------------------===//

void waitForEvent(cudaEvent_t e) { cudaEventSynchronize(e); }
void recordOn(cudaEvent_t e, cudaStream_t st) { cudaEventRecord(e, st); }

void eventParameterHelpers(const float *d, cudaStream_t s, cudaEvent_t e) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  recordOn(e, s);
  waitForEvent(e);
  consumeValue(h[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
}

void eventHelperWithoutRecord(const float *d, cudaStream_t s, cudaEvent_t e) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  waitForEvent(e);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: event 'e' is synchronized here, but it is not recorded after the copy on every path to this point
  // DEPTH0: :[[@LINE-4]]:16: warning: 'h' is read before the asynchronous
}

void eventRecordedOnAnotherStreamByHelper(const float *d, cudaStream_t s,
                                          cudaStream_t t, cudaEvent_t e) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  recordOn(e, t);
  waitForEvent(e);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-5]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-5]]:3: note: the event was recorded on stream 't', not on stream 's', the copy's stream
  // DEPTH0: :[[@LINE-4]]:16: warning: 'h' is read before the asynchronous
}

// An event wrapper of the usual shape.
class Marker {
public:
  void record(cudaStream_t st) { cudaEventRecord(ev_, st); }
  void recordOwn() { cudaEventRecord(ev_, s_); }
  void wait() { cudaEventSynchronize(ev_); }
  void waitPolling() {
    while (cudaEventQuery(ev_) != cudaSuccess) {
    }
  }
  cudaEvent_t ev_;
  cudaStream_t s_;
};

void markerRecordThenWait(Marker &m, const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m.record(s);
  m.wait();
  consumeValue(h[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
}

void markerOwnStreamPolling(Marker &m, const float *d) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, m.s_);
  m.recordOwn();
  m.waitPolling();
  consumeValue(h[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
}

// Recorded before the copy: the wait does not cover it.
void markerRecordedBeforeCopy(Marker &m, const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  m.record(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m.wait();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-6]]:3: note: event 'm.ev_' was recorded before the copy, so synchronizing it does not wait for the copy
  // DEPTH0: :[[@LINE-4]]:16: warning: 'h' is read before the asynchronous
}

// Another reference's event: it may be m's, and the check does not claim
// otherwise.
void markerOtherReference(Marker &m, Marker &n, const float *d,
                          cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m.record(s);
  n.wait();
  consumeValue(h[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
}

// Another object's event.
void markerOtherObject(Marker &m, const float *d, cudaStream_t s) {
  Marker n;
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  m.record(s);
  n.wait();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
  // DEPTH0: :[[@LINE-2]]:16: warning: 'h' is read before the asynchronous
}

//===--- Paths that never return to the caller -------------------------------===//
// An error check that aborts or throws between the copy and the sync does
// not leave the copy in flight for the caller: that path never returns.

[[noreturn]] void fail(const char *what);

void fetchCheckedAbort(float *dst, const float *src, cudaStream_t st) {
  cudaError_t e = cudaMemcpyAsync(dst, src, 64, cudaMemcpyDeviceToHost, st);
  if (e != cudaSuccess)
    fail("copy");
  cudaStreamSynchronize(st);
}

void fetchCheckedThrow(float *dst, const float *src, cudaStream_t st) {
  if (cudaMemcpyAsync(dst, src, 64, cudaMemcpyDeviceToHost, st) != cudaSuccess)
    throw 1;
  cudaStreamSynchronize(st);
}

// ... but one that returns early does.
void fetchCheckedReturn(float *dst, const float *src, cudaStream_t st) {
  if (cudaMemcpyAsync(dst, src, 64, cudaMemcpyDeviceToHost, st) != cudaSuccess)
    return;
  cudaStreamSynchronize(st);
}

void callersOfCheckedFetches(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  fetchCheckedAbort(h, d, s);
  consumeValue(h[0]);
  fetchCheckedThrow(h, d, s);
  consumeValue(h[0]);
  fetchCheckedReturn(h, d, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  cudaStreamSynchronize(s);
}

//===--- Member helpers that touch or fill member buffers --------------------===//

class Reader {
public:
  void fetch(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
  }
  float first() const { return h_[0]; }
  void wait() { cudaStreamSynchronize(s_); }

  void fetchThenFirst(const float *d) {
    fetch(d);
    consumeValue(first());
    // CHECK: :[[@LINE-1]]:18: warning: 'h_' is used by 'first' before
    wait();
    consumeValue(first());
  }

  float *h_;
  cudaStream_t s_;
};

void memberHelpersThroughObject(Reader &r, Reader &q, const float *d) {
  r.fetch(d);
  consumeValue(r.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'r.h_' is read before
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'r.h_' in flight on stream 'r.s_'
  consumeValue(q.first()); // another object's buffer
  r.wait();
  consumeValue(r.first());
}

//===--- Chains of helpers that leave the copy in flight ----------------------===//

void fetchLevel1(float *p, const float *d, cudaStream_t st) {
  cudaMemcpyAsync(p, d, 64, cudaMemcpyDeviceToHost, st);
}
void fetchLevel2(float *p, const float *d, cudaStream_t st) {
  fetchLevel1(p, d, st);
}

void copyThroughTwoHelpers(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  fetchLevel2(h, d, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  cudaStreamSynchronize(s);
}

//===--- Effects on members through more than one helper ----------------------===//

class Layered {
public:
  void fetch(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
  }
  void fetchOuter(const float *d) { fetch(d); }
  void doWait() { cudaStreamSynchronize(s_); }
  void wait() { doWait(); }
  void waitDeref() { (*this).doWait(); }
  void syncS(cudaStream_t st) { cudaStreamSynchronize(st); }
  void waitViaParam() { syncS(s_); }
  float first() const { return h_[0]; }
  float firstOuter() const { return first(); }
  float *h_;
  cudaStream_t s_;
};

void syncMemberOf(Layered &l) { cudaStreamSynchronize(l.s_); }
void syncMemberThrough(Layered *l) { cudaStreamSynchronize(l->s_); }

void layeredHelpers(Layered &l, const float *d) {
  l.fetchOuter(d);
  consumeValue(l.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'l.h_' is read before
  l.wait();
  consumeValue(l.h_[0]);
  l.fetch(d);
  consumeValue(l.firstOuter());
  // CHECK: :[[@LINE-1]]:16: warning: 'l.h_' is used by 'firstOuter' before
  l.waitDeref();
  consumeValue(l.h_[0]);
  l.fetch(d);
  l.waitViaParam();
  consumeValue(l.h_[0]);
  l.fetch(d);
  syncMemberOf(l);
  consumeValue(l.h_[0]);
  l.fetch(d);
  syncMemberThrough(&l);
  consumeValue(l.h_[0]);
}

void layeredThroughPointer(Layered *p, const float *d) {
  Layered other;
  p->fetch(d);
  syncMemberThrough(p);
  consumeValue(p->h_[0]);
  p->fetch(d);
  syncMemberThrough(&other);
  consumeValue(p->h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'p->h_' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'other.s_', not stream 'p->s_', the copy's stream
}

// A helper that synchronizes many streams: each counts.
struct Fleet {
  void waitAll() {
    cudaStreamSynchronize(s0);
    cudaStreamSynchronize(s1);
    cudaStreamSynchronize(s2);
    cudaStreamSynchronize(s3);
    cudaStreamSynchronize(s4);
    cudaStreamSynchronize(s5);
  }
  void waitSome() {
    cudaStreamSynchronize(s0);
    cudaStreamSynchronize(s1);
  }
  cudaStream_t s0, s1, s2, s3, s4, s5;
  float *h;
};

void fleetOfStreams(Fleet &f, const float *d) {
  cudaMemcpyAsync(f.h, d, 64, cudaMemcpyDeviceToHost, f.s5);
  f.waitAll();
  consumeValue(f.h[0]);
  // DEPTH0: :[[@LINE-1]]:16: warning: 'f.h' is read before
  cudaMemcpyAsync(f.h, d, 64, cudaMemcpyDeviceToHost, f.s5);
  f.waitSome();
  consumeValue(f.h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'f.h' is read before
  // DEPTH0: :[[@LINE-2]]:16: warning: 'f.h' is read before
}

// Member operators called as operators act on their object (argument 0).
struct Staged {
  void operator()(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
  }
  Staged &operator++() {
    cudaStreamSynchronize(s_);
    return *this;
  }
  float operator[](int i) const { return h_[i]; }
  float *h_;
  cudaStream_t s_;
};

void memberOperators(Staged &o, const float *d) {
  o(d);
  consumeValue(o[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'o.h_' is used by 'operator[]' before
  ++o;
  consumeValue(o[0]);
  consumeValue(o.h_[1]);
}

//===--- Member pipelines with events (issue 12, class 5) ------------------===//

// (At HelperDepth 0 the members are opaque and no copy is seen.)
// A member that records after its copy covers it (the record is applied
// after the copies the helper leaves in flight); one that waits on an event
// before reading is not a race where the caller's event covers the copy.
struct EventPipe {
  float *h_;
  const float *d_;
  cudaStream_t s_;
  cudaEvent_t ev_;
  void fetch() { cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, s_); }
  void start() {
    fetch();
    cudaEventRecord(ev_, s_);
  }
  float get() {
    cudaEventSynchronize(ev_);
    return h_[0];
  }
  float getTooEarly() {
    float v = h_[0];
    cudaEventSynchronize(ev_);
    return v;
  }
};

float startThenGet(EventPipe &p) {
  p.start();
  return p.get();
}

float startThenWaitHere(EventPipe &p) {
  p.start();
  cudaEventSynchronize(p.ev_);
  return p.h_[0];
}

float fetchRecordHereThenGet(EventPipe &p) {
  p.fetch();
  cudaEventRecord(p.ev_, p.s_);
  return p.get();
}

float startThenGetTooEarly(EventPipe &p) {
  p.start();
  return p.getTooEarly();
  // CHECK: :[[@LINE-1]]:10: warning: 'p.h_' is used by 'getTooEarly' before
}

// No record after the copy: get()'s wait does not cover it.
float fetchThenGet(EventPipe &p) {
  p.fetch();
  return p.get();
  // CHECK: :[[@LINE-1]]:10: warning: 'p.h_' is used by 'get' before
}

float recordBeforeFetchThenGet(EventPipe &p) {
  cudaEventRecord(p.ev_, p.s_);
  p.fetch();
  return p.get();
  // CHECK: :[[@LINE-1]]:10: warning: 'p.h_' is used by 'get' before
}

// The same with the event a parameter.
float waitThenRead(float *h, cudaEvent_t e) {
  cudaEventSynchronize(e);
  return h[0];
}
float recordThenHelperWaits(float *h, const float *d, cudaStream_t s,
                            cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  return waitThenRead(h, e);
  // DEPTH0: :[[@LINE-1]]:23: warning: 'h' is passed to 'waitThenRead' before
}
float noRecordHelperWaits(float *h, const float *d, cudaStream_t s,
                          cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return waitThenRead(h, e);
  // CHECK: :[[@LINE-1]]:23: warning: 'h' is passed to 'waitThenRead' before
  // DEPTH0: :[[@LINE-2]]:23: warning: 'h' is passed to 'waitThenRead' before
}

//===--- Joins across streams in a helper (issue 12, class 6) --------------===//

// graphMemoryNodes' doNegateSquaresInStream: the copy is on the helper's
// own stream, which records an event after it; the caller's stream waits
// for that event, so the caller's sync of its stream covers the copy.
void copyOnOwnStreamJoined(cudaStream_t stream1, float *h, const float *d) {
  cudaStream_t stream2;
  cudaEvent_t done;
  cudaStreamCreateWithFlags(&stream2, cudaStreamNonBlocking);
  cudaEventCreate(&done);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, stream2);
  cudaEventRecord(done, stream2);
  cudaStreamWaitEvent(stream1, done, 0);
  cudaStreamDestroy(stream2);
}
// The same without the wait: the copy is on a stream the caller cannot name.
void copyOnOwnStreamNotJoined(cudaStream_t stream1, float *h, const float *d) {
  cudaStream_t stream2;
  cudaEvent_t done;
  cudaStreamCreateWithFlags(&stream2, cudaStreamNonBlocking);
  cudaEventCreate(&done);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, stream2);
  cudaEventRecord(done, stream2);
  cudaStreamDestroy(stream2);
}

void joinedThenSyncCallerStream(cudaStream_t s, float *h, const float *d) {
  copyOnOwnStreamJoined(s, h, d);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void joinedThenSyncAnotherStream(cudaStream_t s, cudaStream_t t, float *h,
                                 const float *d) {
  copyOnOwnStreamJoined(s, h, d);
  cudaStreamSynchronize(t);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A helper that joins two of the caller's streams (`join(waiter,
// signaler)`: a record on signaler, a wait of waiter; torch's wait_stream):
// the caller's copy on the signaler is covered by a later sync of the
// waiter (runtime/cases/wait_event_then_sync_other.cu; the third
// adversarial round's program 07).
static void joinStreams(cudaStream_t waiter, cudaStream_t signaler,
                        cudaEvent_t ev) {
  cudaEventRecord(ev, signaler);
  cudaStreamWaitEvent(waiter, ev, 0);
}
float copyJoinedIntoMainThenSyncMain(float *h, const float *d,
                                     cudaStream_t main, cudaStream_t side,
                                     cudaEvent_t ev) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, side);
  joinStreams(main, side, ev);
  cudaStreamSynchronize(main);
  return h[0];
  // DEPTH0: :[[@LINE-1]]:10: warning: 'h' is read before
}
float copyJoinedTheOtherWay(float *h, const float *d, cudaStream_t main,
                            cudaStream_t side, cudaEvent_t ev) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, side);
  joinStreams(side, main, ev);
  cudaStreamSynchronize(main);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
  // DEPTH0: :[[@LINE-2]]:10: warning: 'h' is read before
}
float copyAfterTheJoin(float *h, const float *d, cudaStream_t main,
                       cudaStream_t side, cudaEvent_t ev) {
  joinStreams(main, side, ev);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, side);
  cudaStreamSynchronize(main);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
  // DEPTH0: :[[@LINE-2]]:10: warning: 'h' is read before
}

// A helper that makes a stream wait for an event the caller recorded
// (`after(waiter, e)`, a namespace's ordering helper): a later host sync of
// the waiter covers what the event covers (the fourth adversarial round's
// program 31, as a host read).
static void afterEvent(cudaStream_t waiter, cudaEvent_t e) {
  cudaStreamWaitEvent(waiter, e, 0);
}
static void markEvent(cudaEvent_t e, cudaStream_t s) { cudaEventRecord(e, s); }
float copyMarkedWaitedThenSyncWaiter(float *h, const float *d,
                                     cudaStream_t main, cudaStream_t side,
                                     cudaEvent_t ev) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, side);
  markEvent(ev, side);
  afterEvent(main, ev);
  cudaStreamSynchronize(main);
  return h[0];
  // DEPTH0: :[[@LINE-1]]:10: warning: 'h' is read before
}
float copyRecordedWaitedThenSyncWaiter(float *h, const float *d,
                                       cudaStream_t main, cudaStream_t side,
                                       cudaEvent_t ev) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, side);
  cudaEventRecord(ev, side);
  afterEvent(main, ev);
  cudaStreamSynchronize(main);
  return h[0];
  // DEPTH0: :[[@LINE-1]]:10: warning: 'h' is read before
}
float eventMarkedBeforeTheCopy(float *h, const float *d, cudaStream_t main,
                               cudaStream_t side, cudaEvent_t ev) {
  markEvent(ev, side);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, side);
  afterEvent(main, ev);
  cudaStreamSynchronize(main);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
  // DEPTH0: :[[@LINE-2]]:10: warning: 'h' is read before
}
float waitedButOtherStreamSynced(float *h, const float *d, cudaStream_t main,
                                 cudaStream_t side, cudaStream_t third,
                                 cudaEvent_t ev) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, side);
  cudaEventRecord(ev, side);
  afterEvent(main, ev);
  cudaStreamSynchronize(third);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
  // DEPTH0: :[[@LINE-2]]:10: warning: 'h' is read before
}

void joinedButNotSynced(cudaStream_t s, float *h, const float *d) {
  copyOnOwnStreamJoined(s, h, d);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void notJoinedThenSyncCallerStream(cudaStream_t s, float *h, const float *d) {
  copyOnOwnStreamNotJoined(s, h, d);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

//===--- A constant argument that decides the helper's branch ---===//
// The helper's summary is per value of a parameter its branches test
// (`copyToHost(..., Behavior::Sync)` takes the blocking branch); a value
// not known at the call, or a parameter the helper changes, is any value.

enum class Behavior { Sync, Async };

void copyByBehavior(float *h, const float *d, Behavior b, cudaStream_t s) {
  if (b == Behavior::Sync)
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  else
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
}

void copyThenMaybeWait(float *h, const float *d, int wait, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (wait != 0)
    cudaStreamSynchronize(s);
}

void forwardsBehavior(float *h, const float *d, Behavior b, cudaStream_t s) {
  copyByBehavior(h, d, b, s);
}

void waitFlagOverwritten(float *h, const float *d, bool wait, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  wait = !wait;
  if (wait)
    cudaStreamSynchronize(s);
}

void syncBehavior(float *h, const float *d, cudaStream_t s) {
  copyByBehavior(h, d, Behavior::Sync, s);
  consumeValue(h[0]);
}

void asyncBehavior(float *h, const float *d, cudaStream_t s) {
  copyByBehavior(h, d, Behavior::Async, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void behaviorOfCaller(float *h, const float *d, Behavior b, cudaStream_t s) {
  copyByBehavior(h, d, b, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void syncBehaviorTwoLevels(float *h, const float *d, cudaStream_t s) {
  forwardsBehavior(h, d, Behavior::Sync, s);
  consumeValue(h[0]);
}

void intFlagSet(float *h, const float *d, cudaStream_t s) {
  copyThenMaybeWait(h, d, 1, s);
  consumeValue(h[0]);
}

void intFlagClear(float *h, const float *d, cudaStream_t s) {
  copyThenMaybeWait(h, d, 0, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void flagChangedInHelper(float *h, const float *d, cudaStream_t s) {
  waitFlagOverwritten(h, d, false, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

//===--- Helpers that synchronize a default stream ------------------------===//
// Every caller names the legacy and per-thread default streams alike: a
// helper that synchronizes one (or makes a blocking transfer, a sync of the
// legacy stream) synchronizes it at each call.
static void syncLegacy() { cudaStreamSynchronize(0); }
static void blockingCopyOut(float *a, const float *b) {
  cudaMemcpy(a, b, 4, cudaMemcpyDeviceToHost);
}
float legacyCopyLegacyHelper(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  syncLegacy();
  return h[0];
  // DEPTH0: :[[@LINE-1]]:10: warning: 'h' is read before
}
float legacyCopyBlockingHelper(float *h, float *o, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  blockingCopyOut(o, d);
  return h[0];
  // DEPTH0: :[[@LINE-1]]:10: warning: 'h' is read before
}
float nonBlockingCopyLegacyHelper(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncLegacy();
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
  // DEPTH0: :[[@LINE-2]]:10: warning: 'h' is read before
}

//===--- Helpers that read a buffer after syncing the legacy stream -------===//
// A helper that synchronizes the legacy default stream (here by a blocking
// cudaMemcpy) before it reads its buffer parameter: a copy the caller left
// on a blocking stream the helper does not name is complete by then, since
// the legacy stream waits for every blocking stream's earlier work; one on
// a non-blocking stream is not, nor is one left to a per-thread sync.
static float readAfterBlockingCopy(float *h, float *o, const float *d) {
  cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
  return h[0];
}
static float readAfterPerThreadSync(float *h) {
  cudaStreamSynchronize(cudaStreamPerThread);
  return h[0];
}
float blockingStreamThenLegacyHelper(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return readAfterBlockingCopy(h, o, d);
  // DEPTH0: :[[@LINE-1]]:32: warning: 'h' is passed to
}
float nonBlockingStreamThenLegacyHelper(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return readAfterBlockingCopy(h, o, d);
  // CHECK: :[[@LINE-1]]:32: warning: 'h' is passed to 'readAfterBlockingCopy' before
  // DEPTH0: :[[@LINE-2]]:32: warning: 'h' is passed to
}
float blockingStreamThenPerThreadHelper(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return readAfterPerThreadSync(h);
  // CHECK: :[[@LINE-1]]:33: warning: 'h' is passed to 'readAfterPerThreadSync' before
  // DEPTH0: :[[@LINE-2]]:33: warning: 'h' is passed to
}
// A copy on the per-thread default stream meets the helper's sync of that
// stream (the summary's per-thread seed; a generated program's false
// warning): complete when the helper reads it.
float perThreadStreamThenPerThreadHelper(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  return readAfterPerThreadSync(h);
  // DEPTH0: :[[@LINE-1]]:33: warning: 'h' is passed to
}
static float readAfterOwnStreamSync(float *h, cudaStream_t mine) {
  cudaStreamSynchronize(mine);
  return h[0];
}
float perThreadStreamThenOtherStreamHelper(float *h, const float *d,
                                           cudaStream_t other) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  return readAfterOwnStreamSync(h, other);
  // CHECK: :[[@LINE-1]]:33: warning: 'h' is passed to 'readAfterOwnStreamSync' before
  // DEPTH0: :[[@LINE-2]]:33: warning: 'h' is passed to
}
float perThreadStreamThenPerThreadArgument(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  return readAfterOwnStreamSync(h, cudaStreamPerThread);
  // DEPTH0: :[[@LINE-1]]:33: warning: 'h' is passed to
}

//===--- A legacy-stream sync in a helper and the caller's stream ----------===//
// In a helper, a stream parameter may be the caller's non-blocking stream:
// the helper's blocking cudaMemcpy (a sync of the legacy stream) completes
// a copy on it only at a caller whose stream is blocking.
static void fetchThenBlockingCopy(float *h, float *o, const float *d,
                                  cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
}
float leftOnNonBlockingStream(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  fetchThenBlockingCopy(h, o, d, s);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
}
float leftOnBlockingStream(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  fetchThenBlockingCopy(h, o, d, s);
  return h[0];
}
static void drainThroughLegacy(cudaStream_t s, float *o, const float *d) {
  (void)s;
  cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
}
float drainedNonBlocking(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  drainThroughLegacy(s, o, d);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
  // DEPTH0: :[[@LINE-2]]:10: warning: 'h' is read before
}
float drainedBlocking(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  drainThroughLegacy(s, o, d);
  return h[0];
  // DEPTH0: :[[@LINE-1]]:10: warning: 'h' is read before
}
static float readAfterLegacy(float *h, float *o, const float *d,
                             cudaStream_t s) {
  (void)s;
  cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
  return h[0];
}
float readerOnNonBlocking(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return readAfterLegacy(h, o, d, s);
  // CHECK: :[[@LINE-1]]:26: warning: 'h' is passed to 'readAfterLegacy' before
  // DEPTH0: :[[@LINE-2]]:26: warning: 'h' is passed to
}
float readerOnBlocking(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return readAfterLegacy(h, o, d, s);
  // DEPTH0: :[[@LINE-1]]:26: warning: 'h' is passed to
}

//===--- A prototype before the calls, the definition after ---------------===//

// The summary names the definition's parameters, and the calls name the
// prototype: a member of the parameter is still the argument's.
struct Download {
  cudaStream_t s;
  float *h;
  const float *d;
};
void startDownload(Download &dl);
float downloadRead(Download &dl) {
  startDownload(dl);
  return dl.h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'dl.h' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'dl.h' in flight on stream 'dl.s'
}
float downloadSyncedRead(Download &dl) {
  startDownload(dl);
  cudaStreamSynchronize(dl.s);
  return dl.h[0];
}
void startDownload(Download &d) {
  cudaMemcpyAsync(d.h, d.d, 64, cudaMemcpyDeviceToHost, d.s);
}
