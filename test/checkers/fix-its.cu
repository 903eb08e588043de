// The fix-it: a note that inserts the covering synchronization right before
// the statement of the first unsynchronized access, in the copy's own API
// family and spelling (and error-checking macro), where the stream
// expression still names the copy's stream there; none otherwise. Applied
// with --fix-notes, the file compiles and the check is silent on it.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=NOTES --implicit-check-not='warning:' --implicit-check-not='note: insert'
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fixed.cu
// RUN: %clang_tidy_cars --fix-notes --fix %t/fixed.cu -- %cuda_mock_flags -std=c++17 > /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=FIXED < %t/fixed.cu
// RUN: %clang_tidy_cars %t/fixed.cu -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=AFTER
// Only the six findings without a fix are left (of eleven).
// AFTER-COUNT-6: warning: {{'h_?' is read before}}
// AFTER-NOT: warning:

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

void consume(float);
#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      abort();                                                                 \
  } while (0)

void plain(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // NOTES: :[[@LINE-1]]:11: warning: 'h' is read before
  // NOTES: :[[@LINE-2]]:3: note: insert 'cudaStreamSynchronize(s);' before the access to wait for the copy
  // FIXED: {{^}}  cudaStreamSynchronize(s);{{$}}
  // FIXED-NEXT: {{^}}  consume(h[0]);
}

void wrappedInAMacro(float *h, const float *d, cudaStream_t s) {
  CHECK(cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s));
  for (int i = 0; i < 4; ++i)
    consume(h[i]);
  // NOTES: :[[@LINE-1]]:13: warning: 'h' is read before
  // NOTES: :[[@LINE-3]]:3: note: insert 'CHECK(cudaStreamSynchronize(s));' before the access to wait for the copy
  // FIXED: {{^}}  CHECK(cudaStreamSynchronize(s));{{$}}
  // FIXED-NEXT: {{^}}  for (int i = 0; i < 4; ++i)
}

void defaultStream(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, 0);
  if (h[0] > 0)
    consume(h[0]);
  // NOTES: :[[@LINE-2]]:7: warning: 'h' is read before
  // NOTES: :[[@LINE-3]]:3: note: insert 'cudaStreamSynchronize(0);' before the access
  // NOTES: :[[@LINE-3]]:13: warning: 'h' is read before
  // FIXED: {{^}}  cudaStreamSynchronize(0);{{$}}
  // FIXED-NEXT: {{^}}  if (h[0] > 0)
}

void driverApi(float *h, CUdeviceptr d, CUstream s) {
  cuMemcpyDtoHAsync(h, d, 4, s);
  consume(h[0]);
  // NOTES: :[[@LINE-1]]:11: warning: 'h' is read before
  // NOTES: :[[@LINE-2]]:3: note: insert 'cuStreamSynchronize(s);' before the access
  // FIXED: {{^}}  cuStreamSynchronize(s);{{$}}
}

// No fix: the stream variable names another stream by the access.
void streamChanged(float *h, const float *d, cudaStream_t s, cudaStream_t t) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  s = t;
  consume(h[0]);
  // NOTES: :[[@LINE-1]]:11: warning: 'h' is read before
  cudaDeviceSynchronize();
}

// No fix: the stream is destroyed before the access. The handle's value is
// unchanged, but synchronizing a destroyed stream is undefined (the fixed
// copy of runtime/cases/stream_destroy.cu crashed on the H200).
void streamDestroyed(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  cudaStreamDestroy(s);
  consume(h[0]);
  // NOTES: :[[@LINE-1]]:11: warning: 'h' is read before
  // NOTES: :[[@LINE-3]]:3: note: 'cudaStreamDestroy' returns at once; it does not wait for the copy
  cudaDeviceSynchronize();
}
void driverStreamDestroyed(float *h, CUdeviceptr d, CUstream s) {
  cuMemcpyDtoHAsync(h, d, 4, s);
  cuStreamDestroy(s);
  consume(h[0]);
  // NOTES: :[[@LINE-1]]:11: warning: 'h' is read before
  // NOTES: :[[@LINE-3]]:3: note: 'cuStreamDestroy_v2' returns at once
  cuCtxSynchronize();
}

// No fix: a member may change behind the function's back.
struct Pipeline {
  cudaStream_t s_;
  float *h_;
  void run(const float *d) {
    cudaMemcpyAsync(h_, d, 4, cudaMemcpyDeviceToHost, s_);
    consume(h_[0]);
    // NOTES: :[[@LINE-1]]:13: warning: 'h_' is read before
    cudaStreamSynchronize(s_);
  }
};

// No fix: the access races the copy of the previous iteration.
void laterIteration(float *h, const float *d, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    consume(h[0]);
    // NOTES: :[[@LINE-1]]:13: warning: 'h' is read before
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  }
  cudaStreamSynchronize(s);
}

// No fix: the copy is issued inside the helper.
static void download(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
}
void copiedByAHelper(float *h, const float *d, cudaStream_t s) {
  download(h, d, s);
  consume(h[0]);
  // NOTES: :[[@LINE-1]]:11: warning: 'h' is read before
  cudaStreamSynchronize(s);
}
