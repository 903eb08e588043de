// Helpers that reach a stream through an object the caller names: a member
// function called on an object parameter (`waitOn(const Stream &x) {
// x.synchronize(); }` synchronizes the caller's `io.s`: the twentieth
// round's c63 reduction), and a member of what a std::shared_ptr parameter
// holds (`ctx->stream`, whose operator-> libstdc++ declares in a base
// class: c71), and a lambda taking the object (`[](const Stream &x) {
// cudaStreamSynchronize(x.s); }`, called directly: c28's reduction). Beside
// each, the same helper given another object, or synchronizing another
// member; a lambda handed to an algorithm binds its parameter to no
// argument of the algorithm's call.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <memory>
void consume(float);

struct Stream {
  cudaStream_t s;
  void synchronize() const { cudaStreamSynchronize(s); }
};
static void waitOn(const Stream &x) { x.synchronize(); }

void memberCallOnParameter(float *h, const float *d) {
  Stream io, other;
  cudaStreamCreateWithFlags(&io.s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&other.s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io.s);
  waitOn(io);
  consume(h[0]);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io.s);
  waitOn(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

struct Ctx {
  cudaStream_t stream;
  cudaStream_t side;
};
static void syncStream(const std::shared_ptr<Ctx> &ctx) {
  cudaStreamSynchronize(ctx->stream);
}
static void syncSide(const std::shared_ptr<Ctx> &ctx) {
  cudaStreamSynchronize(ctx->side);
}
void sharedPointerParameter(float *h, const float *d) {
  auto ctx = std::make_shared<Ctx>();
  cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&ctx->side, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ctx->stream);
  syncStream(ctx);
  consume(h[0]);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ctx->stream);
  syncSide(ctx);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void lambdaTakingObject(float *h, const float *d) {
  Stream io, other;
  cudaStreamCreateWithFlags(&io.s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&other.s, cudaStreamNonBlocking);
  auto waitFor = [](const Stream &x) { cudaStreamSynchronize(x.s); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io.s);
  waitFor(io);
  consume(h[0]);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io.s);
  waitFor(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

// The lambda's parameter is bound by applyToSecond, not to its first
// argument: `io.s` is not synchronized.
template <class Fn> void applyToSecond(Stream &, Stream &second, Fn fn) {
  fn(second);
}
void lambdaHandedToTemplate(float *h, const float *d) {
  Stream io, other;
  cudaStreamCreateWithFlags(&io.s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&other.s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io.s);
  applyToSecond(io, other, [](const Stream &x) { cudaStreamSynchronize(x.s); });
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}
