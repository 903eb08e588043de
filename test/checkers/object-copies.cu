// Copies of objects holding buffers and streams, and structured bindings
// of them. An object copied by an implicit or defaulted copy constructor
// holds what its source held, member by member (C++ [class.copy.ctor]):
// `Stage c = st;` makes `c.s` the stream `st.s` is and `c.h` the buffer
// `st.h` points to, while neither changes. A structured binding names the
// member or element its binding expression names ([dcl.struct.bind]):
// `auto &[h, d, s] = st;` makes `h` `st.h`; `auto [h, d, s] = st;` makes
// it the member of a copy of st, as above.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

void consume(float);

struct Stage {
  float *h;
  float *d;
  cudaStream_t s;
};

//===--- Copies of an object ------------------------------------------------===//

// The copy's stream is the source's: a sync of the source's covers it.
void copySyncedThroughSource(Stage &st) {
  Stage c = st;
  cudaMemcpyAsync(c.h, c.d, 64, cudaMemcpyDeviceToHost, c.s);
  cudaStreamSynchronize(st.s);
  consume(c.h[0]);
}

void localCopySyncedThroughSource() {
  Stage st;
  cudaMallocHost(&st.h, 64);
  cudaMalloc(&st.d, 64);
  cudaStreamCreate(&st.s);
  Stage c = st;
  cudaMemcpyAsync(c.h, c.d, 64, cudaMemcpyDeviceToHost, c.s);
  cudaStreamSynchronize(st.s);
  consume(c.h[0]);
}

// The copy's buffer is the source's: reading it through the source races.
void readThroughSource() {
  Stage st;
  cudaMallocHost(&st.h, 64);
  cudaMalloc(&st.d, 64);
  cudaStreamCreate(&st.s);
  Stage c = st;
  cudaMemcpyAsync(c.h, c.d, 64, cudaMemcpyDeviceToHost, c.s);
  consume(st.h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'st.h' is read before the asynchronous device-to-host copy into it is known to be complete
}

// A copy whose stream is given another value holds another stream.
void copyGivenOtherStream(Stage &st, cudaStream_t other) {
  Stage c = st;
  c.s = other;
  cudaMemcpyAsync(c.h, c.d, 64, cudaMemcpyDeviceToHost, c.s);
  cudaStreamSynchronize(st.s);
  consume(c.h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'c.h' is read before the asynchronous device-to-host copy into it is known to be complete
}

// A copy constructor of the project's may do anything (make a new
// stream): its copy's stream is not taken for the source's.
struct OwnStream {
  float *h;
  float *d;
  cudaStream_t s;
  OwnStream(const OwnStream &o);
};
void userCopyConstructor(OwnStream &st) {
  OwnStream c = st;
  cudaMemcpyAsync(c.h, c.d, 64, cudaMemcpyDeviceToHost, c.s);
  consume(st.h[0]);
}

//===--- Structured bindings ------------------------------------------------===//

void bindingRead(Stage &st) {
  auto &[h, d, s] = st;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void bindingReadThroughObject(Stage &st) {
  auto &[h, d, s] = st;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(st.h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'st.h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void objectCopyReadThroughBinding(Stage &st) {
  auto &[h, d, s] = st;
  cudaMemcpyAsync(st.h, st.d, 64, cudaMemcpyDeviceToHost, st.s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void bindingSyncedThroughObject(Stage &st) {
  auto &[h, d, s] = st;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(st.s);
  consume(h[0]);
}

// By value: the bindings name the members of a copy of st.
void bindingByValueRead(Stage &st) {
  auto [h, d, s] = st;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(st.h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'st.h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void bindingByValueSynced(Stage &st) {
  auto [h, d, s] = st;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(st.s);
  consume(h[0]);
}

// Bindings of an array of buffers: its elements.
void bindingArrayElements(float *d, cudaStream_t s) {
  float *bufs[2];
  cudaMallocHost(&bufs[0], 64);
  cudaMallocHost(&bufs[1], 64);
  auto &[first, second] = bufs;
  cudaMemcpyAsync(first, d, 64, cudaMemcpyDeviceToHost, s);
  consume(bufs[0][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'bufs[0]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  consume(second[0]);
}
