// Math library handles given their stream in another unit: context.cu binds
// Context::solver_ and ::blas_ to Context::stream_ (created non-blocking),
// and rebind.cu also gives ::blas_ a caller's stream. Their summary files say
// so ("handleMembers"), and this unit, which only uses the handles, joins
// what every unit says (StreamOrigins::handleStream): a cuSOLVER routine on
// solver_ runs on that non-blocking stream -- `c.solver_` on `c.stream_`
// (every setter gives the handle its own object's stream: "sameObject"), a
// copy of it in another class (`solver_ = c->solver_`) on what
// Context::stream_ holds -- so a blocking cudaMemcpy of its output
// races; a sync of stream_ (or of a copy of it) orders it; blas_ may hold any
// stream, so nothing is claimed of it. Without the summaries (OPAQUE) no
// handle's stream is known.
//
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_tidy_cars %S/Inputs/cross-tu-handles/context.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t/s'}}" \
// RUN:   -- %cuda_real_flags -std=c++17 -I%S/Inputs/cross-tu-handles
// RUN: %clang_tidy_cars %S/Inputs/cross-tu-handles/rebind.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t/s'}}" \
// RUN:   -- %cuda_real_flags -std=c++17 -I%S/Inputs/cross-tu-handles
// RUN: cat %t/s/context.cu.*.json | FileCheck %s --check-prefix=EXPORT
// RUN: cat %t/s/rebind.cu.*.json | FileCheck %s --check-prefix=EXPORT-REBIND
// RUN: %clang_tidy_cars %s \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryImportPaths: '%t/s', cuda-async-read-before-sync.SummaryExportDirectory: '%t/main'}}" \
// RUN:   -- %cuda_real_flags -std=c++17 -I%S/Inputs/cross-tu-handles \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: cat %t/main/cross-tu-handle-members.cu.*.json | FileCheck %s --check-prefix=CONSULTS
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -std=c++17 -I%S/Inputs/cross-tu-handles \
// RUN:   | FileCheck %s --check-prefix=OPAQUE --allow-empty
// OPAQUE-NOT: warning:

// EXPORT: "handleMembers": [{{$}}
// EXPORT-NEXT: {
// EXPORT-NEXT: "name": "Context::solver_",
// EXPORT-NEXT: "sameObject": true,
// EXPORT-NEXT: "stream": "c:@S@Context@FI@stream_",
// EXPORT: "name": "Context::blas_",
// EXPORT-NEXT: "sameObject": true,
// EXPORT-NEXT: "stream": "c:@S@Context@FI@stream_",
// EXPORT-REBIND: "handleMembers": [{{$}}
// EXPORT-REBIND-NEXT: {
// EXPORT-REBIND-NEXT: "name": "Context::blas_",
// EXPORT-REBIND-NEXT: "usr": "c:@S@Context@FI@blas_"
// The handles this unit asked for: a driver runs it again when another
// unit's change makes one of them differ.
// CONSULTS: "%c:@S@Context@FI@solver_"

#include "context.h"

struct Solver {
  cusolverDnHandle_t solver_ = nullptr;
  cudaStream_t stream_ = nullptr;
  float *A_ = nullptr, *work_ = nullptr;
  int *ipiv_ = nullptr, *info_ = nullptr;
  void bind(Context *c) {
    solver_ = c->solver_;
    stream_ = c->stream_;
  }
  int factorize(int n) {
    cusolverDnSgetrf(solver_, n, n, A_, n, work_, ipiv_, info_);
    int info = 0;
    cudaMemcpy(&info, info_, sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'info_' on the legacy default stream may read it before the work that writes it on stream 'Context::stream_' has finished
    return info;
  }
  // The fix: the stream copied from the same context is synchronized.
  int factorizeSynced(int n) {
    cusolverDnSgetrf(solver_, n, n, A_, n, work_, ipiv_, info_);
    cudaStreamSynchronize(stream_);
    int info = 0;
    cudaMemcpy(&info, info_, sizeof(int), cudaMemcpyDeviceToHost);
    return info;
  }
  // The copy on that stream, then its sync.
  int factorizeOnStream(int n) {
    cusolverDnSgetrf(solver_, n, n, A_, n, work_, ipiv_, info_);
    int info = 0;
    cudaMemcpyAsync(&info, info_, sizeof(int), cudaMemcpyDeviceToHost,
                    stream_);
    cudaStreamSynchronize(stream_);
    return info;
  }
};

int contextDirect(Context &c, float *A, float *work, int *ipiv, int *dInfo,
                  int n) {
  cusolverDnSgetrf(c.solver_, n, n, A, n, work, ipiv, dInfo);
  int info = 0;
  cudaMemcpy(&info, dInfo, sizeof(int), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'dInfo' on the legacy default stream may read it before the work that writes it on stream 'c.stream_' has finished
  return info;
}

// blas_ is also given a caller's stream (rebind.cu): which one it holds is
// not known.
float blasMayHoldAnyStream(Context &c, float *x, int n) {
  const float two = 2;
  cublasSscal(c.blas_, n, &two, x, 1);
  float v = 0;
  cudaMemcpy(&v, x, sizeof(float), cudaMemcpyDeviceToHost);
  return v;
}
