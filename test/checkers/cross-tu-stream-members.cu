// Stream members across translation units: context.cu creates
// Context::stream_ non-blocking and ::side_ blocking, and adopt.cu gives
// ::mixed_ the caller's stream. Their summary files say so
// ("streamMembers"), and this unit, which only reads the members, joins
// what every unit says (StreamOrigins.h): a kernel on the legacy default
// stream and a copy on `ctx.stream_` race; on `ctx.side_` (blocking) they
// do not; `ctx.mixed_` may be any stream. Without the summaries (OPAQUE)
// none of the members is known to be a created stream.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_tidy_cars %S/Inputs/cross-tu-streams/context.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t/s'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu-streams
// RUN: %clang_tidy_cars %S/Inputs/cross-tu-streams/adopt.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t/s'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu-streams
// RUN: cat %t/s/context.cu.*.json | FileCheck %s --check-prefix=EXPORT
// RUN: cat %t/s/adopt.cu.*.json | FileCheck %s --check-prefix=EXPORT-ADOPT
// RUN: %clang_tidy_cars %s \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryImportPaths: '%t/s', cuda-async-read-before-sync.SummaryExportDirectory: '%t/main'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu-streams \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: cat %t/main/cross-tu-stream-members.cu.*.json | FileCheck %s --check-prefix=CONSULTS
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu-streams \
// RUN:   | FileCheck %s --check-prefix=OPAQUE --allow-empty
// OPAQUE-NOT: warning:

// EXPORT: "streamMembers": [{{$}}
// EXPORT-NEXT: {
// EXPORT-NEXT: "name": "Context::stream_",
// EXPORT-NEXT: "origin": "nonBlocking",
// EXPORT-NEXT: "usr": "c:@S@Context@FI@stream_"
// EXPORT: "name": "Context::side_",
// EXPORT-NEXT: "origin": "blocking",
// EXPORT: "name": "Context::mixed_",
// EXPORT-NEXT: "origin": "nonBlocking",
// EXPORT-ADOPT: "name": "Context::mixed_",
// EXPORT-ADOPT-NEXT: "origin": "unknown",
// The members' origins this unit asked for: a driver runs it again when
// another unit's change makes one of them differ.
// CONSULTS: "consults": [{{$}}
// CONSULTS-DAG: "%c:@S@Context@FI@stream_"
// CONSULTS-DAG: "%c:@S@Context@FI@side_"
// CONSULTS-DAG: "%c:@S@Context@FI@mixed_"

#include "context.h"

__global__ void fill(float *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = 1.0f;
}

void legacyThenNonBlockingMember(float *h, float *d) {
  Context ctx;
  ctx.init();
  fill<<<1, 64>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ctx.stream_);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'ctx.stream_' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 'ctx.stream_' wait for the write
  cudaStreamSynchronize(ctx.stream_);
}

void nonBlockingMemberThenBlockingCopy(float *h, float *d) {
  Context ctx;
  ctx.init();
  fill<<<1, 64, 0, ctx.stream_>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'ctx.stream_' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 'ctx.stream_' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes the legacy default stream wait for the write
}

// Fixed: the kernel runs on the copy's stream.
void sameMemberStream(float *h, float *d) {
  Context ctx;
  ctx.init();
  fill<<<1, 64, 0, ctx.stream_>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ctx.stream_);
  cudaStreamSynchronize(ctx.stream_);
}

// A blocking stream waits for the legacy default stream's work.
void legacyThenBlockingMember(float *h, float *d) {
  Context ctx;
  ctx.init();
  fill<<<1, 64>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ctx.side_);
  cudaStreamSynchronize(ctx.side_);
}

// Another unit gives it any stream: not known to be a created one.
void legacyThenMixedMember(float *h, float *d) {
  Context ctx;
  ctx.init();
  fill<<<1, 64>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, ctx.mixed_);
  cudaStreamSynchronize(ctx.mixed_);
}

// Solver::stream_ is only a copy of Context::stream_ here, but context.cu
// creates it (blocking): either stream, so no claim that rests on one.
void attach(Solver &sv, const Context &ctx) { sv.stream_ = ctx.stream_; }
void legacyThenSolverStream(float *h, float *d) {
  Solver sv;
  sv.own();
  fill<<<1, 64>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, sv.stream_);
  cudaStreamSynchronize(sv.stream_);
}
