// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Lambdas that touch a captured destination, called (or handed to a
// function that may call them) while the copy is in flight. A captured
// variable is the enclosing function's own ([expr.prim.lambda.capture]), so
// the lambda's body is looked through like a helper's, with its captures
// standing for the caller's variables.

#include <cuda_runtime.h>
#include <cstdlib>
#include <type_traits>
#include <variant>

void consumeValue(float v);
void consume(const float *p);

namespace std {
template <class It, class F> F for_each(It first, It last, F f) {
  for (; first != last; ++first)
    f(*first);
  return f;
}
template <class T> T &&move(T &t) { return static_cast<T &&>(t); }
class thread {
public:
  template <class F> explicit thread(F &&f) { f(); }
  void join() {}
};
} // namespace std

//===--- Called by name --------------------------------------------------===//

void lambdaReadsCaptureBeforeSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto read = [&] { consumeValue(h[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  read();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'read' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-5]]:34: note: 'read' touches the buffer here
  cudaStreamSynchronize(s);
}

void lambdaReadsCaptureAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto read = [&] { consumeValue(h[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  read();
}

// By value: the lambda holds a copy of the pointer, the same buffer.
void lambdaCapturesPointerByValue(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto write = [h] { h[0] = 0.0f; };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  write();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'write' before
  cudaStreamSynchronize(s);
}

// An alias the lambda captures, of the buffer the copy names.
void lambdaCapturesAnAlias(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  float *tail = h + 8;
  auto read = [&] { consume(tail); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  read();
  // CHECK: :[[@LINE-1]]:3: warning: 'tail' is used by lambda 'read' before
  cudaStreamSynchronize(s);
}

void lambdaTouchesAnotherBuffer(const float *d, cudaStream_t s) {
  float *h, *other;
  cudaMallocHost(&h, 64);
  cudaMallocHost(&other, 64);
  auto read = [&] { consumeValue(other[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  read();
  cudaStreamSynchronize(s);
}

// Written and called at once.
void immediatelyInvokedLambda(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  [&] { consumeValue(h[0]); }();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by a lambda before
  // CHECK: :[[@LINE-2]]:22: note: the lambda touches the buffer here
  cudaStreamSynchronize(s);
}

// Called through its operator() by name.
void lambdaCalledThroughOperator(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto read = [&] { consumeValue(h[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  read.operator()();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'read' before
  cudaStreamSynchronize(s);
}

// A generic lambda: its call operator is analysed once instantiated.
void genericLambda(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto at = [&](auto i) { return h[i]; };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(at(0));
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is used by lambda 'at' before
  cudaStreamSynchronize(s);
  consumeValue(at(1));
}

//===--- Lambdas that synchronize ----------------------------------------===//

void lambdaSyncsCapturedStream(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto wait = [&] { cudaStreamSynchronize(s); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  wait();
  consumeValue(h[0]);
}

void lambdaSyncsAnotherStream(const float *d, cudaStream_t s, cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  auto wait = [&] { cudaStreamSynchronize(t); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  wait();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

// Syncs, then reads: the read is after the sync.
void lambdaSyncsThenReads(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto finish = [&] {
    cudaStreamSynchronize(s);
    consumeValue(h[0]);
  };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  finish();
}

// Syncs only on one branch before reading.
void lambdaSyncsOnOneBranch(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  auto finish = [&] {
    if (c)
      cudaStreamSynchronize(s);
    consumeValue(h[0]);
  };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  finish();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'finish' before
  cudaStreamSynchronize(s);
}

// Syncs stream s, reads: fine for a copy on s, not for one on t.
void lambdaSyncsOneOfTwoStreams(const float *d, cudaStream_t s,
                                cudaStream_t t) {
  float *h, *g;
  cudaMallocHost(&h, 64);
  cudaMallocHost(&g, 64);
  auto finish = [&] {
    cudaStreamSynchronize(s);
    consumeValue(h[0] + g[0]);
  };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(g, d, 64, cudaMemcpyDeviceToHost, t);
  finish();
  // CHECK: :[[@LINE-1]]:3: warning: 'g' is used by lambda 'finish' before
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'g' on stream 't' is issued here
  cudaDeviceSynchronize();
}

void lambdaSyncsCapturedEvent(const float *d, cudaStream_t s, cudaEvent_t e) {
  float *h;
  cudaMallocHost(&h, 64);
  auto wait = [&] { cudaEventSynchronize(e); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  wait();
  consumeValue(h[0]);
}

void lambdaSyncsCapturedEventRecordedBefore(const float *d, cudaStream_t s,
                                            cudaEvent_t e) {
  float *h;
  cudaMallocHost(&h, 64);
  auto wait = [&] { cudaEventSynchronize(e); };
  cudaEventRecord(e, s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  wait();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

class Worker {
public:
  void run(const float *d) {
    auto wait = [this] { cudaStreamSynchronize(s_); };
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
    wait();
    consumeValue(h_[0]);
  }
  void runWithoutWait(const float *d) {
    auto wait = [this] { cudaStreamSynchronize(other_); };
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
    wait();
    consumeValue(h_[0]);
    // CHECK: :[[@LINE-1]]:18: warning: 'h_' is read before
  }

private:
  cudaStream_t s_, other_;
  float *h_;
};

//===--- Init-captures, [this], streams the lambda only uses ----------------===//

// `[p = h]` names h's buffer, `[st = s]` h's stream.
void initCaptureReads(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto read = [p = h] { consumeValue(p[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  read();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'read' before
  cudaStreamSynchronize(s);
}

void initCaptureSyncs(const float *d, cudaStream_t s, cudaEvent_t e) {
  float *h;
  cudaMallocHost(&h, 64);
  auto wait = [st = s] { cudaStreamSynchronize(st); };
  auto waitEvent = [ev = e] { cudaEventSynchronize(ev); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  wait();
  consumeValue(h[0]);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  waitEvent();
  consumeValue(h[0]);
}

// Stream-ordered work on the copy's own stream is ordered after it.
void lambdaEnqueuesOnTheCopysStream(const float *d, float *d2,
                                    cudaStream_t s, cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  auto push = [&] { cudaMemcpyAsync(d2, h, 64, cudaMemcpyHostToDevice, s); };
  auto pushOther = [&] { cudaMemcpyAsync(d2, h, 64, cudaMemcpyHostToDevice, t); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  push();
  pushOther();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'pushOther' before
  cudaStreamSynchronize(s);
}

// The lambda's own stream parameter carries the copy's stream.
void lambdaIssuesCopyOnItsStreamParameter(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto fetch = [&](cudaStream_t st) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, st);
  };
  fetch(s);
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

// Through a helper the lambda calls.
void syncStreamParam(cudaStream_t st) { cudaStreamSynchronize(st); }
void fetchInto(float *p, const float *src, cudaStream_t st) {
  cudaMemcpyAsync(p, src, 64, cudaMemcpyDeviceToHost, st);
}
void lambdaCallsHelpers(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto fetch = [&] { fetchInto(h, d, s); };
  auto wait = [&] { syncStreamParam(s); };
  fetch();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  fetch();
  wait();
  consumeValue(h[0]);
}

class Staging {
public:
  void consumeLater(const float *d) {
    auto use = [this] { consumeValue(h_[0]); };
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
    use();
    // CHECK: :[[@LINE-1]]:5: warning: 'h_' is used by lambda 'use' before
    cudaStreamSynchronize(s_);
    use();
  }
  void fetchInLambda(const float *d) {
    auto fetch = [this, d] { cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_); };
    fetch();
    consumeValue(h_[0]);
    // CHECK: :[[@LINE-1]]:18: warning: 'h_' is read before
    cudaStreamSynchronize(s_);
  }

private:
  float *h_;
  cudaStream_t s_;
};

//===--- Lambdas that issue the copy --------------------------------------===//

void lambdaIssuesCopyIntoCapture(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto fetch = [&] { cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s); };
  fetch();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-5]]:22: note: the copy is issued here
  cudaStreamSynchronize(s);
}

void lambdaIssuesCopyThenSynced(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto fetch = [&] { cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s); };
  fetch();
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

// A pageable captured destination: finished on return (the default).
void lambdaIssuesCopyIntoStackArray(const float *d, cudaStream_t s) {
  float h[16];
  auto fetch = [&] { cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s); };
  fetch();
  consumeValue(h[0]);
}

//===--- Handed to a function that may run it ------------------------------===//

void lambdaPassedToAlgorithm(const float *d, cudaStream_t s, const int *idx,
                             int n) {
  float *h;
  cudaMallocHost(&h, 64);
  float sum = 0;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::for_each(idx, idx + n, [&](int i) { sum += h[i]; });
  // CHECK: :[[@LINE-1]]:31: warning: 'h' is captured by a lambda passed to 'for_each' before
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h'
  // CHECK: :[[@LINE-3]]:51: note: the lambda touches the buffer here
  cudaStreamSynchronize(s);
  consumeValue(sum);
}

void lambdaPassedToAlgorithmAfterSync(const float *d, cudaStream_t s,
                                      const int *idx, int n) {
  float *h;
  cudaMallocHost(&h, 64);
  float sum = 0;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  std::for_each(idx, idx + n, [&](int i) { sum += h[i]; });
  consumeValue(sum);
}

void namedLambdaStartsThread(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto work = [h] { consume(h); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread t(work);
  // CHECK: :[[@LINE-1]]:17: warning: 'h' is captured by a lambda passed to 'thread' before
  t.join();
  cudaStreamSynchronize(s);
}

// std::move only forwards the lambda: not a run, and not reported twice.
void lambdaMovedIntoThread(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto work = [h] { consume(h); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread t(std::move(work));
  // CHECK: :[[@LINE-1]]:17: warning: 'h' is captured by a lambda passed to 'thread' before
  t.join();
  cudaStreamSynchronize(s);
}

// A lambda with a pointer parameter is named by its variable.
void lambdaWithPointerParameter(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto read = [](const float *p) { consumeValue(p[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  read(h);
  // CHECK: :[[@LINE-1]]:8: warning: 'h' is passed to 'read' before
  // CHECK: :[[@LINE-4]]:49: note: 'read' touches the buffer here
  cudaStreamSynchronize(s);
}

// A lambda that syncs before it touches the buffer can be handed on.
void syncingLambdaPassedToAlgorithm(const float *d, cudaStream_t s,
                                    const int *idx, int n) {
  float *h;
  cudaMallocHost(&h, 64);
  float sum = 0;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::for_each(idx, idx + n, [&](int i) {
    cudaStreamSynchronize(s);
    sum += h[i];
  });
  consumeValue(sum);
}

//===--- A lambda that synchronizes a default stream the caller copied on --===//
// A capture copied into on the per-thread default stream, or on a blocking
// stream, and read by a lambda after it synchronizes that stream (or the
// legacy stream, which waits for blocking streams' earlier work): the
// summary's per-thread and blocking-stream seeds (generated programs 922
// and 1452 of runtime/gen).
void perThreadCopyLambdaSyncsPerThread(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  auto l = [&] {
    cudaStreamSynchronize(cudaStreamPerThread);
    consumeValue(h[0]);
  };
  l();
}
void perThreadCopyLambdaBlockingCopy(float *h, float *o, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  auto l = [&] {
    cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
    h[0] = 1.0f;
  };
  l();
}
void blockingStreamCopyLambdaBlockingCopy(float *h, float *o, const float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto l = [&] {
    cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
    consumeValue(h[0]);
  };
  l();
}
void nonBlockingStreamCopyLambdaBlockingCopy(float *h, float *o,
                                             const float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto l = [&] {
    cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
    consumeValue(h[0]);
  };
  l();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'l' before the asynchronous device-to-host copy
}
void perThreadCopyLambdaSyncsOther(float *h, const float *d, cudaStream_t t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  auto l = [&] {
    cudaStreamSynchronize(t);
    consumeValue(h[0]);
  };
  l();
  // CHECK: :[[@LINE-1]]:3: warning: 'h' is used by lambda 'l' before the asynchronous device-to-host copy
}

// std::visit runs its visitor before it returns, through the call operator
// the variant's alternative picks ([variant.visit]): a call of one of
// several targets. A visitor one of whose operators may synchronize makes
// the call one of an unknown target (the third adversarial round's program
// 12); a visitor that cannot order anything changes nothing.
struct ByStream { cudaStream_t s; };
struct ByEvent { cudaEvent_t e; };
using SyncPolicy = std::variant<ByStream, ByEvent>;

static void waitFor(const SyncPolicy &p) {
  std::visit(
      [](auto &&x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ByStream>)
          cudaStreamSynchronize(x.s);
        else
          cudaEventSynchronize(x.e);
      },
      p);
}
static int kindOf(const SyncPolicy &p) {
  return std::visit([](auto &&x) { return sizeof(x) > 8 ? 1 : 0; }, p);
}

void variantPolicyWaits(float *h, const float *d, cudaStream_t s,
                        cudaEvent_t e, bool byStream) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  SyncPolicy pol = byStream ? SyncPolicy{ByStream{s}} : SyncPolicy{ByEvent{e}};
  waitFor(pol);
  consumeValue(h[0]);
}

void variantVisitorThatDoesNotWait(float *h, const float *d, cudaStream_t s,
                                   cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  SyncPolicy pol = ByEvent{e};
  consumeValue(static_cast<float>(kindOf(pol)) + h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before
}
