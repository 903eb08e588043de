// The producer diagnostic on streams the function is handed (issue 24): a
// parameter, a member of a parameter or of `this`, a handle's accessor, a
// local copied from one. Such a stream may be non-blocking, so device work
// on it and a copy on the legacy default stream (every blocking copy), or on
// another stream, race unless that stream is a particular one; the warning
// says which (runtime/cases/handle_stream_blocking_copy.cu: stale on the
// GPU with a non-blocking handle stream; its twins fresh). A member every
// write of which in the unit creates a stream is a created stream: its
// flags decide, and no note is needed. CallerStreams=false keeps only the
// certain claims.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.CallerStreams: false}}' \
// RUN:   -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=OFF --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <utility>

__global__ void fill(float *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = 1.0f;
}
void consume(float);
void opaqueSync(cudaStream_t s);

struct Handle {
  cudaStream_t stream;
  cudaStream_t get_stream() const { return stream; }
};
void getStream(Handle *h, cudaStream_t *out);

//===--- A kernel on the handed stream, then a blocking copy --------------===//

void parameterThenBlocking(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes the legacy default stream wait for the write
  // CHECK: :[[@LINE-4]]:3: note: stream 's' is not created in this function: not a race if it is the legacy default stream or a blocking one
  consume(h[0]);
}

void handleMemberThenBlocking(Handle *hd, float *h, float *d) {
  fill<<<1, 64, 0, hd->stream>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'hd->stream' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 'hd->stream' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 'hd->stream' is not created in this function
}

// A local copied from the handle's accessor, as the real fixes' code did.
void accessorLocalThenBlocking(const Handle &hd, float *h, float *d) {
  cudaStream_t stream = hd.get_stream();
  fill<<<1, 64, 0, stream>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'stream' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 'stream' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 'stream' is not created in this function
}

// rocBLAS's idiom: the stream comes back through an out-parameter.
void outParameterThenBlocking(Handle *hd, float *h, float *d) {
  cudaStream_t stream;
  getStream(hd, &stream);
  cudaMemsetAsync(d, 0, 64, stream);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'stream' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 'stream' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 'stream' is not created in this function
}

// Work on the legacy default stream, then an asynchronous copy on the
// handed stream: the same claim the other way round.
void legacyThenParameter(float *h, float *d, cudaStream_t s) {
  cudaMemset(d, 0, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's'
  // CHECK: :[[@LINE-4]]:3: note: stream 's' is not created in this function: not a race if it is the legacy default stream or a blocking one
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- The fixed forms: silent ------------------------------------------===//

// The real fixes: copy on the handle's stream and synchronize it.
void copyOnTheHandlesStream(Handle *hd, float *h, float *d) {
  fill<<<1, 64, 0, hd->stream>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, hd->stream);
  cudaStreamSynchronize(hd->stream);
  consume(h[0]);
}

void accessorLocalCopyOnIt(const Handle &hd, float *h, float *d) {
  cudaStream_t stream = hd.get_stream();
  fill<<<1, 64, 0, stream>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, hd.get_stream());
  cudaStreamSynchronize(stream);
}

