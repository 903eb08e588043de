// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Device work a helper issues on its stream parameter is that stream's work
// at the call, when the argument names a known stream (stream 0, the
// per-thread default stream, a stream created here): on the legacy default
// stream it joins blocking streams and nothing else, on a blocking stream it
// waits for the legacy stream's earlier work ("Stream synchronization
// behavior"). It ends no claim on other streams. A stream the function is
// handed may be any stream: there the call may order anything.
//
// And a stream a lambda captures by reference stays the stream it names
// when the lambda's body only reads it; a body that may change it (assigns
// it, takes its address) makes it any stream.

#include <cuda_runtime.h>

__global__ void fill(float *d, int n);
static void launchOn(float *x, cudaStream_t s) { fill<<<1, 64, 0, s>>>(x, 4); }

//===--- A helper's work on a known stream argument ----------------------===//

void helperOnLegacyBetweenNonBlocking(float *h, float *d, float *x) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s2>>>(d, 16);
  launchOn(x, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's1' may read it before the work that writes it on stream 's2' has finished [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's2' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's1' wait for the write
  cudaStreamSynchronize(s1);
}

// The helper's producer on stream 0 is the copy's own stream; the earlier
// one on the non-blocking stream is still unordered.
void helperProducesOnLegacyAfterNonBlocking(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  launchOn(d, s2);
  launchOn(d, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's2' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's2' here
  cudaDeviceSynchronize();
}

void helperOnPerThreadBetweenNonBlocking(float *h, float *d, float *x) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s2>>>(d, 16);
  launchOn(x, cudaStreamPerThread);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's1' may read it before the work that writes it on stream 's2' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'd' is written on stream 's2' here
  cudaStreamSynchronize(s1);
}

// Negative: blocking streams; the helper's legacy-stream work waits for s1's
// kernel and the copy on s2 waits for it ("legacy_work_joins_blocking").
void helperOnLegacyBetweenBlocking(float *h, float *d, float *x) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  launchOn(x, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// Negative: a stream the function is handed may be stream 0 (then the
// helper's work joins the blocking streams): no claim.
void helperOnHandedStream(float *h, float *d, float *x, cudaStream_t any) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, s1>>>(d, 16);
  launchOn(x, any);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// The access side: the helper's work on the blocking stream s3 waits for
// the copy on the legacy default stream, so synchronizing s3 completes it
// (measured: work_on_blocking_after_legacy_copy, 0/10 stale).
void helperOnBlockingAfterLegacyCopy(const float *d, float *x) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaStream_t s3;
  cudaStreamCreate(&s3);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  launchOn(x, s3);
  cudaStreamSynchronize(s3);
  float v = h[0];
  (void)v;
}

// Positive twin: a non-blocking s3 does not wait for the legacy stream.
void helperOnNonBlockingAfterLegacyCopy(const float *d, float *x) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaStream_t s3;
  cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  launchOn(x, s3);
  cudaStreamSynchronize(s3);
  float v = h[0];
  // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-5]]:3: note: asynchronous device-to-host copy into 'h' on the legacy default stream is issued here
  (void)v;
}

//===--- Streams a lambda captures by reference --------------------------===//

void lambdaReadsCapturedStream(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto finish = [&]() { cudaStreamSynchronize(s1); };
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  finish();
}

// The access side: the lambda's sync of the stream it captures covers the
// copy on it.
void lambdaSyncsCapturedStream(const float *d) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto finish = [&]() { cudaStreamSynchronize(s1); };
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
  finish();
  float v = h[0];
  (void)v;
}

// Negative: the lambda may change which stream s1 names.
void lambdaAssignsCapturedStream(float *h, float *d, cudaStream_t other) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto finish = [&]() {
    cudaStreamSynchronize(s1);
    s1 = other;
  };
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  finish();
}

static void pick(cudaStream_t *out, cudaStream_t from) { *out = from; }

// Negative: the lambda takes the stream's address.
void lambdaTakesCapturedStreamAddress(float *h, float *d, cudaStream_t other) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto finish = [&]() { pick(&s1, other); };
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  finish();
}

// Negative: a nested lambda captures it by reference again and changes it.
void nestedLambdaChangesCapturedStream(float *h, float *d, cudaStream_t other) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto finish = [&]() {
    auto inner = [&]() { s1 = other; };
    inner();
  };
  fill<<<1, 64, 0, s1>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  finish();
}
