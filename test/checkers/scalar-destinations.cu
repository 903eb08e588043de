// A scalar destination (`cudaMemcpyAsync(&v, ...)`) is its own storage: any
// use of its value is a read -- `return v;`, `v + 1`, `lower == upper`, a
// kernel's by-value argument (read on the host at the launch). Taking its
// address again, `sizeof(v)` and writes are not reads. A local scalar is
// pageable (the copy is complete when the call returns), so only StrictMode
// reports it; a reference out-parameter or a global may be pinned
// (cudaHostRegister), so they are reported by default (cudf#6700's shape).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s \
// RUN:   -config='{CheckOptions: {cuda-async-read-before-sync.StrictMode: true}}' \
// RUN:   -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STRICT --implicit-check-not='warning:'

#include <cuda_runtime.h>
__global__ void kernel(float v);
void consumePointer(float *p);

float g_value;

float returnGlobal(const float *d, cudaStream_t s) {
  cudaMemcpyAsync(&g_value, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  return g_value;
  // CHECK: :[[@LINE-1]]:10: warning: 'g_value' is read before the asynchronous device-to-host copy into it is known to be complete
}

float globalArithmetic(const float *d, cudaStream_t s) {
  cudaMemcpyAsync(&g_value, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  return g_value + 1;
  // CHECK: :[[@LINE-1]]:10: warning: 'g_value' is read before
}

float globalAfterSync(const float *d, cudaStream_t s) {
  cudaMemcpyAsync(&g_value, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return g_value;
}

bool compareOutParameters(float &lower, float &upper, const float *d,
                          cudaStream_t s) {
  cudaMemcpyAsync(&lower, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(&upper, d + 1, sizeof(float), cudaMemcpyDeviceToHost, s);
  return lower == upper;
  // CHECK: :[[@LINE-1]]:10: warning: 'lower' is read before
  // CHECK: :[[@LINE-2]]:19: warning: 'upper' is read before
}

void kernelArgumentByValue(float &out, const float *d, cudaStream_t s,
                           cudaStream_t t) {
  cudaMemcpyAsync(&out, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  kernel<<<1, 1, 0, t>>>(out);
  // CHECK: :[[@LINE-1]]:26: warning: 'out' is read before
}

// Not reads: the address again, the size, a write after the sync.
void addressSizeAndWrite(float &out, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(&out, d, sizeof(out), cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(&out, d, sizeof(out), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  out = 0;
}

void addressPassedOn(float &out, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(&out, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  consumePointer(&out);
  // CHECK: :[[@LINE-1]]:18: warning: 'out' is passed to 'consumePointer' before
}

// A local scalar is pageable: complete when the call returns, except under
// StrictMode.
float returnLocal(const float *d, cudaStream_t s) {
  float v;
  cudaMemcpyAsync(&v, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  return v;
  // STRICT: :[[@LINE-1]]:10: warning: 'v' is read before
}

int localCount(const int *d, cudaStream_t s) {
  int count = 0;
  cudaMemcpyAsync(&count, d, sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return count;
}
