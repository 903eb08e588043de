// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Threads and futures held in a container: each started one whose function
// synchronizes the copy's stream (or the device) covers what was in flight
// when it started; a loop that joins every element (waits for every future)
// waits for them all on its exit ([thread.thread.member]: the completion of
// the thread synchronizes with the return of join()). Positive beside
// negative. GPU case for the single thread: runtime/cases/thread_sync_join.cu.

#include <future>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

void consume(float v);

void joinedInRangeFor(float *h, const float *d, cudaStream_t *s, int n) {
  for (int i = 0; i < 4; ++i)
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s[0]);
  std::vector<std::thread> workers;
  for (int i = 0; i < 4; ++i)
    workers.emplace_back([] { cudaDeviceSynchronize(); });
  for (auto &t : workers)
    t.join();
  consume(h[0]);
}

// The read comes before the loop that joins them.
void readBeforeJoinLoop(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::vector<std::thread> workers;
  workers.emplace_back([s] { cudaStreamSynchronize(s); });
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  for (auto &t : workers)
    t.join();
}

void pushedThreadsJoinedIfJoinable(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::vector<std::thread> workers;
  workers.push_back(std::thread([s] { cudaStreamSynchronize(s); }));
  for (std::thread &t : workers)
    if (t.joinable())
      t.join();
  consume(h[0]);
}

// Each thread synchronizes another stream than the copy's.
void threadsSyncOtherStream(float *h, const float *d, cudaStream_t s,
                            cudaStream_t other) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::vector<std::thread> workers;
  workers.emplace_back([other] { cudaStreamSynchronize(other); });
  for (auto &t : workers)
    t.join();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// A loop that joins only some of them (a condition other than joinable()).
void joinedUnderCondition(float *h, const float *d, cudaStream_t s,
                          bool wait) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::vector<std::thread> workers;
  workers.emplace_back([s] { cudaStreamSynchronize(s); });
  for (auto &t : workers)
    if (wait)
      t.join();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  for (auto &t : workers)
    if (t.joinable())
      t.join();
}

// Two copies on two streams, a thread for each: the container's signal
// covers both.
void oneThreadPerStream(float *h1, float *h2, const float *d, cudaStream_t s1,
                        cudaStream_t s2) {
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, s1);
  cudaMemcpyAsync(h2, d, 64, cudaMemcpyDeviceToHost, s2);
  std::vector<std::thread> workers;
  workers.emplace_back([s1] { cudaStreamSynchronize(s1); });
  workers.emplace_back([s2] { cudaStreamSynchronize(s2); });
  for (size_t i = 0; i < workers.size(); ++i)
    workers[i].join();
  consume(h1[0] + h2[0]);
}

// The copy into h2 is issued after the thread for s2 started.
void copyAfterItsThread(float *h1, float *h2, const float *d, cudaStream_t s1,
                        cudaStream_t s2) {
  cudaMemcpyAsync(h1, d, 64, cudaMemcpyDeviceToHost, s1);
  std::vector<std::thread> workers;
  workers.emplace_back([s1] { cudaStreamSynchronize(s1); });
  workers.emplace_back([s2] { cudaStreamSynchronize(s2); });
  cudaMemcpyAsync(h2, d, 64, cudaMemcpyDeviceToHost, s2);
  for (auto &t : workers)
    t.join();
  consume(h1[0]);
  consume(h2[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h2' is read before the asynchronous device-to-host copy
}

void futuresWaitedInLoop(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::vector<std::future<void>> pending;
  pending.push_back(std::async(std::launch::async, [s] { cudaStreamSynchronize(s); }));
  for (auto &f : pending)
    f.get();
  consume(h[0]);
}

// Waiting for the first future only.
void firstFutureOnly(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  std::vector<std::future<void>> pending;
  pending.push_back(std::async(std::launch::async, [] {}));
  pending.push_back(std::async(std::launch::async, [s] { cudaStreamSynchronize(s); }));
  pending[0].get();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
  for (auto &f : pending)
    f.wait();
}
