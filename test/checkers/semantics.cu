// Every row of docs/semantics.md (measured on an H200), in both
// directions: the check warns where the host saw stale data and is silent
// where the pattern synchronized.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <stdlib.h>

void consume(float);
static const size_t N = 1 << 20;

//===--- Pinned destination, no sync / stream sync ------------------------===//

void pinnedReadRightAfterCopy(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, N * sizeof(float));
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void pinnedReadAfterStreamSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, N * sizeof(float));
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- Pageable destination ---------------------------------------------===//

// The runtime returned only after the copy into malloc'ed memory (4 MiB and
// 64 B alike): silent by default (StrictMode warns, see options.cu).
void pageableReadNoSync(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(N * sizeof(float));
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  free(h);
}

void smallPageableReadNoSync(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  free(h);
}

//===--- cudaHostRegister -------------------------------------------------===//

void hostRegisteredReadNoSync(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(N * sizeof(float));
  cudaHostRegister(h, N * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void hostRegisteredReadAfterSync(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(N * sizeof(float));
  cudaHostRegister(h, N * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- Synchronizing another stream --------------------------------------===//

void syncOtherStream(float *h, const float *d, cudaStream_t s,
                     cudaStream_t other) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-4]]:3: note: this synchronizes stream 'other', not stream 's', the copy's stream
}

void syncCopyStreamNotOther(float *h, const float *d, cudaStream_t s,
                            cudaStream_t other) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(other);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- Events ------------------------------------------------------------===//

void eventRecordedAfterCopy(float *h, const float *d, cudaStream_t s,
                            cudaEvent_t e) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaEventSynchronize(e);
  consume(h[0]);
}

void eventRecordedBeforeCopy(float *h, const float *d, cudaStream_t s,
                             cudaEvent_t e) {
  cudaEventRecord(e, s);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventSynchronize(e);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-6]]:3: note: event 'e' was recorded before the copy, so synchronizing it does not wait for the copy
}

void eventRecordedOnOtherStream(float *h, const float *d, cudaStream_t s,
                                cudaStream_t other, cudaEvent_t e) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, other);
  cudaEventSynchronize(e);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-5]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-5]]:3: note: the event was recorded on stream 'other', not on stream 's', the copy's stream
}

void streamWaitEventOnly(float *h, const float *d, cudaStream_t s,
                         cudaStream_t other, cudaEvent_t e) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaStreamWaitEvent(other, e, 0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-5]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: 'cudaStreamWaitEvent' makes a stream wait on the device; it does not block the host
}

void streamWaitEventThenSyncThatStream(float *h, const float *d,
                                       cudaStream_t s, cudaStream_t other,
                                       cudaEvent_t e) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaStreamWaitEvent(other, e, 0);
  cudaEventSynchronize(e);
  consume(h[0]);
}

//===--- Device-wide sync and polling --------------------------------------===//

void deviceSynchronize(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaDeviceSynchronize();
  consume(h[0]);
}

void pollStreamQuery(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
  }
  consume(h[0]);
}

void queryOnceWithoutChecking(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamQuery(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: 's' is queried here, but the access is not guarded by the query having returned cudaSuccess
}

//===--- Legacy default stream ---------------------------------------------===//

void blockingStreamThenSyncLegacy(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(0);
  consume(h[0]);
}

void nonBlockingStreamThenSyncLegacy(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: synchronizing the legacy default stream does not wait for stream 's', which was created non-blocking
}

// The same stream made by a factory of the unit (StreamOrigins::returnedBy):
// its flags go with the stream it returns.
static cudaStream_t makeNonBlockingStream() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  return s;
}
static cudaStream_t makeDefaultFlagsStream() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  return s;
}

void factoryNonBlockingThenSyncLegacy(float *h, const float *d) {
  cudaStream_t s = makeNonBlockingStream();
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: synchronizing the legacy default stream does not wait for stream 's', which was created non-blocking
}

void factoryBlockingThenSyncLegacy(float *h, const float *d) {
  cudaStream_t s = makeDefaultFlagsStream();
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(0);
  consume(h[0]);
}

// A stream a function's static local holds, created once, reached through
// that function (`io::stream()`; the third adversarial round's program 30),
// or a global its accessor returns: its flags go with it, inline and
// through a helper that copies on it.
namespace io {
static cudaStream_t stream() {
  static cudaStream_t s = [] {
    cudaStream_t t;
    cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
    return t;
  }();
  return s;
}
static cudaStream_t blockingStream() {
  static cudaStream_t s;
  static bool made = false;
  if (!made) {
    cudaStreamCreate(&s);
    made = true;
  }
  return s;
}
cudaStream_t global;
void makeGlobal() { cudaStreamCreateWithFlags(&global, cudaStreamNonBlocking); }
static cudaStream_t globalStream() { return global; }
static void fetch(float *h, const float *d) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, stream());
}
static void fetchOnGlobal(float *h, const float *d) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, global);
}
} // namespace io

