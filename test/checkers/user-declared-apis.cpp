// User-declared APIs: a project's own wrappers, compiled in another
// translation unit, declared through the check's options.
//
// RUN: %clang_tidy_cars %s -config="{CheckOptions: { \
// RUN:   cuda-async-read-before-sync.AsyncCopyFunctions: 'copyToHost:0:3;io::fetch:1:0;fetchDefault:0', \
// RUN:   cuda-async-read-before-sync.StreamSyncFunctions: 'syncStream:0', \
// RUN:   cuda-async-read-before-sync.DeviceSyncFunctions: 'waitAll', \
// RUN:   cuda-async-read-before-sync.EventRecordFunctions: 'mark:0:1', \
// RUN:   cuda-async-read-before-sync.EventSyncFunctions: 'waitMark:0'}}" \
// RUN:   -- %cuda_mock_flags | FileCheck %s --implicit-check-not='warning:'
//
// Without the options, the wrappers are unknown functions: no copy is
// known, so nothing is reported.
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags | count 0
//
// A fully qualified name with a leading `::` is the same name; a row whose
// positions do not exist in a call does not describe that call (here
// syncStream has one argument, not four), so it is neither copy nor sync.
// RUN: %clang_tidy_cars %s -config="{CheckOptions: { \
// RUN:   cuda-async-read-before-sync.AsyncCopyFunctions: '::io::fetch:1:0;copyToHost:0:3', \
// RUN:   cuda-async-read-before-sync.StreamSyncFunctions: 'syncStream:3'}}" \
// RUN:   -- %cuda_mock_flags | FileCheck %s --check-prefix=POS --implicit-check-not='warning:'
// POS: user-declared-apis.cpp:[[@LINE+42]]:11: warning: 'h' is read before the asynchronous
// POS: user-declared-apis.cpp:[[@LINE+49]]:11: warning: 'h' is read before the asynchronous
// POS: user-declared-apis.cpp:[[@LINE+55]]:11: warning: 'h' is read before the asynchronous
// POS: user-declared-apis.cpp:[[@LINE+60]]:11: warning: 'h' is read before the asynchronous
// POS: user-declared-apis.cpp:[[@LINE+73]]:11: warning: 'h' is read before the asynchronous
// POS: user-declared-apis.cpp:[[@LINE+80]]:11: warning: 'h' is read before the asynchronous
//
// --dump-config round-trips them.
// RUN: %clang_tidy_cars %s --dump-config -config="{CheckOptions: { \
// RUN:   cuda-async-read-before-sync.AsyncCopyFunctions: 'copyToHost:0:3;io::fetch:1:0'}}" \
// RUN:   -- %cuda_mock_flags | FileCheck %s --check-prefix=DUMP
// DUMP: cuda-async-read-before-sync.AsyncCopyFunctions: 'copyToHost:0:3;io::fetch:1:0'
// DUMP: cuda-async-read-before-sync.DeviceSyncFunctions: ''
//
// Malformed rows are reported, naming the option, and skipped; the valid
// rows and the check go on.
// RUN: %clang_tidy_cars %s -config="{CheckOptions: { \
// RUN:   cuda-async-read-before-sync.AsyncCopyFunctions: 'copyToHost:0:3;bad:x;:1;tooMany:1:2:3;intoThis:this', \
// RUN:   cuda-async-read-before-sync.StreamSyncFunctions: 'syncStream'}}" \
// RUN:   -- %cuda_mock_flags 2>&1 | FileCheck %s --check-prefix=BAD
// BAD-DAG: warning: invalid entry in option 'cuda-async-read-before-sync.AsyncCopyFunctions': 'bad:x': 'x' is not an argument position (0, 1, ...) [clang-tidy-config]
// BAD-DAG: warning: invalid entry in option 'cuda-async-read-before-sync.AsyncCopyFunctions': ':1': expected a function name [clang-tidy-config]
// BAD-DAG: warning: invalid entry in option 'cuda-async-read-before-sync.AsyncCopyFunctions': 'intoThis:this': 'this' is not an argument position (0, 1, ...) here [clang-tidy-config]
// BAD-DAG: warning: invalid entry in option 'cuda-async-read-before-sync.AsyncCopyFunctions': 'tooMany:1:2:3': expected 1 or 2 argument position(s) after the name [clang-tidy-config]
// BAD-DAG: warning: invalid entry in option 'cuda-async-read-before-sync.StreamSyncFunctions': 'syncStream': expected 1 argument position(s) after the name [clang-tidy-config]
// BAD-DAG: user-declared-apis.cpp:[[@LINE+17]]:11: warning: 'h' is read before the asynchronous

#include <cuda_runtime.h>

void copyToHost(float *dst, const float *src, size_t n, cudaStream_t s);
namespace io {
void fetch(cudaStream_t s, float *dst, const float *src, size_t n);
}
void fetchDefault(float *dst, const float *src, size_t n);
void syncStream(cudaStream_t s);
void waitAll();
void mark(cudaEvent_t e, cudaStream_t s);
void waitMark(cudaEvent_t e);
void consume(float);

void wrapperCopyNoSync(float *h, const float *d, cudaStream_t s) {
  copyToHost(h, d, 64, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void wrapperCopyWrapperSync(float *h, const float *d, cudaStream_t s) {
  copyToHost(h, d, 64, s);
  syncStream(s);
  consume(h[0]);
}

void wrapperCopyWrapperSyncOfAnother(float *h, const float *d, cudaStream_t s,
                                     cudaStream_t other) {
  copyToHost(h, d, 64, s);
  syncStream(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void qualifiedWrapper(float *h, const float *d, cudaStream_t s) {
  io::fetch(s, h, d, 64);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void defaultStreamWrapperThenDeviceWrapper(float *h, const float *d) {
  fetchDefault(h, d, 64);
  waitAll();
  consume(h[0]);
}

void eventWrappers(float *h, const float *d, cudaStream_t s, cudaEvent_t e) {
  copyToHost(h, d, 64, s);
  mark(e, s);
  waitMark(e);
  consume(h[0]);
}

void eventWrappersMarkedBefore(float *h, const float *d, cudaStream_t s,
                               cudaEvent_t e) {
  mark(e, s);
  copyToHost(h, d, 64, s);
  waitMark(e);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// A project's own device sync may wait for every device: not only for the
// current one's work, as cudaDeviceSynchronize (current-device.cu).
void deviceWrapperAfterOtherDevice(float *h, const float *d) {
  cudaSetDevice(0);
  fetchDefault(h, d, 64);
  cudaSetDevice(1);
  waitAll();
  consume(h[0]);
}

void modelledDeviceSyncAfterOtherDevice(float *h, const float *d) {
  cudaSetDevice(0);
  fetchDefault(h, d, 64);
  cudaSetDevice(1);
  cudaDeviceSynchronize();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}
