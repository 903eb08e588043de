// Summaries across translation units: framework.cu's functions, exported by
// the first run, are applied here by the second; without them (the third
// run) their syncs are opaque and their copies invisible.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_tidy_cars %S/Inputs/cross-tu/framework.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t/s'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu
// RUN: %clang_tidy_cars %S/Inputs/cross-tu/middle.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t/m', cuda-async-read-before-sync.SummaryImportPaths: '%t/s'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu
// RUN: cat %t/s/framework.cu.*.json | FileCheck %s --check-prefix=EXPORT
// RUN: cat %t/m/middle.cu.*.json | FileCheck %s --check-prefix=CALLS
// RUN: cat %t/s/framework.cu.*.json | FileCheck %s --check-prefix=EXPORT-DEFAULT
// RUN: cat %t/s/framework.cu.*.json | FileCheck %s --check-prefix=EXPORT-VARIANTS
// RUN: %clang_tidy_cars %s \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryImportPaths: '%t/s;%t/m'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu \
// RUN:   | FileCheck %s --check-prefix=OPAQUE --implicit-check-not='warning:'

// The file format: fw::fetchAsync leaves a copy into parameter 0 on stream
// parameter 3; fw::waitFor synchronizes its stream parameter.
// EXPORT: "format": "cuda-async-read-before-sync-summaries"
// EXPORT: "name": "fw::waitFor",
// EXPORT: "syncsStreamParams": [{{$}}
// EXPORT-NEXT: 0
// EXPORT: "usr": "c:@N@fw@F@waitFor#*$@S@CUstream_st#"
// EXPORT: "copies": [{{$}}
// EXPORT-NEXT: {
// EXPORT-NEXT: "at": "{{.*}}framework.cu:16:3",
// EXPORT-NEXT: "coveredBy": [],
// EXPORT-NEXT: "dst": 0,
// EXPORT: "streamParam": 3
// EXPORT: "name": "fw::fetchAsync",
// EXPORT: "inputs": [
// EXPORT-NEXT: "{{.*}}framework.cu",
// EXPORT-NEXT: "{{.*}}framework.h"
// EXPORT: "version": 3
// fw::copyAny's copy (cudaMemcpyDefault) goes to the host only where the
// caller's argument is host memory.
// EXPORT-DEFAULT: "needsHostDestination": true
// EXPORT-DEFAULT: "name": "fw::copyAny",
// middle.cu calls framework.cu's functions without their bodies: a driver
// re-runs it when their summaries change.
// CALLS: "calls": [{{$}}
// CALLS: "c:@N@fw@F@fetchAsync#*f#*1f#l#*$@S@CUstream_st#",
// CALLS: "c:@N@fw@F@waitFor#*$@S@CUstream_st#"
// CALLS-NEXT: ],

#include "framework.h"

void middleFetch(float *h, const float *d, size_t n, cudaStream_t s);
void middleSync(cudaStream_t s);

void consume(float v);

float *pinned(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  return h;
}

//===--- Syncs defined in another translation unit ---===//

void headerCopyThenOutOfLineSync(const float *d, size_t n) {
  float *h = pinned(n);
  fw::copyToHost(h, d, n);
  consume(h[0]);
  // OPAQUE: :[[@LINE-1]]:11: warning: 'h' is read before
}

void syncOfParameterStream(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  fw::waitFor(s);
  consume(h[0]);
  // OPAQUE: :[[@LINE-1]]:11: warning: 'h' is read before
}

void syncOfAnotherStream(const float *d, size_t n, cudaStream_t s,
                         cudaStream_t t) {
  float *h = pinned(n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  fw::waitFor(t);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
  // OPAQUE: :[[@LINE-2]]:11: warning: 'h' is read before
}

void syncOfGlobalStream(const float *d, size_t n) {
  float *h = pinned(n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, fw::gStream);
  fw::syncGlobal();
  consume(h[0]);
  // OPAQUE: :[[@LINE-1]]:11: warning: 'h' is read before
}

//===--- Buffers passed to functions of another translation unit ---===//

void passedToSyncingReader(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  fw::syncThenRead(h, s);
  // OPAQUE: :[[@LINE-1]]:20: warning: 'h' is passed to 'syncThenRead' before
}

void passedToReader(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  consume(fw::readFirst(h));
  // CHECK: :[[@LINE-1]]:25: warning: 'h' is passed to 'readFirst' before
  // OPAQUE: :[[@LINE-2]]:25: warning: 'h' is passed to 'readFirst' before
}

//===--- Copies left in flight by another translation unit ---===//

void copyLeftInFlight(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  fw::fetchAsync(h, d, n, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-4]]:3: note: the copy is issued in another translation unit, at {{.*}}framework.cu:16:3
}

