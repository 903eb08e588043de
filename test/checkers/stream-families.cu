// Arrays of streams and events indexed by loop variables (issue 12,
// classes 1 and 2), as in MonteCarloMultiGPU, simpleMultiCopy and most
// multi-stream pipelines: copies issued in one loop on s[i] are covered by a
// later loop that synchronizes s[j] (or events recorded on them) over the
// same elements; a loop that stops one short does not cover the last copy.
// A loop from a constant to a larger constant certainly runs, so what its
// body synchronizes is synchronized after it.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>
void consumeValue(float v);
void consume(const float *p, int n);

constexpr int N = 4;
constexpr int Chunk = 256;

//===--- Loops that certainly run (class 1) --------------------------------===//

void oneIterationLoop(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 0; k < 1; ++k)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

void constantBoundLoop(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 0; k < N; ++k)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

// A loop with a bound the check does not know may not run at all.
void loopMaySkip(float *h, const float *d, cudaStream_t s, int n) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 0; k < n; ++k)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A local initialised with a constant and never changed is that constant
// (FunctionFacts::knownValue), for loop bounds as for branches.
void localConstantBoundLoop(float *h, const float *d, cudaStream_t s) {
  int nDev = 4;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 0; k < nDev; ++k)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

// Changed before the loop: not a known value.
void localChangedBoundLoop(float *h, const float *d, cudaStream_t s, int n) {
  int nDev = 4;
  nDev = n;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 0; k < nDev; ++k)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A local zero bound: never runs.
void localZeroBoundLoop(float *h, const float *d, cudaStream_t s) {
  int nDev = 0;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 0; k < nDev; ++k)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// From 4 down to nothing: never runs.
void loopNeverRuns(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 4; k < 4; ++k)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// A break may leave the loop before its sync.
void loopBreaksFirst(float *h, const float *d, cudaStream_t s, bool stop) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int k = 0; k < N; ++k) {
    if (stop)
      break;
    cudaStreamSynchronize(s);
  }
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

//===--- Families of streams (class 2) -------------------------------------===//

void perStreamCopiesThenSyncLoop(float *h, const float *d) {
  cudaStream_t s[N];
  for (int i = 0; i < N; ++i)
    cudaStreamCreate(&s[i]);
  for (int i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  for (int j = 0; j < N; ++j)
    cudaStreamSynchronize(s[j]);
  consume(h, N * Chunk);
}

// A count known only at run time: the sync loop has the copy loop's first
// test (`0 < n`, n never changed), so it skips only when the copy loop
// issued nothing (FunctionFacts::firstTest).
void perStreamCopiesRuntimeCount(float **h, float **d, cudaStream_t *s,
                                 int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h[i], d[i], 64, cudaMemcpyDeviceToHost, s[i]);
  for (int j = 0; j < n; ++j)
    cudaStreamSynchronize(s[j]);
  consumeValue(h[0][0]);
}

void perStreamCopiesOtherCount(float **h, float **d, cudaStream_t *s, int n,
                               int m) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h[i], d[i], 64, cudaMemcpyDeviceToHost, s[i]);
  for (int j = 0; j < m; ++j)
    cudaStreamSynchronize(s[j]);
  consumeValue(h[0][0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h[0]' is read before
}

void perStreamCopiesCountChanged(float **h, float **d, cudaStream_t *s,
                                 int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h[i], d[i], 64, cudaMemcpyDeviceToHost, s[i]);
  n = n / 2;
  for (int j = 0; j < n; ++j)
    cudaStreamSynchronize(s[j]);
  consumeValue(h[0][0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h[0]' is read before
}

// A copy before the loop was issued whether or not the loop runs.
void copyBeforeRuntimeCountLoop(float *h, const float *d, cudaStream_t s,
                                int n) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int j = 0; j < n; ++j)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// An event per copy, recorded in the copy loop and waited for in a loop
// with the same first test: the record covers the copy on every path where
// the copy was issued (a path that skipped the loop issued none).
void eventPerCopyRuntimeCount(float *h, const float *d, cudaStream_t s,
                              cudaEvent_t *ev, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[i], s);
  }
  for (int i = 0; i < n; ++i)
    cudaEventSynchronize(ev[i]);
  consumeValue(h[0]);
}