void staticLocalNonBlockingThenSyncLegacy(float *h, const float *d) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost,
                  io::stream());
  cudaStreamSynchronize(0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void staticLocalBlockingThenSyncLegacy(float *h, const float *d) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost,
                  io::blockingStream());
  cudaStreamSynchronize(0);
  consume(h[0]);
}

void globalAccessorNonBlockingThenSyncLegacy(float *h, const float *d) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost,
                  io::globalStream());
  cudaStreamSynchronize(0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void helperOnStaticLocalThenSyncLegacy(float *h, const float *d) {
  io::fetch(h, d);
  cudaStreamSynchronize(0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void helperOnGlobalThenSyncLegacy(float *h, const float *d) {
  io::fetchOnGlobal(h, d);
  cudaStreamSynchronize(0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void helperOnStaticLocalThenSyncIt(float *h, const float *d) {
  io::fetch(h, d);
  cudaStreamSynchronize(io::stream());
  consume(h[0]);
}

void nonBlockingStreamThenSyncItself(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

void copyOnDefaultStreamNoSync(float *h, const float *d) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on the legacy default stream is issued here
}

void copyOnDefaultStreamThenSyncLegacyHandle(float *h, const float *d) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(cudaStreamLegacy);
  consume(h[0]);
}

//===--- Blocking cudaMemcpy of another buffer -----------------------------===//

void blockingStreamThenBlockingMemcpy(float *h, float *h2, const float *d,
                                      const float *d2) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpy(h2, d2, 64, cudaMemcpyDeviceToHost);
  consume(h[0]);
}

void nonBlockingStreamThenBlockingMemcpy(float *h, float *h2, const float *d,
                                         const float *d2) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpy(h2, d2, 64, cudaMemcpyDeviceToHost);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: synchronizing the legacy default stream does not wait for stream 's'
}

// "For transfers from device memory to device memory, no host-side
// synchronization is performed."
void blockingDeviceToDeviceMemcpyIsNoSync(float *h, float *d2,
                                          const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpy(d2, d, 64, cudaMemcpyDeviceToDevice);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

//===--- Blocking cudaMemset -----------------------------------------------===//
// "The synchronous memset functions are asynchronous with respect to the host
// except when the target is pinned host memory [...], in which case they are
// fully synchronous." Measured: runtime/cases/blocking_memset_*.

void blockingMemsetOfDeviceMemoryIsNoSync(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d2;
  cudaMalloc(&d2, 64);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemset(d2, 0, 64);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: 'cudaMemset' returns before it is done unless its target is pinned host memory, so it does not wait for stream 's'
}

void blockingMemsetOfPinnedMemorySyncsBlockingStream(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *h2;
  cudaMallocHost(&h2, 64);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemset(h2, 0, 64);
  consume(h[0]);
}

void blockingMemset2DOfPinnedMemory(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *h2;
  cudaMallocHost(&h2, 64);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemset2D(h2, 16, 0, 16, 4);
  consume(h[0]);
}

void blockingMemsetOfPinnedMemoryNonBlockingStream(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *h2;
  cudaMallocHost(&h2, 64);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemset(h2, 0, 64);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: synchronizing the legacy default stream does not wait for stream 's'
}

// The destination itself: the legacy default stream runs the memset after
// the blocking stream's copy, then the host waits for it.
void blockingMemsetOfTheDestination(const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemset(h, 0, 64);
  consume(h[0]);
}

// ... but not after a non-blocking stream's copy: the two race.
void blockingMemsetOfTheDestinationNonBlocking(const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemset(h, 0, 64);
  // CHECK: :[[@LINE-1]]:14: warning: 'h' is used by work on another stream before
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
  cudaStreamSynchronize(s);
}

//===--- cudaFree / cudaFreeHost / cudaMallocHost --------------------------===//

void freeOtherDeviceBuffer(float *h, const float *d, float *dOther,
                           cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaFree(dOther);
  consume(h[0]);
}

void freeHostOtherPinnedBuffer(float *h, const float *d, float *hOther,
                               cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaFreeHost(hOther);
  consume(h[0]);
}

void mallocHostNewBuffer(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  float *fresh;
  cudaMallocHost(&fresh, 64);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

//===--- Not synchronizations ----------------------------------------------===//

void streamDestroy(float *h, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamDestroy(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: 'cudaStreamDestroy' returns at once; it does not wait for the copy
}

void hostCallback(void *);
void launchHostFuncNoSync(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, hostCallback, h);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: a host function enqueued on the stream does not block the calling thread
}

void streamCallbackFn(cudaStream_t, cudaError_t, void *);
void streamAddCallbackNoSync(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamAddCallback(s, streamCallbackFn, h, 0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: a host function enqueued on the stream does not block the calling thread
}

// Handing the destination to a host function on the copy's own stream is
// the correct way to consume it without blocking: no warning for that call.
void launchHostFuncThenSync(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, hostCallback, h);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- Other copy APIs ---------------------------------------------------===//

void memcpy2DAsyncNoSync(float *h, const float *d, size_t pitch,
                         cudaStream_t s) {
  cudaMemcpy2DAsync(h, 64, d, pitch, 64, 16, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void memcpy2DAsyncThenSync(float *h, const float *d, size_t pitch,
                           cudaStream_t s) {
  cudaMemcpy2DAsync(h, 64, d, pitch, 64, 16, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

void memcpyDefaultPinnedNoSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, N * sizeof(float));
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDefault, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void memcpyDefaultPinnedThenSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, N * sizeof(float));
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDefault, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- Host writes -------------------------------------------------------===//

// The host's value is lost: the DMA lands after it.
void hostWritesBeforeSync(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  h[0] = 42.0f;
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is written before the asynchronous
  cudaStreamSynchronize(s);
}

void hostWritesAfterSync(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  h[0] = 42.0f;
}

//===--- cudaStreamWaitEvent, then a host sync of the waiting stream -------===//

// Not a row of semantics.md; measured by runtime/cases (0/5 stale): the
// waiting stream's sync waits for the event, which covers the copy.
void streamWaitEventThenSyncWaitingStream(float *h, const float *d,
                                          cudaStream_t s, cudaStream_t other,
                                          cudaEvent_t e) {
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaStreamWaitEvent(other, e, 0);
  cudaStreamSynchronize(other);
  consume(h[0]);
}

void streamWaitEventRecordedBeforeCopy(float *h, const float *d,
                                       cudaStream_t s, cudaStream_t other,
                                       cudaEvent_t e) {
  cudaEventRecord(e, s);
  cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamWaitEvent(other, e, 0);
  cudaStreamSynchronize(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

//===--- Stream capture (issue 12, class 7) ---------------------------------===//

void consumeValue(float v);

// A copy issued on a stream while it is captured into a graph is recorded,
// not run (runtime/cases/capture_copy_not_run: the host sees its old data
// every time).
void copyWhileCapturing(float *h, const float *d, cudaStream_t s) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  consumeValue(h[0]);
}

// Capturing another stream does not stop a copy on this one.
void copyWhileCapturingAnotherStream(float *h, const float *d, cudaStream_t s,
                                     cudaStream_t t) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(t, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(t, &graph);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// After the capture ends, copies run again.
void copyAfterCapture(float *h, const float *d, cudaStream_t s) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &graph);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

//===--- Work on a blocking stream waits for the legacy stream -------------===//
// docs/semantics.md, "Legacy-stream work and blocking streams": an event
// recorded on a blocking stream after a copy on stream 0 covers it, a sync
// of that stream alone does not; the same holds for any work on it (a
// kernel, a copy) followed by its sync. A non-blocking stream waits for
// nothing.
__global__ void step(float *d);
void legacyCopyThenRecordOnBlocking(float *h, const float *d) {
  cudaStream_t b;
  cudaStreamCreate(&b);
  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaEventRecord(e, b);
  cudaEventSynchronize(e);
  consume(h[0]);
}
void legacyCopyThenSyncBlockingOnly(float *h, const float *d) {
  cudaStream_t b;
  cudaStreamCreate(&b);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(b);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}
void legacyCopyThenKernelOnBlockingAndSync(float *h, float *d) {
  cudaStream_t b;
  cudaStreamCreate(&b);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  step<<<1, 1, 0, b>>>(d);
  cudaStreamSynchronize(b);
  consume(h[0]);
}
void legacyCopyThenKernelOnNonBlockingAndSync(float *h, float *d) {
  cudaStream_t b;
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  step<<<1, 1, 0, b>>>(d);
  cudaStreamSynchronize(b);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}
void legacyCopyThenSyncBeforeKernelOnBlocking(float *h, float *d) {
  cudaStream_t b;
  cudaStreamCreate(&b);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(b);
  step<<<1, 1, 0, b>>>(d);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}
