// A helper that records an event on some of its paths only (`if (copy) {
// cudaMemcpyAsync(..); cudaEventRecord(e, s); }`): at the call the event
// covers the helper's own copy (issued only where the record is), and of
// the caller's copies those that both its earlier record covered and a
// record on that stream would capture (on the other paths the event keeps
// the caller's record). Before, the record was dropped, or taken as made on
// every path, depending on the order the helper's paths were joined in.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
void consume(float);

void fetchMaybe(bool copy, float *h, const float *d, cudaStream_t s,
                cudaEvent_t e) {
  if (copy) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(e, s);
  }
}
// The same with an early return: the record's path is met first.
void fetchUnlessSkipped(bool skip, float *h, const float *d, cudaStream_t s,
                        cudaEvent_t e) {
  if (skip)
    return;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
}

void syncedByTheHelpersEvent(bool b, float *h, const float *d,
                             cudaStream_t s, cudaEvent_t e) {
  fetchMaybe(b, h, d, s, e);
  cudaEventSynchronize(e);
  consume(h[0]);
}
void syncedByTheHelpersEventEarlyReturn(bool b, float *h, const float *d,
                                        cudaStream_t s, cudaEvent_t e) {
  fetchUnlessSkipped(b, h, d, s, e);
  cudaEventSynchronize(e);
  consume(h[0]);
}
void otherEventSynced(bool b, float *h, const float *d, cudaStream_t s,
                      cudaEvent_t e, cudaEvent_t other) {
  fetchMaybe(b, h, d, s, e);
  cudaEventSynchronize(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

// The caller's own copy, recorded by the caller before the call on the same
// stream: covered on both kinds of path.
void callersCopyRecordedBefore(bool b, float *h1, float *h2, const float *d,
                               cudaStream_t s, cudaEvent_t e) {
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  fetchMaybe(b, h2, d, s, e);
  cudaEventSynchronize(e);
  consume(h1[0]);
  consume(h2[0]);
}
// The caller's copy issued after its own record: where the helper does not
// record, the event does not cover it.
void callersCopyAfterItsRecord(bool b, float *h1, float *h2, const float *d,
                               cudaStream_t s, cudaEvent_t e) {
  cudaEventRecord(e, s);
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, s);
  fetchUnlessSkipped(b, h2, d, s, e);
  cudaEventSynchronize(e);
  consume(h1[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h1' is read before the asynchronous device-to-host copy into it is known to be complete
  consume(h2[0]);
}
// The caller's copy on another stream, which its own record covered: where
// the helper records on s, the event no longer covers it.
void callersCopyOnOtherStream(bool b, float *h1, float *h2, const float *d,
                              cudaStream_t s, cudaStream_t t, cudaEvent_t e) {
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, t);
  cudaEventRecord(e, t);
  fetchMaybe(b, h2, d, s, e);
  cudaEventSynchronize(e);
  consume(h1[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h1' is read before the asynchronous device-to-host copy into it is known to be complete
  consume(h2[0]);
}

// A helper that records on every path, copying on some: unchanged.
void fetchThenAlwaysRecord(bool copy, float *h, const float *d,
                           cudaStream_t s, cudaEvent_t e) {
  if (copy)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
}
void recordOnEveryPath(bool b, float *h1, float *h2, const float *d,
                       cudaStream_t s, cudaEvent_t e) {
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, s);
  fetchThenAlwaysRecord(b, h2, d, s, e);
  cudaEventSynchronize(e);
  consume(h1[0]);
  consume(h2[0]);
}

// A record on one path and a sync of the same stream on the other: on every
// path the caller's work on the stream is complete or covered by the event.
void fetchOrDrain(bool copy, float *h, const float *d, cudaStream_t s,
                  cudaEvent_t e) {
  if (copy) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(e, s);
  } else {
    cudaStreamSynchronize(s);
  }
}
void callersCopyCoveredByRecordOrSync(bool b, float *h1, float *h2,
                                      const float *d, cudaStream_t s,
                                      cudaEvent_t e) {
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, s);
  fetchOrDrain(b, h2, d, s, e);
  cudaEventSynchronize(e);
  consume(h1[0]);
  consume(h2[0]);
}
// Without the sync on the other path, the note says the event is not
// recorded after the copy on every path (not that it was recorded before).
void callersCopyNotCovered(bool b, float *h1, float *h2, const float *d,
                           cudaStream_t s, cudaEvent_t e) {
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, s);
  fetchMaybe(b, h2, d, s, e);
  cudaEventSynchronize(e);
  consume(h1[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h1' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:3: note: event 'e' is synchronized here, but it is not recorded after the copy on every path to this point
  consume(h2[0]);
}