void eventRecordedBeforeTheCopy(float *h, const float *d, cudaStream_t s,
                                cudaEvent_t *ev, int n) {
  for (int i = 0; i < n; ++i) {
    cudaEventRecord(ev[i], s);
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s);
  }
  for (int i = 0; i < n; ++i)
    cudaEventSynchronize(ev[i]);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// The copy pending on both sides of the branch, the record on one: not
// covered on the other.
void eventRecordedOnOneBranch(float *h, const float *d, cudaStream_t s,
                              cudaEvent_t e, bool record) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  if (record)
    cudaEventRecord(e, s);
  cudaEventSynchronize(e);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void sharedIndexVariable(float *h, const float *d, cudaStream_t *s) {
  int i;
  for (i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  for (i = 0; i < N; ++i)
    cudaStreamSynchronize(s[i]);
  consume(h, N * Chunk);
}

void syncLoopStopsOneShort(float *h, const float *d) {
  cudaStream_t s[N];
  for (int i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  for (int j = 0; j < N - 1; ++j)
    cudaStreamSynchronize(s[j]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:5: note: this synchronizes stream 's[j]', elements 0 to 2 of its array, but the copy's stream may be any of elements 0 to 3
}

void sharedIndexStopsOneShort(float *h, const float *d, cudaStream_t *s) {
  int i;
  for (i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  for (i = 1; i < N; ++i)
    cudaStreamSynchronize(s[i]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
  // CHECK: :[[@LINE-3]]:5: note: this synchronizes stream 's[i]', elements 1 to 3 of its array, but the copy's stream may be any of elements 0 to 3
}

void syncOnlyTheFirst(float *h, const float *d, cudaStream_t *s) {
  for (int i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  cudaStreamSynchronize(s[0]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 's[0]', element 0 of its array, but the copy's stream may be any of elements 0 to 3
}

// Two constant elements are two streams.
void otherConstantElement(float *h, const float *d, cudaStream_t *s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s[1]);
  cudaStreamSynchronize(s[0]);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 's[0]', not stream 's[1]', the copy's stream
}

// An index the check cannot follow: it does not claim another stream.
void unknownIndex(float *h, const float *d, cudaStream_t *s, int k) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s[k]);
  cudaStreamSynchronize(s[0]);
  consumeValue(h[0]);
}

// Syncing each chunk's stream, then reading that chunk.
void syncAndReadEachChunk(float *h, const float *d, cudaStream_t *s) {
  for (int i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  for (int j = 0; j < N; ++j) {
    cudaStreamSynchronize(s[j]);
    consume(h + j * Chunk, Chunk);
  }
}

void vectorOfStreams(float *h, const float *d,
                     std::vector<cudaStream_t> &streams) {
  for (size_t i = 0; i < streams.size(); ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, streams[i]);
  for (cudaStream_t st : streams)
    cudaStreamSynchronize(st);
  consume(h, N * Chunk);
}

void rangeForOverArray(float *h, const float *d) {
  cudaStream_t s[N];
  for (int i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  for (auto &st : s)
    cudaStreamSynchronize(st);
  consume(h, N * Chunk);
}

// A range-for over another array does not cover.
void rangeForOverAnotherArray(float *h, const float *d) {
  cudaStream_t s[N], t[N];
  for (int i = 0; i < N; ++i)
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  for (auto &st : t)
    cudaStreamSynchronize(st);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
}

//===--- Families of events ------------------------------------------------===//

void eventPerStream(float *h, const float *d, cudaStream_t *s,
                    cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
    cudaEventRecord(ev[i], s[i]);
  }
  for (int j = 0; j < N; ++j)
    cudaEventSynchronize(ev[j]);
  consume(h, N * Chunk);
}

void eventLoopStopsOneShort(float *h, const float *d, cudaStream_t *s,
                            cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
    cudaEventRecord(ev[i], s[i]);
  }
  for (int j = 0; j < N - 1; ++j)
    cudaEventSynchronize(ev[j]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
  // CHECK: :[[@LINE-3]]:5: note: this synchronizes event 'ev[j]', elements 0 to 2 of its array, but the event recorded after the copy may be any of elements 0 to 3
}

//===--- The record of a loop's last iteration -----------------------------===//
// A loop from constant to constant that records `ev[i]` on one stream in
// every iteration, with no break, continue or goto, last records element
// N - 1, after every iteration's copy on that stream: after the loop, a
// sync of ev[N - 1] covers them all (a chunked pipeline's final wait).
void lastIterationEventSynced(float *h, const float *d, cudaStream_t s,
                              cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[i], s);
  }
  cudaEventSynchronize(ev[N - 1]);
  consume(h, N * Chunk);
}

void earlierIterationEventSynced(float *h, const float *d, cudaStream_t s,
                                 cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[i], s);
  }
  cudaEventSynchronize(ev[N - 2]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes event 'ev[N - 2]', element 2 of its array, but the event recorded after the copy may be any of elements 0 to 3
}

// On a stream per iteration, the last record follows only the last copy.
void lastIterationEventPerChunkStream(float *h, const float *d,
                                      cudaStream_t *s, cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
    cudaEventRecord(ev[i], s[i]);
  }
  cudaEventSynchronize(ev[N - 1]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
}

// Recorded in some iterations only, or in a loop that may stop early: the
// last record may be of another element.
bool stopHere(int i);
void lastIterationEventConditional(float *h, const float *d, cudaStream_t s,
                                   cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
    if (i % 2 == 0)
      cudaEventRecord(ev[i], s);
  }
  cudaEventSynchronize(ev[N - 1]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
}

void lastIterationEventLoopBreaks(float *h, const float *d, cudaStream_t s,
                                  cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[i], s);
    if (stopHere(i))
      break;
  }
  cudaEventSynchronize(ev[N - 1]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
}

// Inside the loop, ev[N - 1] is not yet recorded in the earlier iterations.
void lastIterationEventSyncedInside(float *h, const float *d, cudaStream_t s,
                                    cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[i], s);
    cudaEventSynchronize(ev[N - 1]);
    consumeValue(h[i * Chunk]);
    // CHECK: :[[@LINE-1]]:18: warning: 'h' is read before
  }
}

