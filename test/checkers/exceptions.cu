// Reads in `catch` handlers. A call inside a try block whose callee
// visibly throws (a `throw` in its body, or in a helper it calls) may leave
// the try block there, with the copies issued before it still in flight:
// a handler that reads their destination races with them (C++
// [except.throw], [except.handle]). clang's CFG already links an explicit
// `throw` to the handlers. Not throw points: calls without a visible body,
// the standard library, noexcept functions, and error checks of a GPU
// call's result (`check(cudaStreamSynchronize(s))`): after a failed CUDA
// call the check claims nothing.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

void consume(float);
struct Error {
  const char *what;
};

static float *pinned(size_t n) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  return h;
}

static void validate(int n) {
  if (n < 0)
    throw Error{"negative size"};
}
static void prepare(int n) { validate(n); } // throws through a helper
static void check(cudaError_t e) {
  if (e != cudaSuccess)
    throw Error{"cuda"};
}
void opaquePrepare(int n);

void handlerReadsAfterThrowingHelper(const float *d, cudaStream_t s, int n) {
  float *h = pinned(64);
  try {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    prepare(n);
    cudaStreamSynchronize(s);
  } catch (const Error &) {
    consume(h[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  }
  consume(h[0]); // only the handler's path skipped the sync
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}

void handlerAfterSync(const float *d, cudaStream_t s, int n) {
  float *h = pinned(64);
  try {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    prepare(n);
  } catch (const Error &) {
    consume(h[0]);
  }
}

void handlerReturns(const float *d, cudaStream_t s, int n) {
  float *h = pinned(64);
  try {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    prepare(n);
  } catch (...) {
    cudaStreamSynchronize(s);
    consume(h[0]);
    return;
  }
  cudaStreamSynchronize(s);
  consume(h[0]);
}

void explicitThrow(const float *d, cudaStream_t s, bool bad) {
  float *h = pinned(64);
  try {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    if (bad)
      throw Error{"bad"};
    cudaStreamSynchronize(s);
  } catch (const Error &) {
    consume(h[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
    return;
  }
  consume(h[0]);
}

void notThrowPoints(const float *d, cudaStream_t s, int n) {
  float *h = pinned(64);
  try {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    opaquePrepare(n);           // no visible body
    check(cudaGetLastError());  // an error check of a GPU call
    check(cudaStreamSynchronize(s));
  } catch (const Error &) {
    consume(h[0]);
    return;
  }
  consume(h[0]);
}

// A helper that throws out of its try block leaves its copy pending only on
// its normal paths: the summary is what it leaves on return.
static void fetchOrThrow(float *h, const float *d, cudaStream_t s, int n) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  try {
    validate(n);
  } catch (const Error &) {
    cudaStreamSynchronize(s);
    throw;
  }
  cudaStreamSynchronize(s);
}
void callsFetchOrThrow(const float *d, cudaStream_t s, int n) {
  float *h = pinned(64);
  fetchOrThrow(h, d, s, n);
  consume(h[0]);
}