void syncBeforeTheBlockingCopy(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

void eventWaitedByTheCopysStream(float *h, float *d, cudaStream_t s,
                                 cudaEvent_t e) {
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaEventRecord(e, s);
  cudaStreamWaitEvent(0, e, 0);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

void deviceSync(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

// An opaque call given the stream may synchronize it.
void opaqueCallGivenTheStream(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  opaqueSync(s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

// The parameter is given another value here: no longer the caller's.
void parameterReassigned(float *h, float *d, cudaStream_t s) {
  s = 0;
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

//===--- Members whose every write creates the stream ---------------------===//

class NonBlockingPipeline {
public:
  NonBlockingPipeline() { cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }
  ~NonBlockingPipeline() {
    cudaStreamDestroy(s_);
    s_ = nullptr;
  }
  void run(float *h, float *d) {
    fill<<<1, 64, 0, s_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's_' has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on stream 's_' here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes
    // OFF: :[[@LINE-4]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's_' has finished
  }

private:
  cudaStream_t s_ = nullptr;
};

// Created blocking: the legacy default stream waits for it.
class BlockingPipeline {
public:
  BlockingPipeline() { cudaStreamCreate(&s_); }
  void run(float *h, float *d) {
    fill<<<1, 64, 0, s_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  }

private:
  cudaStream_t s_ = nullptr;
};

// Two members, each created: different streams, nothing orders them.
class TwoStreams {
public:
  TwoStreams() {
    cudaStreamCreate(&compute_);
    cudaStreamCreate(&copy_);
  }
  void run(float *h, float *d) {
    fill<<<1, 64, 0, compute_>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, copy_);
    // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 'copy_' may read it before the work that writes it on stream 'compute_' has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on stream 'compute_' here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes
    // OFF: :[[@LINE-4]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 'copy_' may read it before
    cudaStreamSynchronize(copy_);
  }
  void runOrdered(float *h, float *d, cudaEvent_t e) {
    fill<<<1, 64, 0, compute_>>>(d, 16);
    cudaEventRecord(e, compute_);
    cudaStreamWaitEvent(copy_, e, 0);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, copy_);
    cudaStreamSynchronize(copy_);
  }

private:
  cudaStream_t compute_, copy_;
};

// A member also given the caller's stream: any stream, a conditional claim.
class SettableStream {
public:
  SettableStream() { cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }
  void setStream(cudaStream_t s) { s_ = s; }
  void run(float *h, float *d) {
    fill<<<1, 64, 0, s_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's_' has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on stream 's_' here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes
    // CHECK: :[[@LINE-4]]:5: note: stream 's_' is not created in this function: not a race if it is the legacy default stream or a blocking one
  }

private:
  cudaStream_t s_;
};

// A factory of the unit that creates the stream it returns: the member
// holds that creation, its flags decide.
static cudaStream_t makeNonBlocking() {
  cudaStream_t s = nullptr;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  return s;
}
static cudaStream_t makeBlocking() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  return s;
}
// Not a factory: it may return the caller's stream.
static cudaStream_t pickOrMake(cudaStream_t given) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  if (given)
    return given;
  return s;
}

class FactoryNonBlocking {
public:
  FactoryNonBlocking() : s_(makeNonBlocking()) {}
  void run(float *h, float *d) {
    fill<<<1, 64, 0, s_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's_' has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on stream 's_' here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes
    // OFF: :[[@LINE-4]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's_' has finished
  }

private:
  cudaStream_t s_;
};

class FactoryBlocking {
public:
  FactoryBlocking() { s_ = makeBlocking(); }
  void run(float *h, float *d) {
    fill<<<1, 64, 0, s_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  }

private:
  cudaStream_t s_;
};

class NotAFactory {
public:
  explicit NotAFactory(cudaStream_t given) : s_(pickOrMake(given)) {}
  void run(float *h, float *d) {
    fill<<<1, 64, 0, s_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's_' has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on stream 's_' here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes
    // CHECK: :[[@LINE-4]]:5: note: stream 's_' is not created in this function: not a race if it is the legacy default stream or a blocking one
  }

private:
  cudaStream_t s_;
};

// A project's RAII stream: its conversion returns the member it creates; a
// move assignment that swaps the members keeps what they hold.
class OwnedStream {
public:
  OwnedStream() {
    cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking);
  }
  OwnedStream &operator=(OwnedStream &&o) {
    std::swap(s_, o.s_);
    return *this;
  }
  ~OwnedStream() { cudaStreamDestroy(s_); }
  operator cudaStream_t() const { return s_; }

private:
  cudaStream_t s_ = nullptr;
};
class OwnedBlockingStream {
public:
  OwnedBlockingStream() { cudaStreamCreate(&s_); }
  operator cudaStream_t() const { return s_; }

private:
  cudaStream_t s_ = nullptr;
};

class RaiiNonBlocking {
public:
  void run(float *h, float *d) {
    fill<<<1, 64, 0, stream_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'stream_' has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on stream 'stream_' here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes
    // OFF: :[[@LINE-4]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'stream_' has finished
  }

private:
  OwnedStream stream_;
};

class RaiiBlocking {
public:
  void run(float *h, float *d) {
    fill<<<1, 64, 0, stream_>>>(d, 16);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  }

private:
  OwnedBlockingStream stream_;
};

// A context class that creates its stream, used by a class template whose
// copy is a call left unresolved until instantiation (its destination is a
// `T *`): the member handed by value to the only function of that name is
// read, not given another stream (ceres's CudaBuffer<T>::CopyToCpu).
struct DownloadContext {
  void init() { cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); }
  cudaStream_t stream = nullptr;
};
template <typename T> struct TypedDownload {
  DownloadContext *ctx;
  void download(T *h, const T *d, size_t n) const {
    cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, ctx->stream);
    cudaStreamSynchronize(ctx->stream);
  }
};
void typedDownload(const TypedDownload<float> &p, float *h, float *d) {
  fill<<<1, 64>>>(d, 16);
  p.download(h, d, 16);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'p.ctx->stream' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 'p.ctx->stream' wait for the write
  // OFF: :[[@LINE-4]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'p.ctx->stream' may read it before
}

