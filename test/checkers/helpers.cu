// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Helpers defined in the same translation unit: syncing helpers, helpers
// that touch the buffer, helpers that issue the copy, recursion and the
// depth bound.

#include <cuda_runtime.h>
#include <cstdio>

void consumeValue(float v);

//===--- Helpers that synchronize ---===//

void syncIt(cudaStream_t s) { cudaStreamSynchronize(s); }

void helperSyncsTheStream(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncIt(s);
  consumeValue(h[0]);
}

void helperSyncsAnotherStream(const float *d, cudaStream_t s, cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncIt(t);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: this synchronizes stream 't', not stream 's', the copy's stream
}

void syncSometimes(cudaStream_t s, bool c) {
  if (c)
    cudaStreamSynchronize(s);
}

void helperSyncsOnOnePathOnly(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncSometimes(s, c);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void syncEverything() { cudaDeviceSynchronize(); }

void helperSyncsTheDevice(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncEverything();
  consumeValue(h[0]);
}

void doesNothing() {}

void helperThatDoesNotSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  doesNothing();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Helpers that touch the buffer ---===//

void use(const float *p) { printf("%f\n", p[0]); }

void passedToReadingHelper(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  use(h);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'use' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void passedToReadingHelperAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  use(h);
}

void syncThenRead(const float *p, cudaStream_t s) {
  cudaStreamSynchronize(s);
  consumeValue(p[0]);
}

void helperSyncsAnotherStreamThenReads(const float *d, cudaStream_t s,
                                       cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  syncThenRead(h, t);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'syncThenRead' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Helpers that issue the copy ---===//

void copyToHost(float *dst, const float *src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, s);
}

void readAfterCopyingHelper(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  copyToHost(h, d, 64, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-10]]:{{[0-9]+}}: note: the copy is issued here
}

