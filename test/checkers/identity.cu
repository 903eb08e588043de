// Identity of streams, events and buffers: a local reference names the object
// it is bound to (C++ [dcl.ref]: a reference cannot be rebound), so a sync
// through the reference is a sync of the object, and a copy through it is a
// copy into the object. Not looked through: pointers and subscripts (the
// pointer or the index may change after the binding), call results.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
void consumeValue(float v);

//===--- A reference to a stream or an event ------------------------------===//

void syncThroughStreamReference(float *h, const float *d, cudaStream_t s) {
  cudaStream_t &sr = s;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(sr);
  consumeValue(h[0]);
}

void syncThroughReferenceToAnotherStream(float *h, const float *d,
                                         cudaStream_t s, cudaStream_t t) {
  cudaStream_t &tr = t;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(tr);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'tr', not stream 's', the copy's stream
}

struct Streams {
  cudaStream_t copy, compute;
  cudaEvent_t done;
};

void syncThroughReferenceToMember(Streams &st, float *h, const float *d) {
  cudaStream_t &cs = st.copy;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, st.copy);
  cudaStreamSynchronize(cs);
  consumeValue(h[0]);
}

void eventThroughReference(Streams &st, float *h, const float *d) {
  cudaEvent_t &e = st.done;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, st.copy);
  cudaEventRecord(st.done, st.copy);
  cudaEventSynchronize(e);
  consumeValue(h[0]);
}

void eventThroughReferenceRecordedBefore(Streams &st, float *h,
                                         const float *d) {
  cudaEvent_t &e = st.done;
  cudaEventRecord(e, st.copy);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, st.copy);
  cudaEventSynchronize(st.done);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-5]]:3: note: event 'st.done' was recorded before the copy
}

// A pointer is not looked through (it can point elsewhere by the time it
// is used), but what it points to may be the copy's stream: the check does
// not claim that it is another.
void syncThroughStreamPointer(float *h, const float *d, cudaStream_t s) {
  cudaStream_t *sp = &s;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(*sp);
  consumeValue(h[0]);
}

// Through a pointer to another stream: silent too, a miss the check accepts
// rather than claim that a pointer's target differs (docs: limits).
void syncThroughPointerToOtherStream(float *h, const float *d,
                                     cudaStream_t s, cudaStream_t t) {
  cudaStream_t *tp = &t;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(*tp);
  consumeValue(h[0]);
}

//===--- A reference to an object whose member helpers copy and sync ------===//

struct Reader {
  void fetch(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
  }
  void wait() { cudaStreamSynchronize(s_); }
  float *h_;
  cudaStream_t s_;
};

void waitThroughObjectReference(Reader &r, const float *d) {
  Reader &a = r;
  r.fetch(d);
  a.wait();
  consumeValue(r.h_[0]);
}

void fetchThroughObjectReference(Reader &r, const float *d) {
  Reader &a = r;
  a.fetch(d);
  consumeValue(r.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'r.h_' is read before
  a.wait();
  consumeValue(r.h_[1]);
}

// Two reference parameters may name one object: the check does not claim
// that q's stream is another than r's.
void referenceToAnotherReference(Reader &r, Reader &q, const float *d) {
  Reader &a = q;
  r.fetch(d);
  a.wait();
  consumeValue(r.h_[0]);
}

// A local object is not the one a reference parameter names.
void referenceToAnotherObject(Reader &r, const float *d) {
  Reader q;
  Reader &a = q;
  r.fetch(d);
  a.wait();
  consumeValue(r.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'r.h_' is read before
}

//===--- What a reference is not taken to name ----------------------------===//

// A reference bound to an element is its own name: the index may change
// after the binding (a round-robin index), and elements of an array are one
// buffer, so a double buffer's halves would be taken for one. Whether it
// still names streams[i] the check cannot tell, so it does not claim
// another stream (a miss it accepts).
void roundRobinReference(float *h, const float *d, cudaStream_t *streams,
                         int i) {
  cudaStream_t &cur = streams[i];
  i = (i + 1) % 4;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cur);
  cudaStreamSynchronize(streams[i]);
  consumeValue(h[0]);
}

void frontAndBackBuffers(Reader (&rs)[2], const float *d) {
  Reader &back = rs[0];
  Reader &front = rs[1];
  back.fetch(d);
  consumeValue(front.h_[0]);
  back.wait();
}

// The same for an event slot: e names evs[i] before the increment, which
// the check cannot tell from evs[i] after it; it does not claim that they
// differ (a miss it accepts).
void eventSlotReference(float *h, const float *d, cudaStream_t s,
                        cudaEvent_t *evs, int i) {
  cudaEvent_t &e = evs[i];
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  ++i;
  cudaEventRecord(evs[i], s);
  cudaEventSynchronize(e);
  consumeValue(h[0]);
}

// Through a pointer other than `this`: the pointer may be rebound, so cs
// is not taken for p->copy; nor is it claimed to be another stream (q may
// be p): silent.
void referenceThroughReboundPointer(float *h, const float *d, Streams *p,
                                    Streams *q) {
  cudaStream_t &cs = p->copy;
  p = q;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cs);
  cudaStreamSynchronize(p->copy);
  consumeValue(h[0]);
}

// A reference bound to what a call returns is its own name: two calls may
// return different objects, and this one may return st.copy: silent.
cudaStream_t &streamOf(Streams &st);
void referenceToCallResult(Streams &st, float *h, const float *d) {
  cudaStream_t &r = streamOf(st);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, st.copy);
  cudaStreamSynchronize(r);
  consumeValue(h[0]);
}