// The same, where a template's unresolved call may take the member by
// reference (the `rebind` it resolves to may give it any stream): not known
// to be created, and a stream a helper's summary names is not claimed as a
// handed one, so no claim.
struct RebindableContext {
  void init() { cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); }
  cudaStream_t stream = nullptr;
};
template <typename T> void rebind(cudaStream_t &s, T *tag);
template <typename T> void adopt(RebindableContext &c, T *tag) {
  rebind(c.stream, tag);
}
template <typename T> struct RebindableDownload {
  RebindableContext *ctx;
  void download(T *h, const T *d, size_t n) const {
    cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, ctx->stream);
    cudaStreamSynchronize(ctx->stream);
  }
};
void rebindableDownload(const RebindableDownload<float> &p, float *h,
                        float *d) {
  fill<<<1, 64>>>(d, 16);
  p.download(h, d, 16);
}

// A member every write of which copies another member's stream (ceres's
// `stream_ = options.context->stream_;`): that member's stream, created
// non-blocking here.
struct SolverContext {
  void init() { cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); }
  cudaStream_t stream = nullptr;
};
class CopiedStreamSolver {
public:
  explicit CopiedStreamSolver(SolverContext *c) : ctx_(c), stream_(c->stream) {}
  void legacyThenCopy(float *h, float *d) {
    fill<<<1, 64>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, stream_);
    // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 'stream_' may read it before the work that writes it on the legacy default stream has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on the legacy default stream here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes stream 'stream_' wait for the write
    // OFF: :[[@LINE-4]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 'stream_' may read it before
    cudaStreamSynchronize(stream_);
  }
  // The copy's stream is the context's stream: one stream, no claim.
  void contextThenCopy(float *h, float *d) {
    fill<<<1, 64, 0, ctx_->stream>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, stream_);
    cudaStreamSynchronize(stream_);
  }
  void produce(float *d) { fill<<<1, 64, 0, stream_>>>(d, 16); }
  void download(float *h, const float *d) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, stream_);
    cudaStreamSynchronize(stream_);
  }

private:
  SolverContext *ctx_;
  cudaStream_t stream_;
};

// Two solvers of one context hold its one stream: a local object built here
// holds its own stream only where its member is created, not copied.
void twoSolversOneContext(SolverContext *c, float *h, float *d) {
  CopiedStreamSolver a(c), b(c);
  a.produce(d);
  b.download(h, d);
}

// Written as a copy of two members: not one stream the check can name, so
// only the claim on a handed stream, with its condition.
struct OtherContext {
  void init() { cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); }
  cudaStream_t stream = nullptr;
};
class TwoSourcesSolver {
public:
  explicit TwoSourcesSolver(SolverContext *c) : stream_(c->stream) {}
  void rebind(OtherContext *o) { stream_ = o->stream; }
  void legacyThenCopy(float *h, float *d) {
    fill<<<1, 64>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, stream_);
    // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 'stream_' may read it before the work that writes it on the legacy default stream has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on the legacy default stream here
    // CHECK: :[[@LINE-3]]:5: note: nothing makes stream 'stream_' wait for the write
    // CHECK: :[[@LINE-4]]:5: note: stream 'stream_' is not created in this function: not a race if it is the legacy default stream or a blocking one
    cudaStreamSynchronize(stream_);
  }

private:
  cudaStream_t stream_;
};

//===--- A null handle is the legacy default stream -----------------------===//

