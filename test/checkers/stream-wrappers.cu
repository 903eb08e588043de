// Stream identity through wrapper classes (issue 12, class 3). A class that
// converts implicitly to a stream handle (rmm::cuda_stream_view,
// rmm::cuda_stream, c10::cuda::CUDAStream) stands for the stream it holds:
// building one from a stream, converting it back, and its const accessors
// (value(), stream(), view()) all name that stream, whether or not their
// definitions are visible (rmm's are compiled into librmm). Its
// synchronize() without a visible definition is a host sync of its stream.
// Where the check cannot tell two streams apart (through pointers, calls)
// it does not claim that they differ.
//
// RUN: %clang_tidy_cars %s \
// RUN:   -config='{CheckOptions: {cuda-async-read-before-sync.StreamSyncFunctions: "DeviceStream::wait:this"}}' \
// RUN:   -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// Without the option row, app::DeviceStream::wait() is unknown:
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=NOROW

#include <cuda_runtime.h>
void consumeValue(float v);

// rmm's cuda_stream_view, as declared in rmm/cuda_stream_view.hpp: every
// member is defined out of line, in librmm.
namespace rmm {
class cuda_stream_view {
public:
  cuda_stream_view() = default;
  cuda_stream_view(int) = delete;
  cuda_stream_view(cudaStream_t stream) noexcept;
  cudaStream_t value() const noexcept;
  operator cudaStream_t() const noexcept;
  void synchronize() const;
  bool is_default() const noexcept;

private:
  cudaStream_t stream_{};
};
// An owning stream: converts to a handle and to a view.
class cuda_stream {
public:
  cuda_stream();
  cudaStream_t value() const;
  operator cudaStream_t() const noexcept;
  cuda_stream_view view() const;
  operator cuda_stream_view() const;
  void synchronize() const;
};
} // namespace rmm

// raft::copy / raft::update_host, as in raft/util/cudart_utils.hpp.
namespace raft {
template <typename Type>
void copy(Type *dst, const Type *src, size_t len,
          rmm::cuda_stream_view stream) {
  cudaMemcpyAsync(dst, src, len * sizeof(Type), cudaMemcpyDeviceToHost,
                  stream);
}
template <typename Type>
void update_host(Type *h_ptr, const Type *d_ptr, size_t len,
                 rmm::cuda_stream_view stream) {
  copy(h_ptr, d_ptr, len, stream);
}
} // namespace raft

//===--- The copy's stream is a view of the stream synchronized -------------===//

void updateHostThenSyncHandle(float *h, const float *d, cudaStream_t stream) {
  raft::update_host(h, d, 16, stream);
  cudaStreamSynchronize(stream);
  consumeValue(h[0]);
}

void updateHostThenSyncAnotherHandle(float *h, const float *d,
                                     cudaStream_t stream, cudaStream_t other) {
  raft::update_host(h, d, 16, stream);
  cudaStreamSynchronize(other);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'other', not stream 'stream', the copy's stream
}

void updateHostWithoutSync(float *h, const float *d, cudaStream_t stream) {
  raft::update_host(h, d, 16, stream);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void copyOnViewSyncView(float *h, const float *d, rmm::cuda_stream_view sv) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, sv);
  sv.synchronize();
  consumeValue(h[0]);
}

void copyOnViewValueSyncHandle(float *h, const float *d,
                               rmm::cuda_stream_view sv) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, sv.value());
  cudaStreamSynchronize(sv);
  consumeValue(h[0]);
}

void copyOnViewSyncOtherView(float *h, const float *d,
                             rmm::cuda_stream_view sv,
                             rmm::cuda_stream_view other) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, sv);
  other.synchronize();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'other', not stream 'sv', the copy's stream
}

void viewReadBeforeItsSync(float *h, const float *d,
                           rmm::cuda_stream_view sv) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, sv);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  sv.synchronize();
}

// Not a synchronization: another member function of the view.
void viewQueriedNotSynced(float *h, const float *d, rmm::cuda_stream_view sv) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, sv);
  if (sv.is_default())
    return;
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

struct Pipeline {
  rmm::cuda_stream stream_;
  float *h_;
  const float *d_;
  void fetch() {
    cudaMemcpyAsync(h_, d_, 64, cudaMemcpyDeviceToHost, stream_.value());
  }
  void fetchOnView() {
    raft::copy(h_, d_, 16, stream_.view());
  }
  float get() {
    fetch();
    stream_.synchronize();
    return h_[0];
  }
  float getFromView() {
    fetchOnView();
    cudaStreamSynchronize(stream_);
    return h_[0];
  }
  float getTooEarly() {
    fetchOnView();
    float v = h_[0];
    // CHECK: :[[@LINE-1]]:15: warning: 'h_' is read before
    stream_.synchronize();
    return v;
  }
};

//===--- A project's own class that holds a stream -------------------------===//

// A class with a stream accessor but no conversion is not a stream wrapper;
// its synchronize() without a readable definition is still taken for a
// sync of the object's stream (the stream its accessor supplies). A member
// function of another name is declared in the options (the RUN line's
// `DeviceStream::wait:this`).
namespace app {
class DeviceStream {
public:
  cudaStream_t stream() const;
  void synchronize();
  void wait();
  void flush();
};
} // namespace app