// A reference to a local stream is that stream: another local is another.
void referenceToAnotherLocal(float *h, const float *d) {
  cudaStream_t s, t;
  cudaStream_t &tr = t;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(tr);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'tr', not stream 's', the copy's stream
}

// A member helper's reference to a member of `this` names that member.
struct Syncer {
  void wait() {
    cudaStream_t &s = s_;
    cudaStreamSynchronize(s);
  }
  float *h_;
  cudaStream_t s_;
};

void memberReferenceInHelper(Syncer &y, const float *d) {
  cudaMemcpyAsync(y.h_, d, 64, cudaMemcpyDeviceToHost, y.s_);
  y.wait();
  consumeValue(y.h_[0]);
}

// References that use themselves in their initializer (ill-formed in
// spirit, accepted by clang with a warning) must not send the check into
// endless recursion.
struct Slot {
  int next;
};
int slotFor(const void *p);
void selfReferentialReferences(const float *d, cudaStream_t *streams,
                               int *slots, Slot *ring) {
  float *h;
  cudaMallocHost(&h, 64);
  int &slot = slots[slot];
  Slot &cur = ring[cur.next];
  cudaStream_t &s = streams[slotFor(&s)];
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[slot]);
  cudaStreamSynchronize(streams[slot]);
  consumeValue(h[cur.next]);
  cudaStreamSynchronize(s);
}

//===--- The same member function called on the same object ----------------===//

// A stream named by a call on a member (`sv_.value()`, as with
// rmm::cuda_stream_view) is rebased with the member at a helper's call.
struct StreamView {
  cudaStream_t value() const;
};
struct Worker {
  void fetch(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, sv_.value());
  }
  float *h_;
  StreamView sv_;
};

void syncTheSameCallResult(Worker &w, const float *d) {
  w.fetch(d);
  cudaStreamSynchronize(w.sv_.value());
  consumeValue(w.h_[0]);
}

// Another object's call result may be the same stream (StreamView is not a
// stream wrapper: value() may return anything): not claimed to differ.
void syncAnotherObjectsCallResult(Worker &w, const float *d) {
  Worker x;
  w.fetch(d);
  cudaStreamSynchronize(x.sv_.value());
  consumeValue(w.h_[0]);
}

// Nor another stream: value() may return it. Without a sync, it warns.
void syncAnotherStreamAfterCallResult(Worker &w, const float *d,
                                      cudaStream_t other) {
  w.fetch(d);
  cudaStreamSynchronize(other);
  consumeValue(w.h_[0]);
}
void noSyncAfterCallResult(Worker &w, const float *d) {
  w.fetch(d);
  consumeValue(w.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'w.h_' is read before
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'w.h_' in flight on stream 'w.sv_.value()'
}

// A trivial accessor (`return s_;`, visible) names the member it returns.
struct Ctx {
  cudaStream_t stream() const { return s_; }
  cudaStream_t s_, other_;
};
void trivialAccessor(Ctx &c, float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, c.stream());
  cudaStreamSynchronize(c.s_);
  consumeValue(h[0]);
}
void trivialAccessorOtherMember(Ctx &c, float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, c.stream());
  cudaStreamSynchronize(c.other_);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'c.other_', not stream 'c.stream()', the copy's stream
}

// A CRTP base names the derived class's members through `static_cast<D
// *>(this)` or a reference bound to `static_cast<D &>(*this)`: members of
// `this` as well, in an accessor and in a helper that syncs.
template <class D> struct SyncsOwnStream {
  cudaStream_t stream() { return static_cast<D *>(this)->s_; }
  void syncByAccessor() { cudaStreamSynchronize(stream()); }
  void syncByReference() {
    D &self = static_cast<D &>(*this);
    cudaStreamSynchronize(self.s_);
  }
  void syncOther() { cudaStreamSynchronize(static_cast<D *>(this)->other_); }
};
struct Fetcher : SyncsOwnStream<Fetcher> {
  cudaStream_t s_, other_;
  float *h_;
  const float *d_;
  float byAccessor() {
    cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, s_);
    syncByAccessor();
    return h_[0];
  }
  float byReference() {
    cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, s_);
    syncByReference();
    return h_[0];
  }
  float otherMember() {
    cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, stream());
    syncOther();
    return h_[0];
    // CHECK: :[[@LINE-1]]:12: warning: 'h_' is read before
  }
};

// A CRTP base's `self()` (`return static_cast<D &>(*this);`) is the object
// itself: member functions called on it are called on `this`.
template <class D> struct TransferBase {
  void run() {
    self().issue();
    self().finish();
  }
  D &self() { return static_cast<D &>(*this); }
};
struct RecordsOnly : TransferBase<RecordsOnly> {
  float *host;
  const float *dev;
  cudaStream_t stream;
  cudaEvent_t done;
  void issue() { cudaMemcpyAsync(host, dev, 64, cudaMemcpyDeviceToHost, stream); }
  void finish() { cudaEventRecord(done, stream); }
};
struct Synchronizes : TransferBase<Synchronizes> {
  float *host;
  const float *dev;
  cudaStream_t stream;
  void issue() { cudaMemcpyAsync(host, dev, 64, cudaMemcpyDeviceToHost, stream); }
  void finish() { cudaStreamSynchronize(stream); }
};
void crtpSelfRecordsOnly(RecordsOnly &t) {
  t.run();
  consumeValue(t.host[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 't.host' is read before
}
void crtpSelfRecordedThenSynced(RecordsOnly &t) {
  t.run(); // finish() records t.done after the copy, through run()
  cudaEventSynchronize(t.done);
  consumeValue(t.host[0]);
}
void crtpSelfSynchronizes(Synchronizes &t) {
  t.run();
  consumeValue(t.host[0]);
}
