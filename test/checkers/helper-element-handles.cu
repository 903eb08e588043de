// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Elements of an array of events (and of streams, below) that a helper
// names by its parameter (`cudaEventRecord(ev_[i], s_)` in `markDone(int
// i)`): the caller names the same element by the argument, `ev_[0]` at
// `markDone(0)` (the first adversarial round's program 49). Kept only where the helper never
// changes the index; an element the caller cannot name is not followed.
// Each negative beside the positive that differs in one thing.

#include <vector>
#include <cuda_runtime.h>

void consume(float v);

struct Pipe {
  cudaStream_t s_;
  cudaEvent_t ev_[4];
  std::vector<cudaEvent_t> evs_;
  float *h_;
  const float *d_;

  void markDone(int i) { cudaEventRecord(ev_[i], s_); }
  void markDoneVec(int i) { cudaEventRecord(evs_[i], s_); }
  void waitChunk(int i) { cudaEventSynchronize(ev_[i]); }
  void markNext(int i) {
    ++i;
    cudaEventRecord(ev_[i], s_);
  }

  void recordedByIndexThenSynced() {
    cudaMemcpyAsync(h_, d_, 1024, cudaMemcpyDeviceToHost, s_);
    markDone(0);
    cudaEventSynchronize(ev_[0]);
    consume(h_[0]);
  }
  void recordedOtherElement() {
    cudaMemcpyAsync(h_, d_, 1024, cudaMemcpyDeviceToHost, s_);
    markDone(1);
    cudaEventSynchronize(ev_[0]);
    consume(h_[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h_' is read before the asynchronous device-to-host copy
  }
  void recordedByVariableIndex(int k) {
    cudaMemcpyAsync(h_, d_, 1024, cudaMemcpyDeviceToHost, s_);
    markDone(k);
    cudaEventSynchronize(ev_[k]);
    consume(h_[0]);
  }
  void recordedInVector() {
    cudaMemcpyAsync(h_, d_, 1024, cudaMemcpyDeviceToHost, s_);
    markDoneVec(2);
    cudaEventSynchronize(evs_[2]);
    consume(h_[0]);
  }
  void syncedByIndex() {
    cudaMemcpyAsync(h_, d_, 1024, cudaMemcpyDeviceToHost, s_);
    cudaEventRecord(ev_[3], s_);
    waitChunk(3);
    consume(h_[0]);
  }
  void syncedOtherIndex() {
    cudaMemcpyAsync(h_, d_, 1024, cudaMemcpyDeviceToHost, s_);
    cudaEventRecord(ev_[3], s_);
    waitChunk(2);
    consume(h_[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h_' is read before the asynchronous device-to-host copy
    // CHECK: :[[@LINE-3]]:5: note: event 'ev_[2]' is synchronized here
  }
  // The helper changes its index: which element it records is not followed.
  void indexChangedInHelper() {
    cudaMemcpyAsync(h_, d_, 1024, cudaMemcpyDeviceToHost, s_);
    markNext(0);
    cudaEventSynchronize(ev_[1]);
    consume(h_[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h_' is read before the asynchronous device-to-host copy
  }
};

// An element of an array the caller hands over: `evs[k]` of a pointer
// parameter is the caller's `evs[2]`.
void recordAt(cudaEvent_t *evs, int k, cudaStream_t s) {
  cudaEventRecord(evs[k], s);
}
void pointerParamRecorded(float *h, const float *d, cudaStream_t s,
                          cudaEvent_t *evs) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  recordAt(evs, 2, s);
  cudaEventSynchronize(evs[2]);
  consume(h[0]);
}
void pointerParamOtherElement(float *h, const float *d, cudaStream_t s,
                              cudaEvent_t *evs) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  recordAt(evs, 2, s);
  cudaEventSynchronize(evs[1]);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
// Recorded before the copy: the record does not cover it.
void pointerParamRecordedFirst(float *h, const float *d, cudaStream_t s,
                               cudaEvent_t *evs) {
  recordAt(evs, 2, s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventSynchronize(evs[2]);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// Streams alike: a helper that synchronizes an element of an array or a
// container of streams the caller hands over or its object holds
// (`cudaStreamSynchronize(v[0])`) synchronizes the caller's element (the
// twentieth round's c70, c10, c68).
void syncFirst(const std::vector<cudaStream_t> &v) {
  cudaStreamSynchronize(v[0]);
}
void vectorElementSynced(float *h, const float *d,
                         std::vector<cudaStream_t> &streams) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[0]);
  syncFirst(streams);
  consume(h[0]);
}
void vectorOtherElementSynced(float *h, const float *d,
                              std::vector<cudaStream_t> &streams) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[1]);
  syncFirst(streams);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
struct StreamPool {
  cudaStream_t v[2];
  void sync0() { cudaStreamSynchronize(v[0]); }
};
void memberElementSynced(float *h, const float *d, StreamPool &p) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, p.v[0]);
  p.sync0();
  consume(h[0]);
}
void memberOtherElementSynced(float *h, const float *d, StreamPool &p) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, p.v[1]);
  p.sync0();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
void capturedElementSynced(float *h, const float *d) {
  cudaStream_t streams[2];
  cudaStreamCreate(&streams[0]);
  cudaStreamCreate(&streams[1]);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[1]);
  auto fin = [&] { cudaStreamSynchronize(streams[1]); };
  fin();
  consume(h[0]);
  auto other = [&] { cudaStreamSynchronize(streams[0]); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[1]);
  other();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
// Every element in turn, by a range-for over the container (c70): a copy
// on any element is synchronized; one on a stream created here, which the
// caller's container cannot hold, is not.
void syncAll(const std::vector<cudaStream_t> &v) {
  for (cudaStream_t s : v)
    cudaStreamSynchronize(s);
}
void vectorEverySynced(float *h, const float *d,
                       std::vector<cudaStream_t> &streams) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[1]);
  syncAll(streams);
  consume(h[0]);
}
void createdNotInVector(float *h, const float *d,
                        std::vector<cudaStream_t> &streams) {
  cudaStream_t t;
  cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, t);
  syncAll(streams);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}
// A destructor that synchronizes every stream its object holds (c10): the
// copies on them are complete once the object is gone, not before.
class OwnedStreams {
public:
  explicit OwnedStreams(int n) : streams_(n) {
    for (auto &s : streams_)
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  }
  ~OwnedStreams() {
    for (auto s : streams_)
      cudaStreamSynchronize(s);
  }
  cudaStream_t at(size_t i) const { return streams_[i % streams_.size()]; }

private:
  std::vector<cudaStream_t> streams_;
};
void destroyedBeforeRead(float *h, const float *d) {
  {
    OwnedStreams pool(4);
    for (size_t c = 0; c < 8; ++c)
      cudaMemcpyAsync(h + c * 16, d + c * 16, 64, cudaMemcpyDeviceToHost,
                      pool.at(c));
    consume(h[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy
  }
  consume(h[0]);
}
