// Indices of an array of buffers told apart by the values their variable
// may hold (IndexValues.h): a local kept in a small range by every write of
// it (`head = (head + 1) % 3`, a wrap test `cur + 1 == 3 ? 0 : cur + 1`)
// is compared at each of its values; a loop counter tested `i < n` never
// reaches its type's largest value, so `(i + 1) % 3` does not wrap where i
// is unsigned; `a.size()` of a std::array is its size. Beside each, a twin
// where the two indices may be equal: an index equal at some value, a
// variable whose writes leave its range unknown (a parameter's value, a
// ring of the caller's size), a counter whose test does not bound it.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <array>
#include <cstddef>
void consume(float);

// A ring of three whose head every write keeps in [0, 2].
void ringHeadKept(const float *d, float *h[3], cudaStream_t s, int n) {
  int head = 0;
  for (int i = 1; i < n; ++i) {
    cudaMemcpyAsync(h[(head + 1) % 3], d + i * 64, 256, cudaMemcpyDeviceToHost,
                    s);
    consume(h[head][0]);
    consume(h[(head + 4) % 3][0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[(head + 4) % 3]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
    head = (head + 1) % 3;
  }
}
// Advanced with a wrap test instead of `%`.
void ringWrapTest(const float *d, float *h[3], cudaStream_t s, int n) {
  int cur = 0;
  for (int i = 1; i < n; ++i) {
    cudaMemcpyAsync(h[cur + 1 == 3 ? 0 : cur + 1], d + i * 64, 256,
                    cudaMemcpyDeviceToHost, s);
    consume(h[cur][0]);
    consume(h[cur == 2 ? 0 : cur + 1][0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[cur == 2 ? 0 : cur + 1]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
    cur = cur + 1 == 3 ? 0 : cur + 1;
  }
}
// A ring of the caller's size n: where n is 1, both name slot 0.
void ringOfCallersSize(const float *d, float **h, cudaStream_t s, int n,
                       int steps) {
  int cur = 0;
  for (int i = 1; i < steps; ++i) {
    cudaMemcpyAsync(h[cur == n - 1 ? 0 : cur + 1], d + i * 64, 256,
                    cudaMemcpyDeviceToHost, s);
    consume(h[cur][0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[cur]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
    cur = cur == n - 1 ? 0 : cur + 1;
  }
}
// An unsigned counter tested `i < n`: i + 1 does not wrap, so the slot
// modulo the array's size differs from i's.
void ringOverStdArray(const float *d, std::array<float *, 3> &h,
                      cudaStream_t s, int n) {
  for (std::size_t i = 0; i < (std::size_t)n; ++i) {
    cudaMemcpyAsync(h[(i + 1) % h.size()], d + (i + 1) * 64, 256,
                    cudaMemcpyDeviceToHost, s);
    consume(h[i % h.size()][0]);
    consume(h[(i + 4) % h.size()][0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[(i + 4) % h.size()]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  }
}
// Tested `i != n` from 0: i stays below n.
void counterNotEqual(const float *d, float *h[3], cudaStream_t s,
                     unsigned n) {
  for (unsigned i = 0; i != n; ++i) {
    cudaMemcpyAsync(h[(i + 1) % 3], d, 256, cudaMemcpyDeviceToHost, s);
    consume(h[i % 3][0]);
    cudaStreamSynchronize(s);
  }
}
// Tested `i <= n`: i may be the type's largest value, where i + 1 wraps to
// 0 and (i + 1) % 3 equals i % 3.
void counterMayWrap(const float *d, float *h[3], cudaStream_t s,
                    unsigned n) {
  for (unsigned i = 0; i <= n; ++i) {
    cudaMemcpyAsync(h[(i + 1) % 3], d, 256, cudaMemcpyDeviceToHost, s);
    consume(h[i % 3][0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[i % 3]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  }
}
