// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Host-side ordering: a thread whose function synchronizes the copy's
// stream (or the device), joined or waited for before the read; a host
// function enqueued after the copy that signals through the object handed
// to it, polled by a loop or waited for through a promise's future. Each
// negative beside the positive that differs in one thing. GPU cases:
// runtime/cases/thread_sync_join.cu, host_func_flag_wait.cu and twins.

#include <cstdlib>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <future>
#include <thread>
#include <cuda_runtime.h>

void consume(float v);

//===--- Threads -----------------------------------------------------------===//

void threadSyncsThenJoined(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread waiter([s] { cudaStreamSynchronize(s); });
  waiter.join();
  consume(h[0]);
}

void threadReadBeforeJoin(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread waiter([s] { cudaStreamSynchronize(s); });
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  waiter.join();
}

void threadSyncsOtherStream(float *h, const float *d, cudaStream_t s,
                            cudaStream_t other) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread waiter([other] { cudaStreamSynchronize(other); });
  waiter.join();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// The copy is issued after the thread started: its sync may have returned
// before the copy was enqueued.
void threadStartedBeforeCopy(float *h, const float *d, cudaStream_t s) {
  std::thread waiter([s] { cudaStreamSynchronize(s); });
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  waiter.join();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

void syncStream(cudaStream_t s) { cudaStreamSynchronize(s); }
void maybeSync(cudaStream_t s, bool wait) {
  if (wait)
    cudaStreamSynchronize(s);
}

void threadRunsFunction(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread waiter(syncStream, s);
  waiter.join();
  consume(h[0]);
}

// Its function synchronizes on one path only.
void threadRunsConditionalSync(float *h, const float *d, cudaStream_t s,
                               bool wait) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread waiter(maybeSync, s, wait);
  waiter.join();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

void threadSyncsDevice(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread waiter([] { cudaDeviceSynchronize(); });
  waiter.join();
  consume(h[0]);
}

// Joined on one branch only.
void threadJoinedOnOneBranch(float *h, const float *d, cudaStream_t s,
                             bool early) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::thread waiter([s] { cudaStreamSynchronize(s); });
  if (early)
    waiter.join();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  if (!early)
    waiter.join();
}

//===--- std::async ---------------------------------------------------------===//

void asyncSyncsThenGet(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto done = std::async(std::launch::async, [s] { cudaStreamSynchronize(s); });
  done.get();
  consume(h[0]);
}

void asyncSyncsThenWait(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::future<void> done = std::async([s] { cudaStreamSynchronize(s); });
  done.wait();
  consume(h[0]);
}

void asyncNotWaited(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto done = std::async(std::launch::async, [s] { cudaStreamSynchronize(s); });
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  done.get();
}

//===--- Host functions ----------------------------------------------------===//

void CUDART_CB setFlag(void *data) {
  static_cast<std::atomic<int> *>(data)->store(1);
}

void hostFuncFlagPolled(float *h, const float *d, cudaStream_t s) {
  std::atomic<int> done{0};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, setFlag, &done);
  while (done.load() == 0) {
  }
  consume(h[0]);
}

void hostFuncOnOtherStream(float *h, const float *d, cudaStream_t s,
                           cudaStream_t other) {
  std::atomic<int> done{0};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(other, setFlag, &done);
  while (done.load() == 0) {
  }
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// Enqueued before the copy: it may run before the copy completes.
void hostFuncBeforeCopy(float *h, const float *d, cudaStream_t s) {
  std::atomic<int> done{0};
  cudaLaunchHostFunc(s, setFlag, &done);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  while (done.load() == 0) {
  }
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// A read inside the polling loop: the signal may not have come yet.
void hostFuncReadWhilePolling(float *h, const float *d, cudaStream_t s) {
  std::atomic<int> done{0};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, setFlag, &done);
  while (!done.load())
    consume(h[0]);
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy
}

// The loop polls another flag.
void hostFuncOtherFlagPolled(float *h, const float *d, cudaStream_t s,
                             std::atomic<int> &ready) {
  std::atomic<int> done{0};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, setFlag, &done);
  while (ready.load() == 0) {
  }
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

struct Completion {
  std::atomic<bool> done{false};
  int status = 0;
};
void CUDART_CB complete(void *data) {
  static_cast<Completion *>(data)->done = true;
}

// A state object handed by pointer; the loop reads its member.
void hostFuncStatePolled(float *h, const float *d, cudaStream_t s,
                         Completion *state) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, complete, state);
  do {
  } while (!state->done);
  consume(h[0]);
}

void CUDART_CB fulfil(void *data) {
  static_cast<std::promise<void> *>(data)->set_value();
}

