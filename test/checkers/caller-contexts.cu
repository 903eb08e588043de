// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.StrictMode: true}}' \
// RUN:   -- %cuda_mock_flags -std=c++17 | FileCheck %s --check-prefixes=CHECK,STRICT --implicit-check-not='warning:'

// What a callable's callers give it (CallerContexts): the destination of a
// copy in a helper is a parameter, or a variable a lambda captures; where
// every caller in the translation unit passes pageable memory (a static
// function, a lambda held in a local, used only by direct calls), the copy
// returns once complete (docs/semantics.md, "pageable dst") and the helper
// is silent by default. Pinned memory from any caller, a caller that
// disagrees, a function other units may call, or one whose address is
// taken keep the warning. StrictMode treats pageable copies as
// asynchronous, so there every helper below warns.

#include <cuda_runtime.h>
#include <cstdlib>
#include <algorithm>
#include <vector>

void consumeValue(float v);

//===--- Static helpers: the callers' arguments decide ---===//

static void fetchPageableOnly(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // STRICT: :[[@LINE-1]]:16: warning: 'h' is read before
}

void callsWithMalloc(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  fetchPageableOnly(h, d, s);
  std::vector<float> v(16);
  fetchPageableOnly(v.data(), d, s);
}

static void fetchPinnedToo(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void callsWithPageable(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  fetchPinnedToo(h, d, s);
}

void callsWithPinned(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  fetchPinnedToo(h, d, s);
  cudaFreeHost(h);
}

// External linkage: another translation unit may pass pinned memory.
void fetchExternal(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void callsExternalWithMalloc(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  fetchExternal(h, d, s);
}

// Its address is taken: whoever holds the pointer may pass anything.
static void fetchByPointer(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void (*const FetchTable[])(float *, const float *, cudaStream_t) = {
    fetchByPointer};

void callsByPointerWithMalloc(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  fetchByPointer(h, d, s);
}

// The helper re-points its parameter: the callers no longer say.
float *pinnedScratch();
static void fetchRepointed(float *h, const float *d, cudaStream_t s) {
  h = pinnedScratch();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void callsRepointed(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  fetchRepointed(h, d, s);
}

// Through two static helpers: the outer one's callers decide for both.
static void fetchInner(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // STRICT: :[[@LINE-1]]:16: warning: 'h' is read before
}
static void fetchOuter(float *h, const float *d, cudaStream_t s) {
  fetchInner(h, d, s);
}

void callsOuterWithMalloc(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  fetchOuter(h, d, s);
}

// Recursive: the question of its own parameter is not settled by itself.
static void fetchRecursive(float *h, const float *d, cudaStream_t s, int n) {
  if (n > 0)
    fetchRecursive(h, d, s, n - 1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void callsRecursive(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  fetchRecursive(h, d, s, 3);
}

//===--- Lambdas: captured variables and parameters ---===//

void capturesPageable(const float *d, cudaStream_t s) {
  float *h = static_cast<float *>(malloc(64));
  auto fetch = [&]() {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // STRICT: :[[@LINE-1]]:18: warning: 'h' is read before
  };
  fetch();
}

void capturesPinned(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto fetch = [&]() {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // CHECK: :[[@LINE-1]]:18: warning: 'h' is read before
  };
  fetch();
}

void lambdaParameterPageable(const float *d, cudaStream_t s) {
  auto fetch = [&](float *h) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // STRICT: :[[@LINE-1]]:18: warning: 'h' is read before
  };
  std::vector<float> v(16);
  fetch(v.data());
}

void lambdaParameterPinned(const float *d, cudaStream_t s) {
  auto fetch = [&](float *h) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // CHECK: :[[@LINE-1]]:18: warning: 'h' is read before
  };
  float *p;
  cudaMallocHost(&p, 64);
  fetch(p);
}

// Handed to an algorithm: called from where the walk does not look.
void lambdaPassedOn(const float *d, cudaStream_t s, std::vector<float *> &bufs) {
  auto fetch = [&](float *h) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // CHECK: :[[@LINE-1]]:18: warning: 'h' is read before
  };
  std::vector<float> v(16);
  fetch(v.data());
  std::for_each(bufs.begin(), bufs.end(), fetch);
}

//===--- A copy into pageable memory waits for its stream ---===//

// The call returns once the copy is done, and the copy ran after the work
// issued before it on its stream: an earlier copy into pinned memory on the
// same stream is complete too (StrictMode does not assume the return).
void pageableCopyAfterPinnedSameStream(const float *d, cudaStream_t s) {
  float *pinned;
  cudaMallocHost(&pinned, 64);
  std::vector<float> v(16);
  cudaMemcpyAsync(pinned, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(pinned[0]);
  // STRICT: :[[@LINE-1]]:16: warning: 'pinned' is read before
}

void pageableCopyAfterPinnedOtherStream(const float *d, cudaStream_t s,
                                        cudaStream_t t) {
  float *pinned;
  cudaMallocHost(&pinned, 64);
  std::vector<float> v(16);
  cudaMemcpyAsync(pinned, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, t);
  consumeValue(pinned[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'pinned' is read before
}

//===--- Streams a lambda captures: created where they are declared ---===//

// In the lambda, a blocking cudaMemcpy synchronizes the legacy default
// stream, which waits for a blocking stream's earlier work but not for a
// non-blocking one's: the captured handle's flags are the enclosing
// function's.
__global__ void touch(float *d);
void capturedNonBlockingStream(float *d) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *h, *o;
  cudaMallocHost(&h, 64);
  cudaMallocHost(&o, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto step = [&]() {
    touch<<<1, 1, 0, s>>>(d);
    cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
    // The lambda's own producer race: s is a created non-blocking stream
    // here too.
    // CHECK: :[[@LINE-3]]:5: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  };
  step();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
}

void capturedBlockingStream(float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *h, *o;
  cudaMallocHost(&h, 64);
  cudaMallocHost(&o, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto step = [&]() {
    touch<<<1, 1, 0, s>>>(d);
    cudaMemcpy(o, d, 64, cudaMemcpyDeviceToHost);
  };
  step();
  consumeValue(h[0]);
}