//===--- front() of a container --------------------------------------------===//
// `v.front()` is element 0, as `v[0]` is.
void frontOfOtherElement(float *h, const float *d,
                         std::vector<cudaStream_t> &streams) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[1]);
  cudaStreamSynchronize(streams.front());
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'streams.front()', not stream 'streams[1]', the copy's stream
}

void frontOfSameElement(float *h, const float *d,
                        std::vector<cudaStream_t> &streams) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[0]);
  cudaStreamSynchronize(streams.front());
  consumeValue(h[0]);
}

// Events recorded before the copies do not cover them.
void eventRecordedBeforeCopies(float *h, const float *d, cudaStream_t *s,
                               cudaEvent_t *ev) {
  for (int i = 0; i < N; ++i) {
    cudaEventRecord(ev[i], s[i]);
    cudaMemcpyAsync(h + i * Chunk, d + i * Chunk, Chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  }
  for (int j = 0; j < N; ++j)
    cudaEventSynchronize(ev[j]);
  consume(h, N * Chunk);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is passed to 'consume' before
}

// A bound filled through its address before the loops (`cudaGetDeviceCount`
// and other out-parameters) keeps one value from the first loop on; filled
// again between them, it may differ.
float deviceCountBound(float *h, float **d, cudaStream_t *s, size_t c) {
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  for (int dev = 0; dev < ndev; ++dev)
    cudaMemcpyAsync(h + dev * c, d[dev], c * 4, cudaMemcpyDeviceToHost, s[dev]);
  for (int dev = 0; dev < ndev; ++dev)
    cudaStreamSynchronize(s[dev]);
  return h[0];
}
float deviceCountAskedAgain(float *h, float **d, cudaStream_t *s, size_t c) {
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  for (int dev = 0; dev < ndev; ++dev)
    cudaMemcpyAsync(h + dev * c, d[dev], c * 4, cudaMemcpyDeviceToHost, s[dev]);
  cudaGetDeviceCount(&ndev);
  for (int dev = 0; dev < ndev; ++dev)
    cudaStreamSynchronize(s[dev]);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
}