void syncUnlessNull(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  if (s)
    cudaStreamSynchronize(s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

void syncIfNullTestedFirst(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  if (s != nullptr)
    cudaStreamSynchronize(s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

// Another condition: the copy is unordered on the path that skips the sync.
void syncUnderAFlag(float *h, float *d, cudaStream_t s, bool wait) {
  fill<<<1, 64, 0, s>>>(d, 16);
  if (wait)
    cudaStreamSynchronize(s);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // CHECK: :[[@LINE-5]]:3: note: 'd' is written on stream 's' here
}

// A null handle, and then an asynchronous copy on another, created, non-
// blocking stream: stream 0's work is not ordered before it either.
void nullHandleThenOtherStream(float *h, float *d, cudaStream_t s) {
  cudaStream_t mine;
  cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s>>>(d, 16);
  if (s)
    cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, mine);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'mine' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-5]]:3: note: 'd' is written on the legacy default stream here
  // OFF: :[[@LINE-3]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'mine' may read it before the work that writes it on the legacy default stream has finished
  cudaStreamSynchronize(mine);
}

//===--- Two streams, at least one handed ---------------------------------===//

void twoParameters(float *h, float *d, cudaStream_t s1, cudaStream_t s2) {
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 's1' and stream 's2' are not created in this function: not a race if they are equal, or legacy default + blocking
  cudaStreamSynchronize(s2);
}

// A stream created here and a parameter: the legacy default stream would
// wait for the blocking stream created here.
void createdAndParameter(float *h, float *d, cudaStream_t s2) {
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 's2' is not created in this function: not a race if it is stream 's1' or the legacy default stream
  cudaStreamSynchronize(s2);
}

// Locals from calls may be copies of each other: no claim between them.
cudaStream_t pickStream(int i);
void streamsFromCalls(float *h, float *d) {
  cudaStream_t s1 = pickStream(0), s2 = pickStream(1);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// One member of two handles that may be one object: no claim.
void sameMemberOfTwoHandles(Handle *a, Handle *b, float *h, float *d) {
  fill<<<1, 64, 0, a->stream>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, b->stream);
  cudaStreamSynchronize(b->stream);
}

// The same stream by two names: no claim.
void sameStreamTwoNames(Handle *hd, float *h, float *d) {
  cudaStream_t s = hd->stream;
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, hd->stream);
  cudaStreamSynchronize(s);
}

//===--- Copies made inside helpers (HelperSummary::Consumes) -------------===//

// raft::update_host's shape: the copy on the stream it is given.
template <typename T>
void updateHost(T *h, const T *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
}
static void download(float *h, const float *d) {
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}
static void syncThenUpdate(float *h, const float *d, cudaStream_t s) {
  cudaDeviceSynchronize();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
}
static void waitThenUpdate(float *h, const float *d, cudaStream_t s,
                           cudaEvent_t e) {
  cudaStreamWaitEvent(s, e, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
}

void helperCopiesOnAnotherStream(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  updateHost(h, d, 16, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // OFF: :[[@LINE-4]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before
  cudaStreamSynchronize(s2);
}

// cuML's decision tree: cub given no stream, the read-back through the helper.
void helperBlockingDownloadAfterHandedStream(float *h, float *d,
                                             cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  download(h, d);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 's' is not created in this function
}

void helperCopiesOnTheSameStream(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  updateHost(h, d, 16, s);
  cudaStreamSynchronize(s);
}

// What the helper does before its copy orders it.
void helperSyncsFirst(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  syncThenUpdate(h, d, s2);
  cudaStreamSynchronize(s2);
}

void helperWaitsFirst(float *h, float *d, cudaEvent_t e) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaEventRecord(e, s1);
  waitThenUpdate(h, d, s2, e);
  cudaStreamSynchronize(s2);
}

// Legacy-stream work in between joins a handed stream only if it is
// blocking: what the note's condition says (cuML's split_labels.cuh).
void legacyWorkBetween(float *h, float *d, float *other, const float *src,
                       cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaMemcpy(other, src, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 's' is not created in this function: not a race if it is the legacy default stream or a blocking one
}

// Between a handed stream and a blocking created one, the join would order
// them if the handed stream is blocking, which the note cannot say: silent.
void legacyWorkBetweenCreatedCopyStream(float *h, float *d, float *other,
                                        const float *src, cudaStream_t s) {
  cudaStream_t mine;
  cudaStreamCreate(&mine);
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaMemcpy(other, src, 64, cudaMemcpyHostToDevice);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, mine);
  cudaStreamSynchronize(mine);
}

// A sync of the legacy default stream waits for a handed stream only if it
// is blocking ("s created with cudaStreamNonBlocking, then
// cudaStreamSynchronize(0)": stale, docs/semantics.md).
void legacySyncBetween(float *h, float *d, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, 16);
  cudaStreamSynchronize(0);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 's' is not created in this function: not a race if it is the legacy default stream or a blocking one
}