void ownClassSynchronized(float *h, const float *d, app::DeviceStream &ds) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ds.stream());
  ds.synchronize();
  consumeValue(h[0]);
}

void ownClassWaitDeclared(float *h, const float *d, app::DeviceStream &ds) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ds.stream());
  ds.wait();
  consumeValue(h[0]);
  // NOROW: :[[@LINE-1]]:16: warning: 'h' is read before
}

void ownClassOtherMember(float *h, const float *d, app::DeviceStream &ds) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ds.stream());
  ds.flush();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

//===--- Streams the check cannot tell apart are not claimed to differ ------===//

struct Context {
  cudaStream_t stream;
};
struct Backend {
  Context *context;
};

void throughPointerAlias(float *h, const float *d, Backend *b) {
  Context *ctx = b->context;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, b->context->stream);
  cudaStreamSynchronize(ctx->stream);
  consumeValue(h[0]);
}

cudaStream_t streamOf(int device);

void throughCalls(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streamOf(0));
  cudaStreamSynchronize(streamOf(0));
  consumeValue(h[0]);
}

// A call's result may be any stream, a variable's included, either way.
void callThenVariable(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streamOf(1));
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}
void variableThenCall(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(streamOf(1));
  consumeValue(h[0]);
}

// Two members of one object are distinct streams.
struct TwoStreams {
  cudaStream_t copy, compute;
};
void distinctMembers(float *h, const float *d, TwoStreams &t) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, t.copy);
  cudaStreamSynchronize(t.compute);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 't.compute', not stream 't.copy', the copy's stream
}

//===--- A sync through a function pointer (issue 12, class 11) ------------===//

// raft::interruptible::synchronize polls cudaStreamQuery passed as a
// function pointer (raft/core/interruptible.hpp): the helper is summarized
// with its parameter bound to the function the caller passes.
namespace raft {
class interruptible {
public:
  static void synchronize(rmm::cuda_stream_view stream) {
    get_token()->synchronize_impl(cudaStreamQuery, stream);
  }
  static void synchronize(cudaEvent_t event) {
    get_token()->synchronize_impl(cudaEventQuery, event);
  }
  static interruptible *get_token();
  void yield_impl();
  template <typename Query, typename Object>
  void synchronize_impl(Query query, Object object) {
    cudaError_t query_result;
    while (true) {
      yield_impl();
      query_result = query(object);
      if (query_result != cudaErrorNotReady)
        break;
    }
  }
};
struct resources {};
inline void sync_stream(const resources &res, rmm::cuda_stream_view stream) {
  interruptible::synchronize(stream);
}
} // namespace raft

void raftSyncStream(float *h, const float *d, cudaStream_t stream,
                    const raft::resources &handle) {
  raft::update_host(h, d, 16, stream);
  raft::sync_stream(handle, stream);
  consumeValue(h[0]);
}

void raftSyncAnotherStream(float *h, const float *d, cudaStream_t stream,
                           cudaStream_t other, const raft::resources &handle) {
  raft::update_host(h, d, 16, stream);
  raft::sync_stream(handle, other);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this synchronizes stream 'other', not stream 'stream', the copy's stream
}

void raftSyncEvent(float *h, const float *d, cudaStream_t stream,
                   cudaEvent_t e) {
  raft::update_host(h, d, 16, stream);
  cudaEventRecord(e, stream);
  raft::interruptible::synchronize(e);
  consumeValue(h[0]);
}

// A function pointer the check does not know: no sync.
cudaError_t myQuery(cudaStream_t s);
template <typename Query> void pollWith(Query q, cudaStream_t s) {
  while (q(s) == cudaErrorNotReady) {
  }
}
void pollWithUnknownFunction(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  pollWith(myQuery, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}
void pollWithStreamQuery(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  pollWith(cudaStreamQuery, s);
  consumeValue(h[0]);
}

//===--- A helper syncing a call of its parameter --------------------------===//

// raft::resource::sync_stream(res) synchronizes get_cuda_stream(res): at
// sync_stream(handle) that is get_cuda_stream(handle), the copy's stream.
namespace raft {
rmm::cuda_stream_view get_cuda_stream(const resources &res);
inline void sync_stream(const resources &res) {
  sync_stream(res, get_cuda_stream(res));
}
} // namespace raft

void raftSyncMainStream(float *h, const float *d,
                        const raft::resources &handle) {
  raft::update_host(h, d, 16, raft::get_cuda_stream(handle));
  raft::sync_stream(handle);
  consumeValue(h[0]);
}

// Another handle's stream is a call the check cannot tell from this one's
// (two handles may share a stream): no claim that it differs.
void raftSyncAnotherHandle(float *h, const float *d,
                           const raft::resources &handle) {
  raft::resources other;
  raft::update_host(h, d, 16, raft::get_cuda_stream(handle));
  raft::sync_stream(other);
  consumeValue(h[0]);
}

// A device sync covers it.
void raftSyncDevice(float *h, const float *d, const raft::resources &handle) {
  raft::update_host(h, d, 16, raft::get_cuda_stream(handle));
  cudaDeviceSynchronize();
  consumeValue(h[0]);
}

void raftNoSyncMainStream(float *h, const float *d,
                          const raft::resources &handle) {
  raft::update_host(h, d, 16, raft::get_cuda_stream(handle));
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}
