// Accessors of a member that holds a buffer pointer: a member function
// whose body is `return h_;` (`r.result()` is r.h_), and a function (a C
// API's accessor of an opaque handle) whose body is `return c->host;`
// (`rb_data(ctx)` is ctx->host). A use of the call is a use of that member.
// A `data()` accessor names the whole object instead, as a container's
// does (a class with `data()` and `operator[]` is one buffer).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstring>
void consume(float);

struct rb_ctx {
  cudaStream_t stream;
  float *host;
};
const float *rb_data(const rb_ctx *c) { return c->host; }
void rb_download(rb_ctx *c, const float *d, size_t n) {
  cudaMemcpyAsync(c->host, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                  c->stream);
}
void rb_wait(rb_ctx *c) { cudaStreamSynchronize(c->stream); }

void cAccessorBeforeWait(rb_ctx *ctx, const float *d, size_t n) {
  rb_download(ctx, d, n);
  consume(rb_data(ctx)[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'rb_data(ctx)' is read before the asynchronous device-to-host copy into it is known to be complete
  rb_wait(ctx);
}
void cAccessorAfterWait(rb_ctx *ctx, const float *d, size_t n) {
  rb_download(ctx, d, n);
  rb_wait(ctx);
  consume(rb_data(ctx)[0]);
}
void cAccessorOfLocal(const float *d, float *out, size_t n) {
  rb_ctx ctx;
  cudaStreamCreate(&ctx.stream);
  cudaMallocHost(&ctx.host, n * sizeof(float));
  rb_download(&ctx, d, n);
  memcpy(out, rb_data(&ctx), n * sizeof(float));
  // CHECK: :[[@LINE-1]]:15: warning: 'rb_data(&ctx)' is passed to 'memcpy' before the asynchronous device-to-host copy into it is known to be complete
  rb_wait(&ctx);
}

class Reader {
public:
  Reader() {
    cudaStreamCreate(&s_);
    cudaMallocHost(&h_, 64);
  }
  void fetch(const float *d) {
    cudaMemcpyAsync(h_, d, 64, cudaMemcpyDeviceToHost, s_);
  }
  void wait() { cudaStreamSynchronize(s_); }
  const float *result() const { return h_; }
  const float *scratch() const { return scratch_; }

private:
  cudaStream_t s_;
  float *h_;
  float *scratch_ = nullptr;
};

float memberAccessorBeforeWait(const float *d) {
  Reader r;
  r.fetch(d);
  return r.result()[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'r.result()' is read before the asynchronous device-to-host copy into it is known to be complete
}
float memberAccessorThroughLocal(const float *d) {
  Reader r;
  r.fetch(d);
  const float *p = r.result();
  return p[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'p' is read before the asynchronous device-to-host copy into it is known to be complete
}
float memberAccessorAfterWait(const float *d) {
  Reader r;
  r.fetch(d);
  r.wait();
  return r.result()[0];
}
// Another member of the same object: not the buffer in flight.
float otherMemberAccessor(const float *d) {
  Reader r;
  r.fetch(d);
  float v = r.scratch()[0];
  r.wait();
  return v;
}

// A buffer class with data() and operator[] (cuML's host_buffer): copies
// into b.data(), reads through b[i], one buffer.
class HostBuffer {
public:
  explicit HostBuffer(size_t n) { cudaMallocHost(&p_, n * sizeof(float)); }
  float *data() { return p_; }
  float &operator[](size_t i) { return p_[i]; }

private:
  float *p_;
};
float bufferClassIndexedBeforeSync(const float *d, cudaStream_t s) {
  HostBuffer b(64);
  cudaMemcpyAsync(b.data(), d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  return b[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'b' is read before the asynchronous device-to-host copy into it is known to be complete
}
