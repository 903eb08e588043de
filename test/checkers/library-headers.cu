// A library's code in system headers is followed as the project's own is:
// CMake hands an imported library's include directories as -isystem, and its
// copy wrappers (raft::update_host, rmm's element access) leave copies in
// flight or synchronize. The toolchain's code is not followed, wherever it is
// installed: a CCCL checkout passed with -isystem, a system header's global
// functions, the standard library. The same findings with the library's
// headers as -I and as -isystem.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   -isystem %S/Inputs/library -isystem %S/Inputs/library-cccl \
// RUN:   -isystem %S/Inputs/library-c \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   -I %S/Inputs/library -isystem %S/Inputs/library-cccl \
// RUN:   -isystem %S/Inputs/library-c \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <c_copy.h>
#include <mylib/copies.hpp>
#include <thrust/async_copy.h>
#include <cstdio>

void consume(float v);

float *pinned(size_t n) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  return h;
}

//===--- The library's copies and syncs, followed ---===//

void updateHostThenRead(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  mylib::update_host(h, d, 64, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: mylib/copies.hpp:25:3: note: the copy is issued here
}

void updateHostSyncThenRead(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  mylib::update_host(h, d, 64, s);
  mylib::sync_stream(s);
  consume(h[0]);
}

void updateHostViewSyncThenRead(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  mylib::stream_view v(s);
  mylib::update_host(h, d, 64, v);
  v.synchronize();
  consume(h[0]);
}

void updateHostOtherStreamSync(const float *d, cudaStream_t s,
                               cudaStream_t t) {
  float *h = pinned(64);
  mylib::update_host(h, d, 64, s);
  mylib::sync_stream(t);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: mylib/copies.hpp:25:3: note: the copy is issued here
  // CHECK: :[[@LINE-5]]:{{[0-9]+}}: note: this synchronizes stream 't', not stream 's', the copy's stream
}

void fetchAndWaitThenRead(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  mylib::fetch_and_wait(h, d, 64, s);
  consume(h[0]);
}

float elementAccess(const mylib::device_vector<float> &v, cudaStream_t s) {
  return v.element(3, s) + 1.0f;
}

// Pointers of unknown kind only passed on: cudaMemcpyDefault is not taken
// for a copy to the host.
void copyBetweenUnknown(float *dst, const float *src, cudaStream_t s) {
  mylib::copy(dst, src, 64, s);
}

// Compiled into the library: opaque, as before.
void compiledCopy(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  mylib::copy_compiled(h, d, 64, s);
  consume(h[0]);
}

//===--- The toolchain's code, not followed ---===//

void cccls(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  thrust::copy_to_host_async(h, d, 64, s);
  consume(h[0]);
}

void globalNamespaceOfASystemHeader(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  c_copy_to_host_async(h, d, 64, s);
  consume(h[0]);
}
