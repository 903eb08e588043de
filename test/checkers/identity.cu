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

// A pointer can point elsewhere by the time it is used: not looked through.
void syncThroughStreamPointer(float *h, const float *d, cudaStream_t s) {
  cudaStream_t *sp = &s;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(*sp);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
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

void referenceToAnotherObject(Reader &r, Reader &q, const float *d) {
  Reader &a = q;
  r.fetch(d);
  a.wait();
  consumeValue(r.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'r.h_' is read before
}

//===--- What a reference is not taken to name ----------------------------===//

// A reference bound to an element is its own name: the index may change
// after the binding (a round-robin index), and elements of an array are one
// buffer, so a double buffer's halves would be taken for one.
void roundRobinReference(float *h, const float *d, cudaStream_t *streams,
                         int i) {
  cudaStream_t &cur = streams[i];
  i = (i + 1) % 4;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cur);
  cudaStreamSynchronize(streams[i]);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'streams[i]', not stream 'cur', the copy's stream
}

void frontAndBackBuffers(Reader (&rs)[2], const float *d) {
  Reader &back = rs[0];
  Reader &front = rs[1];
  back.fetch(d);
  consumeValue(front.h_[0]);
  back.wait();
}

void eventSlotReference(float *h, const float *d, cudaStream_t s,
                        cudaEvent_t *evs, int i) {
  cudaEvent_t &e = evs[i];
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  ++i;
  cudaEventRecord(evs[i], s);
  cudaEventSynchronize(e);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// Through a pointer other than `this`: the pointer may be rebound.
void referenceThroughReboundPointer(float *h, const float *d, Streams *p,
                                    Streams *q) {
  cudaStream_t &cs = p->copy;
  p = q;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cs);
  cudaStreamSynchronize(p->copy);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A reference bound to what a call returns is its own name: two calls may
// return different objects.
cudaStream_t &streamOf(Streams &st);
void referenceToCallResult(Streams &st, float *h, const float *d) {
  cudaStream_t &r = streamOf(st);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, st.copy);
  cudaStreamSynchronize(r);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
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

void syncAnotherObjectsCallResult(Worker &w, Worker &x, const float *d) {
  w.fetch(d);
  cudaStreamSynchronize(x.sv_.value());
  consumeValue(w.h_[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'w.h_' is read before
  // CHECK: :[[@LINE-4]]:3: note: this call leaves an asynchronous device-to-host copy into 'w.h_' in flight on stream 'w.sv_.value()'
}
