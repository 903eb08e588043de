// Conditions: branches on a variable the function never changes are
// correlated (`if (async) copy; ... if (async) sync;`), and a stream or
// event query proves completion only of copies issued before it, on the
// edge where it returned cudaSuccess.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <utility>
#include <vector>

void consume(float);

//===--- Correlated branches -----------------------------------------------===//

// The shape of cuda-samples' UnifiedMemoryPerf: the copy and the sync are
// guarded by the same flag, so no path copies without syncing.
void sameFlagGuardsCopyAndSync(float *h, const float *d, cudaStream_t s,
                               bool async) {
  if (async)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  else
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  if (async)
    cudaStreamSynchronize(s);
  consume(h[0]);
}

void oppositeFlagGuardsSync(float *h, const float *d, cudaStream_t s,
                            bool async) {
  if (async)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (!async)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void flagComparedWithConstant(float *h, const float *d, cudaStream_t s,
                              int mode) {
  if (mode == 2)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (mode == 2)
    cudaStreamSynchronize(s);
  consume(h[0]);
}

void flagComparedWithOtherConstant(float *h, const float *d, cudaStream_t s,
                                   int mode) {
  if (mode == 2)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (mode == 3)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// A flag set before the copy (as cuda-samples' UnifiedMemoryPerf does from
// its command line) and unchanged between the branches.
void flagSetEarlierThenUnchanged(float *h, const float *d, cudaStream_t s,
                                 int mode) {
  bool async = false;
  if (mode == 1)
    async = true;
  if (async)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (async)
    cudaStreamSynchronize(s);
  consume(h[0]);
}

// A flag whose address escapes may change behind the function's back.
void setFlag(bool *);
void flagAddressTaken(float *h, const float *d, cudaStream_t s, bool async) {
  setFlag(&async);
  if (async)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (async)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// A flag the function changes between the branches is not trusted.
void flagChangedBetween(float *h, const float *d, cudaStream_t s,
                        bool async) {
  if (async)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  async = !async;
  if (!async)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// The sync under the flag, the read under the same flag: the copy stays
// pending only on the path where the flag is false, which the read is not
// on (a copy live on one side of a join carries that side's literals).
void syncAndReadUnderOneFlag(float *h, const float *d, cudaStream_t s,
                             bool sync) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (sync)
    cudaStreamSynchronize(s);
  if (sync)
    consume(h[0]);
}

void syncUnderFlagReadUnderItsNegation(float *h, const float *d,
                                       cudaStream_t s, bool sync) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (sync)
    cudaStreamSynchronize(s);
  if (!sync)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before
}

void syncUnderFlagReadAlways(float *h, const float *d, cudaStream_t s,
                             bool sync) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (sync)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

// A local of known value decides its branch: only one edge is taken.
void localFlagKnownTrue(float *h, const float *d, cudaStream_t s) {
  bool wait = true;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (wait)
    cudaStreamSynchronize(s);
  consume(h[0]);
}

void localFlagKnownFalse(float *h, const float *d, cudaStream_t s) {
  bool wait = false;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (wait)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

// The producer diagnostic reads the same conditions: the copy under the
// flag that synchronized the producer's stream is ordered, the other not.
__global__ void fillUnderFlag(float *d);
void producerSyncedUnderFlag(float *h, float *d, bool overlap) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fillUnderFlag<<<1, 1, 0, s1>>>(d);
  if (overlap)
    cudaStreamSynchronize(s1);
  if (overlap)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  if (!overlap)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

//===--- Queries -----------------------------------------------------------===//

void queryBeforeTheCopy(float *h, const float *d, cudaStream_t s) {
  cudaError_t r = cudaStreamQuery(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (r == cudaSuccess)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous
}

void queryAfterTheCopy(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaError_t r = cudaStreamQuery(s);
  if (r == cudaSuccess)
    consume(h[0]);
}

void eventQueryPolling(float *h, const float *d, cudaStream_t s,
                       cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  while (cudaEventQuery(e) != cudaSuccess) {
  }
  consume(h[0]);
}

void eventQueryOnEventRecordedBefore(float *h, const float *d,
                                     cudaStream_t s, cudaEvent_t e) {
  cudaEventRecord(e, s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  while (cudaEventQuery(e) != cudaSuccess) {
  }
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// A helper that returns whether a query succeeded (`bool ready() const {
// return cudaEventQuery(ev_) == cudaSuccess; }`): a branch on its call is a
// branch on that query (the third adversarial round's program 04).
struct AsyncResult {
  float *h;
  cudaEvent_t ev;
  cudaStream_t s;
  bool ready() const { return cudaEventQuery(ev) == cudaSuccess; }
  bool streamIdle() const { return cudaStreamQuery(s) != cudaErrorNotReady; }
};
static bool finished(cudaEvent_t e) { return cudaEventQuery(e) == cudaSuccess; }
void queryWrapperPolled(AsyncResult &r, const float *d) {
  cudaMemcpyAsync(r.h, d, 64, cudaMemcpyDeviceToHost, r.s);
  cudaEventRecord(r.ev, r.s);
  while (!r.ready()) {
  }
  consume(r.h[0]);
}
void queryWrapperStreamPolled(AsyncResult &r, const float *d) {
  cudaMemcpyAsync(r.h, d, 64, cudaMemcpyDeviceToHost, r.s);
  while (!r.streamIdle()) {
  }
  consume(r.h[0]);
}
void queryWrapperFreeFunction(float *h, const float *d, cudaStream_t s,
                              cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  if (finished(e))
    consume(h[0]);
}
void queryWrapperNotReadyBranch(float *h, const float *d, cudaStream_t s,
                                cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  if (!finished(e))
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous
}
void queryWrapperResultIgnored(AsyncResult &r, const float *d) {
  cudaMemcpyAsync(r.h, d, 64, cudaMemcpyDeviceToHost, r.s);
  cudaEventRecord(r.ev, r.s);
  (void)r.ready();
  consume(r.h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'r.h' is read before the asynchronous
}
void queryWrapperEventBeforeCopy(float *h, const float *d, cudaStream_t s,
                                 cudaEvent_t e) {
  cudaEventRecord(e, s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  while (!finished(e)) {
  }
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void queryFailureBranch(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (cudaStreamQuery(s) != cudaSuccess)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous
  else
    consume(h[1]);
}

//===--- Aliases through std::move, reads through accessors ----------------===//

void movedPointerIsAnAlias(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  float *q = std::move(h);
  consume(q[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'q' is read before the asynchronous
}

template <class T> struct PinnedAllocator {
  using value_type = T;
  T *allocate(size_t n);
  void deallocate(T *, size_t);
};
using PinnedVector = std::vector<float, PinnedAllocator<float>>;

void accessorsRead(PinnedVector &v, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, s);
  consume(v.front());
  // CHECK: :[[@LINE-1]]:11: warning: 'v' is read before the asynchronous
  v.push_back(1.0f);
  // CHECK: :[[@LINE-1]]:3: warning: 'v' is written before the asynchronous
  cudaStreamSynchronize(s);
  consume(v.back());
}

// Two uses on one line are one access site: one warning.
void iteratorsOnOneLine(PinnedVector &v, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, s);
  for (auto i = v.cbegin(); i != v.cend(); ++i)
    consume(*i);
  // CHECK: :[[@LINE-2]]:17: warning: 'v' is read before the asynchronous
}

//===--- Writes the function cannot see directly ---------------------------===//

void toggle(bool &);
void flagChangedThroughReference(float *h, const float *d, cudaStream_t s,
                                 bool async) {
  if (async)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  toggle(async);
  if (async)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void flagChangedByLambda(float *h, const float *d, cudaStream_t s,
                         bool async) {
  if (async)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto flip = [&] { async = false; };
  flip();
  if (async)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// Two flags, one buffer: every path that copies also syncs.
void twoFlagsOneBuffer(float *h, const float *d, cudaStream_t s, bool c0,
                       bool c1) {
  if (c0)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c1)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c0)
    cudaStreamSynchronize(s);
  if (c1)
    cudaStreamSynchronize(s);
  consume(h[0]);
}

void twoFlagsOneBufferOneSync(float *h, const float *d, cudaStream_t s,
                              bool c0, bool c1) {
  if (c0)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c1)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c0)
    cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// A variable tested once, inside a loop it is declared outside of: the test
// meets its own literal on the next iteration, so the literal is kept (the
// branch not taken the first time is not taken later either).
void oneTestOfAParameterInALoop(float *h, const float *d, cudaStream_t s,
                                bool fetch, int n) {
  for (int i = 0; i < n; ++i) {
    if (fetch)
      cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    else
      consume(h[0]);
  }
  cudaStreamSynchronize(s);
}

// Declared in the loop's header, it is set once: the same holds.
void oneTestOfAHeaderVariable(float *h, const float *d, cudaStream_t s,
                              bool async, int n) {
  for (bool fetch = async; n > 0; --n) {
    if (fetch)
      cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    else
      consume(h[0]);
  }
  cudaStreamSynchronize(s);
}

// Declared inside the loop, it has a new value each iteration: a copy in
// one iteration races with the read in the next.
void oneTestOfALoopLocal(float *h, const float *d, cudaStream_t s, int n,
                         const bool *flags) {
  for (int i = 0; i < n; ++i) {
    bool fetch = flags[i];
    if (fetch)
      cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    else
      consume(h[0]);
    // CHECK: :[[@LINE-1]]:15: warning: 'h' is read before the asynchronous
  }
  cudaStreamSynchronize(s);
}

//===--- Conditions on members of const objects ------------------------===//

struct Options {
  bool sync;
  bool verbose;
  int mode;
};

// A member of a const object is correlated like a local.
void constRefFieldTestedTwice(float *h, const float *d, cudaStream_t s,
                              const Options &o) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (o.sync)
    cudaStreamSynchronize(s);
  if (o.sync)
    consume(h[0]);
}

void constPointerFieldTestedTwice(float *h, const float *d, cudaStream_t s,
                                  const Options *o) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (o->mode == 2)
    cudaStreamSynchronize(s);
  if (o->mode == 2)
    consume(h[0]);
}

// The other edge: the read runs where the sync did not.
void constRefFieldNegated(float *h, const float *d, cudaStream_t s,
                          const Options &o) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (o.sync)
    cudaStreamSynchronize(s);
  if (!o.sync)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous
}

// Another member.
void constRefOtherField(float *h, const float *d, cudaStream_t s,
                        const Options &o) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (o.sync)
    cudaStreamSynchronize(s);
  if (o.verbose)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous
}

// A non-const object may change between the tests (a callee holding it):
// not correlated.
void mutableRefField(float *h, const float *d, cudaStream_t s, Options &o) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (o.sync)
    cudaStreamSynchronize(s);
  if (o.sync)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous
}

// A const pointer re-pointed between the tests: not correlated.
void constPointerRepointed(float *h, const float *d, cudaStream_t s,
                           const Options *o, const Options *next) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (o->sync)
    cudaStreamSynchronize(s);
  o = next;
  if (o->sync)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous
}

//===--- Const members fixed at construction -------------------------------===//
// A const member that every constructor sets to one constant holds it in
// every object of the class: a branch on it takes one edge.
struct BlockingReader {
  BlockingReader(float *h, const float *d, cudaStream_t s)
      : h_(h), d_(d), s_(s), blocking_(true) {}
  float read() {
    cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, s_);
    if (blocking_)
      cudaStreamSynchronize(s_);
    return h_[0];
  }
  float *h_;
  const float *d_;
  cudaStream_t s_;
  const bool blocking_;
};
float readTwice(BlockingReader &r) { return r.read() + r.read(); }

struct ChosenReader { // set from a parameter: either edge
  ChosenReader(bool b, float *h, const float *d, cudaStream_t s)
      : h_(h), d_(d), s_(s), blocking_(b) {}
  float read() {
    cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, s_);
    if (blocking_)
      cudaStreamSynchronize(s_);
    return h_[0];
    // CHECK: :[[@LINE-1]]:12: warning: 'h_' is read before
  }
  float *h_;
  const float *d_;
  cudaStream_t s_;
  const bool blocking_;
};