void hostFuncPromiseWaited(float *h, const float *d, cudaStream_t s) {
  std::promise<void> ready;
  std::future<void> f = ready.get_future();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, fulfil, &ready);
  f.wait();
  consume(h[0]);
}

void hostFuncPromiseNotWaited(float *h, const float *d, cudaStream_t s) {
  std::promise<void> ready;
  std::future<void> f = ready.get_future();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, fulfil, &ready);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  f.wait();
}

// The future need not be kept: `ready.get_future().get()` waits as well.
void hostFuncPromiseTemporaryFuture(float *h, const float *d, cudaStream_t s) {
  std::promise<void> ready;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, fulfil, &ready);
  ready.get_future().get();
  consume(h[0]);
}
void hostFuncPromiseEnqueuedFirst(float *h, const float *d, cudaStream_t s) {
  std::promise<void> ready;
  cudaLaunchHostFunc(s, fulfil, &ready);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  ready.get_future().wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// A helper that returns the future of a promise a host function it
// enqueues fulfils (the first adversarial round's program 23): waiting for
// the result waits for what the stream had in flight at the call.
void CUDART_CB fulfilAndFree(void *data) {
  auto *p = static_cast<std::promise<void> *>(data);
  p->set_value();
  delete p;
}
std::future<void> whenDone(cudaStream_t s) {
  auto *p = new std::promise<void>();
  std::future<void> f = p->get_future();
  cudaLaunchHostFunc(s, fulfilAndFree, p);
  return f;
}
void returnedFutureWaited(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::future<void> f = whenDone(s);
  f.wait();
  consume(h[0]);
}
void returnedFutureWaitedAtOnce(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  whenDone(s).get();
  consume(h[0]);
}
void returnedFutureBeforeCopy(float *h, const float *d, cudaStream_t s) {
  std::future<void> f = whenDone(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  f.wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
void returnedFutureOtherStream(float *h, const float *d, cudaStream_t s,
                               cudaStream_t t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::future<void> f = whenDone(t);
  f.wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
void returnedFutureNotWaited(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::future<void> f = whenDone(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  f.wait();
}
// A helper whose promise is fulfilled only on some paths: not followed.
std::future<void> maybeWhenDone(cudaStream_t s, bool now) {
  auto *p = new std::promise<void>();
  std::future<void> f = p->get_future();
  if (now)
    p->set_value();
  else
    cudaLaunchHostFunc(s, fulfilAndFree, p);
  return f;
}
void returnedFutureSomePaths(float *h, const float *d, cudaStream_t s,
                             bool now) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::future<void> f = maybeWhenDone(s, now);
  f.wait();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

void streamCallbackPolled(cudaStream_t, cudaError_t, void *data) {
  static_cast<std::atomic<int> *>(data)->store(1);
}
void addCallbackFlagPolled(float *h, const float *d, cudaStream_t s) {
  std::atomic<int> done{0};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamAddCallback(s, streamCallbackPolled, &done, 0);
  while (done.load() == 0)
    std::this_thread::yield();
  consume(h[0]);
}

//===--- Condition variables ---------------------------------------------===//

// A host function signals through a context holding a flag, a mutex and a
// condition variable; `cv.wait(lock, pred)` returns once pred() is true, as
// a loop polling the flag would ([thread.condition.condvar]).
struct Notifier {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
};
void CUDART_CB notify(void *data) {
  auto *n = static_cast<Notifier *>(data);
  {
    std::lock_guard<std::mutex> lock(n->m);
    n->done = true;
  }
  n->cv.notify_one();
}

void condvarPredicateWait(float *h, const float *d, cudaStream_t s) {
  Notifier n;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, notify, &n);
  std::unique_lock<std::mutex> lock(n.m);
  n.cv.wait(lock, [&] { return n.done; });
  consume(h[0]);
}

// The predicate reads another object than the one handed to the host
// function.
void condvarPredicateOtherFlag(float *h, const float *d, cudaStream_t s,
                               Notifier &other) {
  Notifier n;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, notify, &n);
  std::unique_lock<std::mutex> lock(other.m);
  other.cv.wait(lock, [&] { return other.done; });
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// A wait without a predicate may wake spuriously ([thread.condition.condvar]).
void condvarWaitWithoutPredicate(float *h, const float *d, cudaStream_t s) {
  Notifier n;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, notify, &n);
  std::unique_lock<std::mutex> lock(n.m);
  n.cv.wait(lock);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// The loop form: `while (!n.done) cv.wait(lock);`.
void condvarWaitLoop(float *h, const float *d, cudaStream_t s) {
  Notifier n;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, notify, &n);
  std::unique_lock<std::mutex> lock(n.m);
  while (!n.done)
    n.cv.wait(lock);
  consume(h[0]);
}
