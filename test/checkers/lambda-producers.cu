// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// The producer diagnostic through lambdas: a captured variable is the
// enclosing function's own ([expr.prim.lambda.capture]), so device work a
// lambda leaves writing a captured buffer, on a captured stream or a default
// stream, is the caller's producer at the call; and a lambda's copy of a
// captured buffer to the host reads it at the call. Positive beside
// negative.

#include <cuda_runtime.h>

__global__ void fill(float *d, int n);
static void launchOn(float *x, cudaStream_t s) { fill<<<1, 64, 0, s>>>(x, 4); }

//===--- Device work inside a lambda -------------------------------------===//

void lambdaProducesOnCapturedStream(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto produce = [&]() { launchOn(d, s1); };
  produce();
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
}

void lambdaProducesOnStreamCapturedByValue(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto produce = [&, s1]() { fill<<<1, 64, 0, s1>>>(d, 16); };
  produce();
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
}

void lambdaProducesOnLegacyStream(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto produce = [&]() { fill<<<1, 64, 0, 0>>>(d, 16); };
  produce();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's1' may read it before the work that writes it on the legacy default stream has finished
  cudaStreamSynchronize(s1);
}

// Negative: the lambda synchronizes after its work.
void lambdaProducesAndWaits(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto produce = [&, s1]() {
    fill<<<1, 64, 0, s1>>>(d, 16);
    cudaStreamSynchronize(s1);
  };
  produce();
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

// Negative: a blocking stream; the legacy-stream copy waits for it.
void lambdaProducesOnLegacyBeforeBlocking(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  auto produce = [&]() { fill<<<1, 64, 0, 0>>>(d, 16); };
  produce();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s1);
}

// Negative: the copy is on the stream the lambda worked on.
void lambdaProducesOnHandedStream(float *h, float *d, cudaStream_t s) {
  auto produce = [&]() { fill<<<1, 64, 0, s>>>(d, 16); };
  produce();
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

// Negative: the lambda writes another buffer than the copy reads.
void lambdaProducesOtherBuffer(float *h, float *d, float *e) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto produce = [&]() { launchOn(e, s1); };
  produce();
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}

//===--- Copies inside a lambda ------------------------------------------===//

void lambdaCopiesAfterLegacyWork(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, 0>>>(d, 16);
  auto fetch = [&, s2]() {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  };
  fetch();
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-6]]:3: note: 'd' is written on the legacy default stream here
  cudaStreamSynchronize(s2);
}

void lambdaBlockingCopyAfterNonBlockingWork(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s2>>>(d, 16);
  auto fetch = [&]() { cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost); };
  fetch();
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's2' has finished
}

// Negative: the lambda synchronizes the producer's stream before copying.
void lambdaSyncsThenCopies(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s2>>>(d, 16);
  auto fetch = [&]() {
    cudaStreamSynchronize(s2);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  };
  fetch();
}

// Negative: a blocking stream waits for the legacy stream's work.
void lambdaCopiesOnBlockingAfterLegacyWork(float *h, float *d) {
  cudaStream_t s2;
  cudaStreamCreate(&s2);
  fill<<<1, 64, 0, 0>>>(d, 16);
  auto fetch = [&, s2]() {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s2);
  };
  fetch();
  cudaStreamSynchronize(s2);
}

//===--- A lambda's own race on a stream it captures ---------------------===//

// A stream the enclosing function creates and changes nowhere else is a
// created stream inside the lambda too.
void lambdaRaceOnCapturedCreatedStream(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  auto work = [&]() {
    fill<<<1, 64, 0, s1>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
    // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
    // CHECK: :[[@LINE-3]]:5: note: 'd' is written on stream 's1' here
    cudaDeviceSynchronize();
  };
  work();
}

// Negative: the enclosing function gives the handle another value, which
// may be stream 0.
void lambdaCapturedStreamReassigned(float *h, float *d, cudaStream_t other) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  s1 = other;
  auto work = [&]() {
    fill<<<1, 64, 0, s1>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
    cudaDeviceSynchronize();
  };
  work();
}

// Negative: a blocking stream; the legacy-stream copy waits for it.
void lambdaCapturedBlockingStream(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreate(&s1);
  auto work = [&]() {
    fill<<<1, 64, 0, s1>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
    cudaDeviceSynchronize();
  };
  work();
}

// Two streams the enclosing function creates: each its own stream inside
// the lambda too (by value or by reference).
void lambdaRaceBetweenTwoCapturedStreams(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  auto work = [&, s1, s2]() {
    fill<<<1, 64, 0, s2>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
    // CHECK: :[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on stream 's1' may read it before the work that writes it on stream 's2' has finished
    cudaDeviceSynchronize();
  };
  work();
}

// Negative: the writer's stream is synchronized before the copy.
void lambdaTwoCapturedStreamsSynced(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  auto work = [&, s1, s2]() {
    fill<<<1, 64, 0, s2>>>(d, 16);
    cudaStreamSynchronize(s2);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
    cudaDeviceSynchronize();
  };
  work();
}

// Negative: the two captured handles are one stream.
void lambdaTwoHandlesOneStream(float *h, float *d) {
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStream_t s2 = s1;
  auto work = [&]() {
    fill<<<1, 64, 0, s2>>>(d, 16);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s1);
    cudaDeviceSynchronize();
  };
  work();
}
