// StrictMode follows only what the CUDA manual guarantees: copies into
// pageable memory "might be synchronous" (so they count as asynchronous),
// and cudaFree / cudaFreeHost are not synchronizations.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.StrictMode: true}}' \
// RUN:   -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefix=STRICT --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.StrictMode: false}}' \
// RUN:   -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <stdlib.h>
#include <vector>

void consume(float);

void pageableMalloc(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(256);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // STRICT: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // STRICT: :[[@LINE-4]]:3: note: 'h' is pageable host memory: the CUDA manual only says such a copy "might be synchronous", and StrictMode follows the manual
  free(h);
  // STRICT: :[[@LINE-1]]:8: warning: 'h' is passed to 'free' before the asynchronous
}

void pageableStackArray(const float *d, cudaStream_t s) {
  float h[64];
  cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void pageableVector(const float *d, cudaStream_t s) {
  std::vector<float> v(64);
  cudaMemcpyAsync(v.data(), d, 256, cudaMemcpyDeviceToHost, s);
  consume(v[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'v' is read before the asynchronous
}

void pageableThenSync(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(256);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
  free(h);
}

void freeOtherBuffer(float *h, const float *d, float *dOther,
                     cudaStream_t s) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaFree(dOther);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // STRICT: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // STRICT: :[[@LINE-4]]:3: note: 'cudaFree' is not documented to synchronize; StrictMode does not count it
}

void freeHostOtherBuffer(float *h, const float *d, float *hOther,
                         cudaStream_t s) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  cudaFreeHost(hOther);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// Both modes agree where the pattern is plainly racy.
void pinnedNoSync(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // DEFAULT: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // STRICT: :[[@LINE-2]]:11: warning: 'h' is read before the asynchronous
}

//===--- raft's synchronizations (issue 23, item 6) ------------------------===//
// raft::interruptible::synchronize polls a query through a function pointer
// the check does not follow; it is a row of the model (a host sync of its
// stream, or of its event), and raft::resource::sync_stream(res) reaches it
// on the stream get_cuda_stream(res) names. A pageable destination under
// StrictMode is then covered, as the fixed code of raft's Copy2DAsync test
// (recall entry raft-4e218c5964) is.
namespace raft {
struct resources {
  void *impl;
};
class interruptible {
public:
  static void synchronize(cudaStream_t stream) {
    synchronize_impl(cudaStreamQuery, stream);
  }
  static void synchronize(cudaEvent_t event) {
    synchronize_impl(cudaEventQuery, event);
  }

private:
  template <typename Query, typename Object>
  static void synchronize_impl(Query query, Object object) {
    while (query(object) == cudaErrorNotReady) {
    }
  }
};
namespace resource {
cudaStream_t get_cuda_stream(const resources &res);
inline void sync_stream(const resources &res, cudaStream_t stream) {
  interruptible::synchronize(stream);
}
inline void sync_stream(const resources &res) {
  sync_stream(res, get_cuda_stream(res));
}
} // namespace resource
} // namespace raft

void raftSyncStreamOfTheHandle(raft::resources &handle, const float *d) {
  auto stream = raft::resource::get_cuda_stream(handle);
  std::vector<float> h(16);
  cudaMemcpyAsync(h.data(), d, 64, cudaMemcpyDeviceToHost, stream);
  raft::resource::sync_stream(handle);
  consume(h[0]);
}

void raftInterruptibleEvent(const float *d, cudaStream_t s, cudaEvent_t e) {
  std::vector<float> h(16);
  cudaMemcpyAsync(h.data(), d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  raft::interruptible::synchronize(e);
  consume(h[0]);
}

void raftSyncOfAnotherStream(raft::resources &handle, const float *d,
                             cudaStream_t other) {
  auto stream = raft::resource::get_cuda_stream(handle);
  std::vector<float> h(16);
  cudaMemcpyAsync(h.data(), d, 64, cudaMemcpyDeviceToHost, stream);
  raft::resource::sync_stream(handle, other);
  consume(h[0]);
  // STRICT: :[[@LINE-1]]:11: warning: 'h' is read before
}