void syncAfterCopyingHelper(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  copyToHost(h, d, 64, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void copyingHelperIntoPageable(const float *d, cudaStream_t s) {
  float h[16];
  copyToHost(h, d, sizeof(h), s);
  consumeValue(h[0]);
}

void copyAndSync(float *dst, const float *src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

void readAfterCopyAndSyncHelper(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  copyAndSync(h, d, 64, s);
  consumeValue(h[0]);
}

//===--- Recursion and depth ---===//

void recursiveSync(cudaStream_t s, int n) {
  if (n > 0)
    recursiveSync(s, n - 1);
}

void recursiveHelperDoesNotHang(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  recursiveSync(s, 3);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void mutualB(const float *p, cudaStream_t s, int n);
void mutualA(const float *p, cudaStream_t s, int n) {
  if (n > 0)
    mutualB(p, s, n - 1);
}
void mutualB(const float *p, cudaStream_t s, int n) {
  if (n > 0)
    mutualA(p, s, n - 1);
}

void mutualRecursionDoesNotHang(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  mutualA(h, s, 4);
}

void level4(cudaStream_t s) { cudaStreamSynchronize(s); }
void level3(cudaStream_t s) { level4(s); }
void level2(cudaStream_t s) { level3(s); }
void level1(cudaStream_t s) { level2(s); }

void syncWithinTheDepthBound(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  level2(s);
  consumeValue(h[0]);
}

//===--- Helpers named like an API (issue 12, class 8) ---===//

// A function named like the CUDA API whose body is visible is the
// project's own helper: looked through, not taken for an unknown API.
void cudaSyncOrDie(cudaStream_t s) {
  if (cudaStreamSynchronize(s) != cudaSuccess)
    __builtin_trap();
}
void cuda_copy_to_host(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
}
void cudaPeek(const float *h) { consumeValue(h[0]); }
// Declared only: an unknown API, neither a sync nor an access.
void cudaSomethingElse(cudaStream_t s);
void cudaUse(const float *h);

void apiNamedSyncHelper(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaSyncOrDie(s);
  consumeValue(h[0]);
}

void apiNamedCopyHelper(float *h, const float *d, cudaStream_t s) {
  cuda_copy_to_host(h, d, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void apiNamedAccessHelper(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaPeek(h);
  // CHECK: :[[@LINE-1]]:12: warning: 'h' is passed to 'cudaPeek' before
  cudaStreamSynchronize(s);
}

void apiNamedWithoutBody(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaSomethingElse(s);
  cudaUse(h);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

//===--- A copy wrapper whose direction is a parameter ---===//

// Paddle's GpuMemcpyAsync, TensorRT's buffers.h: the caller's constant kind
// is bound into the wrapper's summary (one summary per kind).
void memcpyAsyncWrapper(void *dst, const void *src, size_t bytes,
                        cudaMemcpyKind kind, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, bytes, kind, s);
}

void wrapperDeviceToHost(float *h, const float *d, cudaStream_t s) {
  memcpyAsyncWrapper(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
}

void wrapperDeviceToHostSynced(float *h, const float *d, cudaStream_t s) {
  memcpyAsyncWrapper(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void wrapperHostToDevice(float *d, const float *h, cudaStream_t s) {
  memcpyAsyncWrapper(d, h, 64, cudaMemcpyHostToDevice, s);
  consumeValue(d[0]);
}

void wrapperKindFromAVariable(float *h, const float *d, cudaStream_t s,
                              cudaMemcpyKind kind) {
  memcpyAsyncWrapper(h, d, 64, kind, s);
  consumeValue(h[0]);
}

//===--- A helper that returns the destination ---===//

// `float *h = download(p, d, s)`: the result is the argument, with the copy
// still in flight.
float *download(float *p, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(p, d, 64, cudaMemcpyDeviceToHost, s);
  return p;
}

void returnedDestinationRead(float *p, const float *d, cudaStream_t s) {
  float *h = download(p, d, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void returnedDestinationSynced(float *p, const float *d, cudaStream_t s) {
  float *h = download(p, d, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

// A helper that allocates the pinned destination and returns it with the
// copy in flight: the call's result is the destination, in a variable, an
// assignment or a temporary its consumer reads.
float *downloadNew(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return h;
}

void allocatedDestinationRead(const float *d, cudaStream_t s) {
  float *h = downloadNew(d, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:14: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-9]]:3: note: the copy is issued here
}

void allocatedDestinationAssigned(const float *d, cudaStream_t s,
                                  cudaStream_t t) {
  float *h = nullptr;
  h = downloadNew(d, s);
  cudaStreamSynchronize(t);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 't', not stream 's', the copy's stream
}

float allocatedDestinationTemporary(const float *d, cudaStream_t s) {
  return downloadNew(d, s)[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'downloadNew(d, s)' is read before
}

void allocatedDestinationSynced(const float *d, cudaStream_t s) {
  float *h = downloadNew(d, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

// Returns the destination on one path only: not followed.
float *downloadMaybe(const float *d, float *fallback, bool use,
                     cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (use)
    return h;
  cudaStreamSynchronize(s);
  return fallback;
}

void partlyReturnedDestination(const float *d, float *fallback,
                               cudaStream_t s) {
  float *h = downloadMaybe(d, fallback, true, s);
  consumeValue(h[0]);
}

// A helper's note names its first access in the source, not the first the
// analysis met (here the read after the loop).
void touchesInLoopFirst(const float *p, int n) {
  for (int i = 0; i < n; ++i) {
    if (p[i] < 0)
      continue;
    consumeValue(1.0f);
  }
  consumeValue(p[0]);
}
void helperTouchesFirstInLoop(float *h, const float *d, cudaStream_t s,
                              int n) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  touchesInLoopFirst(h, n);
  // CHECK: :[[@LINE-1]]:22: warning: 'h' is passed to 'touchesInLoopFirst' before
  // CHECK: :[[@LINE-11]]:9: note: 'touchesInLoopFirst' touches the buffer here
  cudaStreamSynchronize(s);
}

// A recursive helper that splits one copy into halves: its recursive call,
// whose summary is still being computed, may synchronize anything and
// touches nothing (the fourth adversarial round's program 18); the copies
// it leaves in flight are still the caller's.
static void fetchRange(float *h, const float *d, unsigned lo, unsigned hi,
                       cudaStream_t s) {
  if (hi - lo <= 16) {
    cudaMemcpyAsync(h + lo, d + lo, (hi - lo) * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
  } else {
    unsigned mid = lo + (hi - lo) / 2;
    fetchRange(h, d, lo, mid, s);
    fetchRange(h, d, mid, hi, s);
  }
}

void recursiveSplitThenRead(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 256 * sizeof(float));
  fetchRange(h, d, 0, 256, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void recursiveSplitThenSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 256 * sizeof(float));
  fetchRange(h, d, 0, 256, s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

// A buffer object returned with the copy into its storage in flight: a
// handle (copied as its bits, holding the pointer) moved by `return b;` is
// as a returned pointer, its caller's to synchronize; an object that owns
// its storage is handed over not ready (EigenCuda's and votca/xtp's
// `operator Eigen::MatrixXd()` before their fixes). A copy of the object
// reads it.
struct PinnedBlock {
  float *p_;
  float *data() const { return p_; }
};
PinnedBlock downloadBlock(const float *d, cudaStream_t s) {
  PinnedBlock b;
  cudaMallocHost(&b.p_, 64);
  cudaMemcpyAsync(b.data(), d, 64, cudaMemcpyDeviceToHost, s);
  return b;
}
struct OwningBlock {
  OwningBlock() { cudaMallocHost(&p_, 64); }
  OwningBlock(const OwningBlock &o);
  float *data() const { return p_; }
  float *p_;
};
OwningBlock copiedBlock(const float *d, cudaStream_t s) {
  OwningBlock b;
  cudaMemcpyAsync(b.data(), d, 64, cudaMemcpyDeviceToHost, s);
  OwningBlock c = b;
  // CHECK: :[[@LINE-1]]:19: warning: 'b' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  return c;
}
struct OwnedBlock {
  OwnedBlock() { cudaMallocHost(&p_, 64); }
  OwnedBlock(OwnedBlock &&o) : p_(o.p_) { o.p_ = nullptr; }
  ~OwnedBlock() { cudaFreeHost(p_); }
  float *data() const { return p_; }
  float *p_;
};
OwnedBlock downloadOwned(const float *d, cudaStream_t s) {
  OwnedBlock b;
  cudaMemcpyAsync(b.data(), d, 64, cudaMemcpyDeviceToHost, s);
  return b;
  // CHECK: :[[@LINE-1]]:10: warning: 'b' is passed to 'OwnedBlock' before the asynchronous device-to-host copy into it is known to be complete
}
OwnedBlock downloadOwnedSynced(const float *d, cudaStream_t s) {
  OwnedBlock b;
  cudaMemcpyAsync(b.data(), d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return b;
}