void copyLeftInFlightThenSynced(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  fw::fetchAsync(h, d, n, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

void copyAndWaitInOneCall(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  fw::fetchAndWait(h, d, n, s);
  consume(h[0]);
}

void copyIntoReturnedBuffer(const float *d, size_t n, cudaStream_t s) {
  float *h = fw::fetchNew(d, n, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

void copyIntoReturnedBufferThenSynced(const float *d, size_t n,
                                      cudaStream_t s) {
  float *h = fw::fetchNew(d, n, s);
  fw::waitFor(s);
  consume(h[0]);
}

void memberCopyLeftInFlight(const float *d, size_t n) {
  fw::Reader r;
  r.start(d, n);
  consume(r.h_[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'r.h_' is read before
}

void memberCopyThenMemberWait(const float *d, size_t n) {
  fw::Reader r;
  r.start(d, n);
  r.wait();
  consume(r.h_[0]);
}

//===--- A chain across three translation units ---===//

void copyLeftByAChain(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  middleFetch(h, d, n, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-4]]:3: note: the copy is issued in another translation unit, at {{.*}}framework.cu:16:3
}

void syncThroughAChain(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  middleSync(s);
  consume(h[0]);
  // OPAQUE: :[[@LINE-1]]:11: warning: 'h' is read before
}

//===--- A copy of inferred direction (cudaMemcpyDefault) in another unit ---===//

void storeResult(float *out);

void copyAnyIntoPinned(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  fw::copyAny(h, d, n, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

void copyAnyIntoDevice(const float *src, size_t n, cudaStream_t s) {
  float *dd;
  cudaMalloc(&dd, n);
  fw::copyAny(dd, src, n, s);
  storeResult(dd);
}

void copyAnyIntoUnknownPassedOn(float *out, const float *src, size_t n,
                                cudaStream_t s) {
  fw::copyAny(out, src, n, s);
  storeResult(out);
}

//===--- A pointer-attribute query defined in another unit ---===//

void attributeQueryIsNoAccess(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  if (!fw::isPinned(h))
    return;
  // OPAQUE: :[[@LINE-2]]:21: warning: 'h' is passed to 'isPinned' before
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- Effects chosen by a constant argument (byConstant variants) ---===//
// (Keys are written in sorted order: a function's "byConstant" before its
// "name".) Only the variants that differ are written: copyToHost's Sync (0:
// a blocking copy, none left in flight) and Async (1: the copy on the stream
// parameter, whose source the caller's producer diagnostic reads:
// "consumes"), fetchMaybeWait's wait (1).
// EXPORT-VARIANTS: "byConstant": [{{$}}
// EXPORT-VARIANTS-NEXT: {
// EXPORT-VARIANTS: "consumes": [
// EXPORT-VARIANTS: "blocking": true,
// EXPORT-VARIANTS-NEXT: "on": "legacy",
// EXPORT-VARIANTS: "copies": [],
// EXPORT-VARIANTS: "param": 3,
// EXPORT-VARIANTS: "value": 0
// EXPORT-VARIANTS-NEXT: },
// EXPORT-VARIANTS-NEXT: {
// EXPORT-VARIANTS: "on": "param",
// EXPORT-VARIANTS: "param": 3,
// EXPORT-VARIANTS: "value": 1
// EXPORT-VARIANTS-NEXT: }
// EXPORT-VARIANTS-NEXT: ],
// EXPORT-VARIANTS: "name": "fw::copyToHost",
// EXPORT-VARIANTS: "byConstant": [{{$}}
// EXPORT-VARIANTS-NEXT: {
// EXPORT-VARIANTS: "param": 3,
// EXPORT-VARIANTS: "value": 1
// EXPORT-VARIANTS-NEXT: }
// EXPORT-VARIANTS-NEXT: ],
// EXPORT-VARIANTS: "name": "fw::fetchMaybeWait",

void blockingBehavior(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  fw::copyToHost(h, d, n, fw::CallBehavior::Sync, s);
  consume(h[0]);
}

void asyncBehavior(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  fw::copyToHost(h, d, n, fw::CallBehavior::Async, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

void behaviorNotKnown(const float *d, size_t n, fw::CallBehavior b,
                      cudaStream_t s) {
  float *h = pinned(n);
  fw::copyToHost(h, d, n, b, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

void waitFlagSet(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  const bool wait = true;
  fw::fetchMaybeWait(h, d, n, wait, s);
  consume(h[0]);
}

void waitFlagClear(const float *d, size_t n, cudaStream_t s) {
  float *h = pinned(n);
  fw::fetchMaybeWait(h, d, n, false, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

//===--- A copy in another unit reads what work here writes ("consumes") ===//
__global__ void fillHere(float *d);

void producerBeforeImportedCopy(const float *src, float *d, size_t n) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  float *h = pinned(n);
  fillHere<<<1, 64, 0, s1>>>(d);
  fw::copyToHost(h, d, n, fw::CallBehavior::Async, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  cudaStreamSynchronize(s2);
  consume(h[0]);
}

// (At the end, so that cross-tu-errors.test's line numbers hold.)
// fw::copyAny's summary also holds device work writing its argument
// where that is device memory.
// EXPORT-DEFAULT: "produces": [{{$}}
// EXPORT-DEFAULT-NEXT: {
// EXPORT-DEFAULT-NEXT: "ifDevice": true,
