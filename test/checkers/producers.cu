// The producer diagnostic: a device-to-host copy issued on a stream that
// nothing made wait for the device work writing its source reads the source
// before it is written (runtime/cases/copy_other_stream_no_wait.cu, stale
// on the GPU; its twin copy_other_stream_event_wait.cu, fresh). The warning
// claims that the two streams are different and unordered, so it is given
// only where both are known: the legacy or per-thread default stream, or
// a stream the function created into a local variable. Anything that may
// order them -- a host sync, an event recorded after the work and waited
// for, work on the legacy default stream between blocking streams, a call
// the check does not see into -- silences it.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <stdlib.h>
#include <utility>
#include <vector>

__global__ void fill(float *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = 1.0f;
}
__global__ void scale(const float *in, float *out) { out[0] = 2 * in[0]; }
// Takes a pointer to non-const, but only reads through it.
__global__ void sloppyRead(float *in, float *out) { out[0] = in[0]; }
__global__ void declaredOnly(float *d);
// Writes through a copy of its parameter.
__global__ void writeThroughCopy(float *d) {
  float *q = d + 1;
  *q = 0;
}
void consume(float);
void opaqueJoin(cudaStream_t a, cudaStream_t b);
void opaqueNoStreams(int n);

//===--- The race, and what orders the two streams ------------------------===//

void kernelOtherStream(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2' wait for the write: use cudaEventRecord + cudaStreamWaitEvent{{$}}
  cudaStreamSynchronize(s2);
  consume(h[0]);
}