enum class CopyMode { Async, Sync };
struct ModeReader { // a default member initializer, no constructor
  float *h_;
  const float *d_;
  cudaStream_t s_;
  const CopyMode mode_ = CopyMode::Async;
  float read() {
    cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, s_);
    if (mode_ == CopyMode::Sync)
      cudaStreamSynchronize(s_);
    return h_[0];
    // CHECK: :[[@LINE-1]]:12: warning: 'h_' is read before
  }
};

//===--- A flag set to constants on each path --------------------------------===//
// A constant written to a local holds on that path until its next write: a
// later test of the local takes the edges its paths allow.
float pollThenFallBack(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  bool ready = false;
  for (int attempt = 0; attempt < 64; ++attempt)
    if (cudaStreamQuery(s) == cudaSuccess) {
      ready = true;
      break;
    }
  if (!ready)
    cudaStreamSynchronize(s);
  return h[0];
}
float pollThenWrongFallBack(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  bool ready = false;
  for (int attempt = 0; attempt < 64; ++attempt)
    if (cudaStreamQuery(s) == cudaSuccess) {
      ready = true;
      break;
    }
  if (ready)
    cudaStreamSynchronize(s);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before
}

//===--- A loop of exactly one iteration --------------------------------------===//
// Its back edge is never taken: a read at the top of the body cannot meet
// the copy at its bottom; after the loop, the copy is in flight.
void oneIteration(float *h, const float *d, cudaStream_t s) {
  for (int i = 0; i < 1; ++i) {
    consume(h[0]);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}
void twoIterations(float *h, const float *d, cudaStream_t s) {
  for (int i = 0; i < 2; ++i) {
    consume(h[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  cudaStreamSynchronize(s);
}

//===--- Orders against constants and counting loops -------------------------===//
// `n > 0` is `n >= 1` on its true edge and `n <= 0` on its false one, and a
// counting loop's body (`for (int i = 0; i < n; ++i)`) is entered only with
// `n >= 1`: a copy and a read under contradicting orders never meet.
void copyWhenZeroReadInLoop(float *h, const float *d, cudaStream_t s, int n) {
  if (!n)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < n; ++i)
    consume(h[i]);
  cudaStreamSynchronize(s);
}

void copyWhenSetReadInLoop(float *h, const float *d, cudaStream_t s, int n) {
  if (n)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < n; ++i)
    consume(h[i]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before
  cudaStreamSynchronize(s);
}

void copyInLoopReadWhenEmpty(float *h, const float *d, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (n > 0)
    cudaStreamSynchronize(s);
  else
    consume(h[0]);
}

void copyInLoopReadWhenOne(float *h, const float *d, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (n > 1)
    cudaStreamSynchronize(s);
  else
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before
}

// A counting loop's bound of known value: the body is entered (n >= 1),
// and the loop still ends, so what follows it is reached.
void copyInLoopOfKnownBound(float *h, const float *d, cudaStream_t s) {
  const int n = 4;
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
  cudaStreamSynchronize(s);
}

void copyInLoopOfKnownBoundSynced(float *h, const float *d, cudaStream_t s) {
  int n = 4;
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

// A known bound of 0: the body is never entered.
void copyInLoopOfZeroBound(float *h, const float *d, cudaStream_t s) {
  int n = 0;
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
}

void disjointRanges(float *h, const float *d, cudaStream_t s, int n) {
  if (n >= 2)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (2 > n)
    consume(h[0]);
  cudaStreamSynchronize(s);
}

void overlappingRanges(float *h, const float *d, cudaStream_t s, int n) {
  if (n >= 2)
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (n < 3)
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before
  cudaStreamSynchronize(s);
}