void eventRecordedAndWaited(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaEvent_t e;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEventCreate(&e);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaEventRecord(e, s1);
  cudaStreamWaitEvent(s2, e, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  consume(h[0]);
}

void eventRecordedBeforeTheWork(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaEvent_t e;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEventCreate(&e);
  cudaEventRecord(e, s1);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaStreamWaitEvent(s2, e, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

void eventWaitedByAnotherStream(float *h, float *d) {
  cudaStream_t s1, s2, s3;
  cudaEvent_t e;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaStreamCreate(&s3);
  cudaEventCreate(&e);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaEventRecord(e, s1);
  cudaStreamWaitEvent(s3, e, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-5]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// s3 waited for the work; an event recorded on s3 after that carries it on.
void waitsChained(float *h, float *d) {
  cudaStream_t s1, s2, s3;
  cudaEvent_t e, f;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaStreamCreate(&s3);
  cudaEventCreate(&e);
  cudaEventCreate(&f);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaEventRecord(e, s1);
  cudaStreamWaitEvent(s3, e, 0);
  cudaEventRecord(f, s3);
  cudaStreamWaitEvent(s2, f, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void hostSyncOfTheProducer(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaStreamSynchronize(s1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void hostSyncOfAnotherStream(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaStreamSynchronize(s2);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

void eventSynchronized(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaEvent_t e;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEventCreate(&e);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaEventRecord(e, s1);
  cudaEventSynchronize(e);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void deviceSynchronized(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaDeviceSynchronize();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void polledUntilIdle(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  while (cudaStreamQuery(s1) == cudaErrorNotReady) {
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void sameStream(float *h, float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

// Handles are values: t is s.
void copyOfTheProducersStream(float *h, float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStream_t t = s;
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, t);
  cudaStreamSynchronize(t);
}

// On some path only: still a race on the other.
void eventWaitedOnOnePath(float *h, float *d, bool careful) {
  cudaStream_t s1, s2;
  cudaEvent_t e;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEventCreate(&e);
  fill<<<1, 64, 0, s1>>>(d, 16);
  if (careful) {
    cudaEventRecord(e, s1);
    cudaStreamWaitEvent(s2, e, 0);
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-7]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

//===--- The legacy default stream ----------------------------------------===//

// The legacy default stream waits for blocking streams.
void copyOnLegacyAfterBlocking(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
}

void copyOnLegacyAfterNonBlocking(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes the legacy default stream wait for the write
  cudaStreamSynchronize(0);
}

void kernelOnLegacyCopyOnBlocking(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreate(&s2);
  fill<<<1, 64>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void kernelOnLegacyCopyOnNonBlocking(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// Work on the legacy default stream between two blocking streams orders
// them: it waits for s1's work, and s2's later work waits for it.
void legacyWorkBetweenBlockingStreams(float *h, float *d, float *x) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemsetAsync(x, 0, 64, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void legacyWorkBetweenNonBlockingStreams(float *h, float *d, float *x) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemsetAsync(x, 0, 64, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// A blocking cudaMemcpy synchronizes the legacy default stream, which
// waits for blocking streams only.
void blockingMemcpyBetween(float *h, float *d, float *a, const float *b) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpy(a, b, 64, cudaMemcpyHostToHost);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// A blocking copy to the host reads its source on the legacy default
// stream, which does not wait for a non-blocking stream.
void blockingCopyAfterNonBlocking(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes the legacy default stream
}

//===--- Which work writes the source -------------------------------------===//

void constPointerIsRead(float *h, float *d, float *o) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  scale<<<1, 1, 0, s1>>>(d, o);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void outputOfTheKernel(float *h, float *d, float *o) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  scale<<<1, 1, 0, s1>>>(d, o);
  cudaMemcpyAsync(h, o, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'o' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'o' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// The kernel's body is visible and never writes through `in`.
void nonConstPointerOnlyRead(float *h, float *d, float *o) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  sloppyRead<<<1, 1, 0, s1>>>(d, o);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void writesThroughACopyOfThePointer(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  writeThroughCopy<<<1, 1, 0, s1>>>(d);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// A declaration only: a pointer to non-const may be written.
void kernelWithoutBody(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  declaredOnly<<<1, 1, 0, s1>>>(d);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

void asyncCopyAndMemsetIntoDevice(float *h, float *d, float *e,
                                  const float *src) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaMemcpyAsync(d, src, 64, cudaMemcpyHostToDevice, s1);
  cudaMemsetAsync(e, 0, 64, s1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaMemcpyAsync(h, e, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'e' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-7]]:3: note: 'e' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// Another buffer: no claim about d.
void anotherBufferWritten(float *h, float *d, float *e) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(e, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// The copy reads its source whatever the destination: a pageable one too.
void pageableDestination(float *d) {
  float h[16];
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
  consume(h[0]);
}

// The buffer variable holds another buffer by the time of the copy.
void bufferReassigned(float *h, float *d, float *other) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  d = other;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

//===--- Streams the check cannot tell apart: no claim --------------------===//

// Parameters, members and handles' streams: caller-streams.cu.

// Given another value after its creation: no longer known.
void createdThenReassigned(float *h, float *d, cudaStream_t other) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  s2 = other;
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

//===--- Calls that may order the streams ---------------------------------===//

void opaqueCallGivenTheStreams(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  opaqueJoin(s1, s2);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// The project's own function, compiled elsewhere: it may launch work on the
// legacy default stream, or synchronize.
void opaqueProjectFunction(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  opaqueNoStreams(3);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// Error checks leave device work alone.
void errorCheckBetween(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  if (cudaGetLastError() != cudaSuccess)
    return;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-5]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// "Implicit Synchronization" promises that a device allocation between the
// two orders them; an H200 does not keep it (malloc_between_streams.cu).
void allocationBetween(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  float *x;
  cudaMalloc(&x, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

// A page-locked allocation between the two: the same promise, not kept
// either (malloc_host_between_streams.cu, on an H100).
void pinnedAllocationBetween(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  float *x;
  cudaMallocHost(&x, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

// A helper that allocates pinned memory does not order the two either.
static float *stagingBuffer(size_t n) {
  float *p;
  cudaMallocHost(&p, n);
  return p;
}

void pinnedAllocationInHelperBetween(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  float *x = stagingBuffer(64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  cudaFreeHost(x);
}

// A stream-ordered allocation ("Stream Ordered Memory Allocator") is ordered
// on its own stream only: no barrier between the two.
void streamOrderedAllocationBetween(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  float *x;
  cudaMallocAsync(&x, 64, s2);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-5]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

//===--- Helpers with visible bodies --------------------------------------===//

static void joinStreams(cudaStream_t from, cudaStream_t to) {
  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaEventRecord(e, from);
  cudaStreamWaitEvent(to, e, 0);
}
static void check(cudaError_t e) {
  if (e != cudaSuccess)
    abort();
}
static void launchMore(float *x, cudaStream_t s) { fill<<<1, 64, 0, s>>>(x, 4); }

void helperJoinsTheStreams(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  joinStreams(s1, s2);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void helperChecksErrors(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  check(cudaGetLastError());
  check(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2));
  // CHECK: :[[@LINE-1]]:9: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:9: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// Work on a created stream orders nothing; on stream 0 it would.
void helperLaunchesOnAStream(float *h, float *d, float *x) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  launchMore(x, s2);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

void helperLaunchesOnLegacy(float *h, float *d, float *x) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  launchMore(x, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// A helper's device work on a stream parameter is the caller's producer.
static void produceOn(float *d, cudaStream_t s) { fill<<<1, 64, 0, s>>>(d, 16); }
static void produceAndWait(float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaStreamSynchronize(s);
}
static void produceOnItsOwnStream(float *d) {
  cudaStream_t mine;
  cudaStreamCreate(&mine);
  fill<<<1, 64, 0, mine>>>(d, 16);
}

void helperProduces(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  produceOn(d, s1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

void helperProducesAndWaits(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  produceAndWait(d, s1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// Its own stream: the caller cannot name it, so no claim.
void helperProducesOnItsOwnStream(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreate(&s2);
  produceOnItsOwnStream(d);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// A cudaMemcpyDefault copy into a pointer parameter infers its direction
// from the caller's argument: device work writing it where that argument
// is device memory (raft::copy_matrix), a device-to-host copy where it is
// host memory, nothing where its kind is unknown.
static void copyDefault(float *dst, const float *src, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, 64, cudaMemcpyDefault, s);
}
template <class T> void copyDefaultT(T *dst, const T *src, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, 64, cudaMemcpyDefault, s);
}

void helperCopiesIntoDevice(float *h, const float *src) {
  float *d;
  cudaMalloc(&d, 64);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  copyDefault(d, src, s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's' here
}

void templateHelperCopiesIntoDevice(float *h, const float *src) {
  float *d;
  cudaMalloc(&d, 64);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  copyDefaultT(d, src, s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
}

void helperCopiesIntoDeviceThenSync(float *h, const float *src) {
  float *d;
  cudaMalloc(&d, 64);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  copyDefault(d, src, s);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

void helperCopiesIntoPinned(float *h, const float *src) {
  float *p;
  cudaMallocHost(&p, 64);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  copyDefault(p, src, s);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, p, 64, cudaMemcpyDefault);
}

void helperCopiesIntoUnknown(float *h, float *d, const float *src) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  copyDefault(d, src, s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

//===--- Found by trying to break it: correct code, silent ----------------===//

// The event covers the last write whichever way the loop went.
void writeAndRecordInALoop(float *h, float *d, int n) {
  cudaStream_t s1, s2;
  cudaEvent_t e;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEventCreate(&e);
  for (int i = 0; i < n; ++i) {
    fill<<<1, 64, 0, s1>>>(d, i);
    cudaEventRecord(e, s1);
  }
  cudaStreamWaitEvent(s2, e, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

static void produceAndRecord(float *d, cudaStream_t s, cudaEvent_t e) {
  fill<<<1, 64, 0, s>>>(d, 1);
  cudaEventRecord(e, s);
}
void helperRecordsAfterItsWrite(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaEvent_t e;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEventCreate(&e);
  produceAndRecord(d, s1, e);
  cudaStreamWaitEvent(s2, e, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// Disjoint parts of one buffer, each written and copied on its own stream.
void chunkedPipeline(float *h, float *d, const float *src, int n) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaMemcpyAsync(d, src, n * 4, cudaMemcpyHostToDevice, s1);
  cudaMemcpyAsync(d + n, src + n, n * 4, cudaMemcpyHostToDevice, s2);
  fill<<<1, 64, 0, s1>>>(d, n);
  fill<<<1, 64, 0, s2>>>(d + n, n);
  cudaMemcpyAsync(h, d, n * 4, cudaMemcpyDeviceToHost, s1);
  cudaMemcpyAsync(h + n, d + n, n * 4, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s1);
  cudaStreamSynchronize(s2);
}

void otherElement(float *h, float **bufs) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(bufs[0], 16);
  cudaMemcpyAsync(h, bufs[1], 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

__global__ void readIdioms(float *in, float *out, bool f) {
  const float *c = in;
  out[0] = c[1] + *(in + 2) + (in ? 1.0f : 0.0f);
}
void kernelReadsThroughConstAlias(float *h, float *d, float *o) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  readIdioms<<<1, 1, 0, s1>>>(d, o, true);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// s2 is made s1 through a reference: not a stream known to differ.
void streamChangedThroughReference(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaStream_t &r = s2;
  r = s1;
  fill<<<1, 64, 0, s1>>>(d, 1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// A non-blocking producer that a blocking stream waited for, then a copy on
// the legacy default stream after that stream's work.
void legacyAfterAStreamThatWaited(float *h, float *d, float *x) {
  cudaStream_t s1, s3;
  cudaEvent_t e;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreate(&s3);
  cudaEventCreate(&e);
  fill<<<1, 64, 0, s1>>>(d, 1);
  cudaEventRecord(e, s1);
  cudaStreamWaitEvent(s3, e, 0);
  fill<<<1, 64, 0, s3>>>(x, 1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
}

//===--- Found by trying to break it, second round ------------------------===//

// The work and the wait are under the same condition, which the copy's
// paths keep: on the path without the side stream nothing ran there.
void correlatedSideStream(float *h, float *d, bool overlap) {
  cudaStream_t mainS, side;
  cudaEvent_t e;
  cudaStreamCreate(&mainS);
  cudaStreamCreate(&side);
  cudaEventCreate(&e);
  if (overlap)
    fill<<<1, 64, 0, side>>>(d, 1);
  else
    fill<<<1, 64, 0, mainS>>>(d, 1);
  if (overlap) {
    cudaEventRecord(e, side);
    cudaStreamWaitEvent(mainS, e, 0);
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, mainS);
  cudaStreamSynchronize(mainS);
}
// The wait under the opposite condition: on the overlap path, nothing
// orders the work on side before the copy.
void anticorrelatedSideStream(float *h, float *d, bool overlap) {
  cudaStream_t mainS, side;
  cudaEvent_t e;
  cudaStreamCreate(&mainS);
  cudaStreamCreate(&side);
  cudaEventCreate(&e);
  if (overlap)
    fill<<<1, 64, 0, side>>>(d, 1);
  if (!overlap) {
    cudaEventRecord(e, side);
    cudaStreamWaitEvent(mainS, e, 0);
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, mainS);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'mainS' may read it before the work that writes it on stream 'side' has finished
  // CHECK: :[[@LINE-7]]:5: note: 'd' is written on stream 'side' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 'mainS'
  cudaStreamSynchronize(mainS);
}

// A range-for over a braced list runs its body: every stream is synced.
void syncEachOfAList(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 1);
  for (cudaStream_t s : {s1, s2})
    cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}
void syncEachOfAVector(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 1);
  std::vector<cudaStream_t> all{s1, s2};
  for (auto s : all)
    cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}
// Emptied before the loop: the loop may run no iteration.
void syncEachOfAClearedVector(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 1);
  std::vector<cudaStream_t> all{s1, s2};
  all.clear();
  for (auto s : all)
    cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-7]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// A lambda holding s2 by reference may change it wherever it runs.
void streamChangedInALambda(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  auto share = [&] { s2 = s1; };
  share();
  fill<<<1, 64, 0, s1>>>(d, 1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}
// By value, it cannot.
void streamCopiedIntoALambda(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  auto show = [s2] { return s2; };
  (void)show;
  fill<<<1, 64, 0, s1>>>(d, 1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// Reads through a __device__ function's pointer-to-non-const parameter, and
// through a choice of pointers: no write.
__device__ float loadAt(float *p, int i) { return p[i]; }
__device__ void storeAt(float *p, int i) { p[i] = 0; }
__global__ void readsViaDeviceFunction(float *in, float *out) {
  out[0] = loadAt(in, 0);
}
__global__ void writesViaDeviceFunction(float *in) { storeAt(in, 0); }
__global__ void readsAChoice(float *a, float *b, float *out, bool f) {
  out[0] = (f ? a : b)[0];
}
void kernelReadsViaDeviceFunction(float *h, float *d, float *o) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  readsViaDeviceFunction<<<1, 1, 0, s1>>>(d, o);
  readsAChoice<<<1, 1, 0, s1>>>(d, d, o, true);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}
void kernelWritesViaDeviceFunction(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  writesViaDeviceFunction<<<1, 1, 0, s1>>>(d);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// A host function runs after the work before it and may tell the host so
// (here a flag it waits for): it may order.
static void CUDART_CB setFlag(void *p) { *static_cast<volatile int *>(p) = 1; }
void hostFunctionSignalsTheHost(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  volatile int done = 0;
  fill<<<1, 64, 0, s1>>>(d, 1);
  cudaLaunchHostFunc(s1, setFlag, (void *)&done);
  while (!done) {
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// Kernels reading through local aliases, casts and references of their
// pointer-to-non-const parameter: no write.
struct alignas(16) Vec4 { float x, y, z, w; };
__global__ void readsThroughAliases(float *in, float *out, int ld) {
  float *row = in + blockIdx.x * ld;
  auto q = in;
  const float &c = in[1];
  float &r = in[2];
  Vec4 v = reinterpret_cast<Vec4 *>(in)[threadIdx.x];
  Vec4 u = *reinterpret_cast<Vec4 *>(&in[4]);
  float s = 0;
  for (float *it = in; it != in + 4; ++it)
    s += *it;
  in += threadIdx.x;
  out[0] = row[0] + q[1] + c + r + v.x + u.y + s + in[0];
}
void kernelReadsThroughAliases(float *h, float *d, float *o) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  readsThroughAliases<<<1, 1, 0, s1>>>(d, o, 4);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}
// The same shapes writing: each is a producer.
__global__ void writesThroughRow(float *in, int ld) {
  float *row = in + blockIdx.x * ld;
  row[0] = 0;
}
__global__ void writesThroughReference(float *in) {
  float &r = in[2];
  r = 1;
}
__global__ void writesThroughCast(float *in) {
  reinterpret_cast<Vec4 *>(in)[0] = Vec4{};
}
__global__ void writesAfterMoving(float *in) {
  in += threadIdx.x;
  *in = 0;
}
void kernelWritesThroughAliases(float *h, float *d0, float *d1, float *d2,
                                float *d3) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  writesThroughRow<<<1, 1, 0, s1>>>(d0, 4);
  writesThroughReference<<<1, 1, 0, s1>>>(d1);
  writesThroughCast<<<1, 1, 0, s1>>>(d2);
  writesAfterMoving<<<1, 1, 0, s1>>>(d3);
  cudaMemcpyAsync(h, d0, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd0' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-6]]:3: note: 'd0' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaMemcpyAsync(h, d1, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd1' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-9]]:3: note: 'd1' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaMemcpyAsync(h, d2, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd2' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-12]]:3: note: 'd2' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaMemcpyAsync(h, d3, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd3' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-15]]:3: note: 'd3' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2'
  cudaStreamSynchronize(s2);
}

// Swapped before the copy: 'a' names the buffer nobody wrote.
void buffersSwapped(float *h, float *a, float *b) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(a, 1);
  std::swap(a, b);
  cudaMemcpyAsync(h, a, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// A poll of a stream that waited for the work: once it is idle, so is the
// work's stream.
void queryOfAStreamThatWaited(float *h, float *d) {
  cudaStream_t s1, s2, s3;
  cudaEvent_t e;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking);
  cudaEventCreate(&e);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaEventRecord(e, s1);
  cudaStreamWaitEvent(s3, e, 0);
  while (cudaStreamQuery(s3) != cudaSuccess) {
  }
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// Helpers that only record or wait (the fourth adversarial round's 31): the
// call applies the record and the wait, producers included, as the
// caller's own would be, instead of ending every claim.
namespace order {
void mark(cudaEvent_t e, cudaStream_t s) { cudaEventRecord(e, s); }
void after(cudaStream_t w, cudaEvent_t e) { cudaStreamWaitEvent(w, e, 0); }
void markMaybe(bool b, cudaEvent_t e, cudaStream_t s) {
  if (b)
    cudaEventRecord(e, s);
}
} // namespace order
void helperRecordBeforeTheWork(float *h, float *d, cudaEvent_t e) {
  cudaStream_t compute, xfer;
  cudaStreamCreate(&compute);
  cudaStreamCreate(&xfer);
  order::mark(e, compute);
  fill<<<1, 64, 0, compute>>>(d, 64);
  order::after(xfer, e);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, xfer);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'xfer' may read it before the work that writes it on stream 'compute' has finished
  cudaStreamSynchronize(xfer);
}
void helperRecordAfterTheWork(float *h, float *d, cudaEvent_t e) {
  cudaStream_t compute, xfer;
  cudaStreamCreate(&compute);
  cudaStreamCreate(&xfer);
  fill<<<1, 64, 0, compute>>>(d, 64);
  order::mark(e, compute);
  order::after(xfer, e);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, xfer);
  cudaStreamSynchronize(xfer);
}
// A record on some paths only is not carried as a record: it may order.
void helperMaybeRecordAfterTheWork(bool b, float *h, float *d, cudaEvent_t e) {
  cudaStream_t compute, xfer;
  cudaStreamCreate(&compute);
  cudaStreamCreate(&xfer);
  fill<<<1, 64, 0, compute>>>(d, 64);
  order::markMaybe(b, e, compute);
  cudaStreamWaitEvent(xfer, e, 0);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, xfer);
  cudaStreamSynchronize(xfer);
}
