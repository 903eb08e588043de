// Math libraries whose routines run on the stream their handle holds
// (cublasSetStream, cufftSetStream; a handle created here and never given
// one: the legacy default stream), with the toolkit's own headers. The
// routine is device work on that stream writing its outputs (the producer
// diagnostic); where the check cannot tell the handle's stream (a handle it
// is handed, a setter in a branch), it claims nothing. GPU cases:
// runtime/cases/cublas_*.cu.
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <utility>

void setStreamThenOtherStream(float *h, const float *x, float *y, int n,
                              cudaStream_t s1, cudaStream_t s2) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, s1);
  cublasScopy(handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'y' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  cublasDestroy(handle);
}

void setStreamThenSameStream(float *h, const float *x, float *y, int n,
                             cudaStream_t s1) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, s1);
  cublasScopy(handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s1);
  cublasDestroy(handle);
}

void gemmThenSynced(float *h, const float *A, const float *B, float *C, int n,
                    cudaStream_t s1, cudaStream_t s2) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, s1);
  const float one = 1, zero = 0;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n,
              &zero, C, n);
  cudaStreamSynchronize(s1);
  cudaMemcpyAsync(h, C, n * n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  cublasDestroy(handle);
}

// No stream set: the NULL stream, the legacy default stream.
void defaultStreamThenNonBlocking(float *h, float *x, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float two = 2;
  cublasSscal(handle, n, &two, x, 1);
  cudaMemcpyAsync(h, x, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'x' on stream 's' may read it before the work that writes it on the legacy default stream has finished
  cudaStreamSynchronize(s);
  cublasDestroy(handle);
}

void defaultStreamThenBlocking(float *h, float *x, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float two = 2;
  cublasSscal(handle, n, &two, x, 1);
  cudaMemcpyAsync(h, x, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cublasDestroy(handle);
}

// A handle the caller gives: its stream is not known here.
void handedHandle(cublasHandle_t handle, float *h, const float *x, float *y,
                  int n, cudaStream_t s2) {
  cublasScopy(handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// The caller's handle, given a stream here.
void handedHandleSetHere(cublasHandle_t handle, float *h, const float *x,
                         float *y, int n, cudaStream_t s1, cudaStream_t s2) {
  cublasSetStream(handle, s1);
  cublasScopy(handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'y' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

// Set on one branch only: which stream runs the copy is not known.
void setInABranch(cublasHandle_t handle, float *h, const float *x, float *y,
                  int n, cudaStream_t s1, cudaStream_t s2, bool side) {
  if (side)
    cublasSetStream(handle, s1);
  cublasScopy(handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// A reduction into a result pointer may block: not claimed.
void dotResult(float *h, const float *x, float *out, int n, cudaStream_t s1,
               cudaStream_t s2) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, s1);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(handle, n, x, 1, x, 1, out);
  cudaMemcpyAsync(h, out, sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  cublasDestroy(handle);
}

void fftOnPlanStream(cufftComplex *h, cufftComplex *in, cufftComplex *out,
                     int n, cudaStream_t s1, cudaStream_t s2) {
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cufftSetStream(plan, s1);
  cufftExecC2C(plan, in, out, CUFFT_FORWARD);
  cudaMemcpyAsync(h, out, n * sizeof(cufftComplex), cudaMemcpyDeviceToHost,
                  s2);
  // CHECK: :[[@LINE-2]]:3: warning: the asynchronous device-to-host copy of 'out' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  cufftDestroy(plan);
}

// A handle given its stream by a helper (the fifth adversarial round's 12):
// a setter statement of the helper's outermost block, on a member of the
// object it is handed, names the stream at calls after it.
struct GemmContext {
  cublasHandle_t handle;
  cudaStream_t compute;
  cudaStream_t copy;
};
static void initContext(GemmContext &ctx) {
  cudaStreamCreate(&ctx.compute);
  cudaStreamCreate(&ctx.copy);
  cublasCreate(&ctx.handle);
  cublasSetStream(ctx.handle, ctx.compute);
}
static void initContextMaybe(GemmContext &ctx, bool side) {
  cudaStreamCreate(&ctx.compute);
  cudaStreamCreate(&ctx.copy);
  cublasCreate(&ctx.handle);
  if (side)
    cublasSetStream(ctx.handle, ctx.compute);
}
void helperSetStreamThenOtherStream(float *h, const float *x, float *y,
                                    int n) {
  GemmContext ctx;
  initContext(ctx);
  cublasScopy(ctx.handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, ctx.copy);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'y' on stream 'ctx.copy' may read it before the work that writes it on stream 'ctx.compute' has finished
  cudaStreamSynchronize(ctx.copy);
}
void helperSetStreamThenSameStream(float *h, const float *x, float *y,
                                   int n) {
  GemmContext ctx;
  initContext(ctx);
  cublasScopy(ctx.handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost,
                  ctx.compute);
  cudaStreamSynchronize(ctx.compute);
}
// Set under a branch: the handle's stream is not known.
void helperMaybeSetStreamThenOtherStream(float *h, const float *x, float *y,
                                         int n, bool side) {
  GemmContext ctx;
  initContextMaybe(ctx, side);
  cublasScopy(ctx.handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, ctx.copy);
  cudaStreamSynchronize(ctx.copy);
}
// A copy of the context holds the same handle: a stream set through the
// copy is the original's too.
static void bindStream(GemmContext &ctx, cudaStream_t s) {
  cublasSetStream(ctx.handle, s);
}
void copiedContextRebound(float *h, const float *x, float *y, int n) {
  GemmContext a;
  initContext(a);
  GemmContext b = a;
  bindStream(b, b.copy);
  cublasScopy(a.handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, a.copy);
  cudaStreamSynchronize(a.copy);
}
// Created anew after the helper set its stream: the NULL stream again.
void handleRecreatedAfterInit(float *h, const float *x, float *y, int n) {
  GemmContext ctx;
  initContext(ctx);
  cublasDestroy(ctx.handle);
  cublasCreate(&ctx.handle);
  cublasScopy(ctx.handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, ctx.copy);
  cudaStreamSynchronize(ctx.copy);
}

// A setter inside a statement macro's `do { ... } while (0)` runs in line.
#define BLAS_CHECK(call)                                                       \
  do {                                                                         \
    cublasStatus_t status_ = (call);                                           \
    if (status_ != CUBLAS_STATUS_SUCCESS)                                      \
      return;                                                                  \
  } while (0)
void setStreamInMacroThenOtherStream(float *h, const float *x, float *y,
                                     int n, cudaStream_t s1, cudaStream_t s2) {
  cublasHandle_t handle;
  BLAS_CHECK(cublasCreate(&handle));
  BLAS_CHECK(cublasSetStream(handle, s1));
  BLAS_CHECK(cublasScopy(handle, n, x, 1, y, 1));
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'y' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

// Given several streams: the latest setter before the routine names its
// stream (a phase on a side stream, then the main one again). A setter
// between the routine and the copy ends the claim, as any call of the
// library not modelled does.
void phaseOnSideStream(float *h, const float *x, float *y, int n,
                       cudaStream_t main, cudaStream_t side) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, main);
  cublasSetStream(handle, side);
  cublasScopy(handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, main);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'y' on stream 'main' may read it before the work that writes it on stream 'side' has finished
  cudaStreamSynchronize(main);
  cublasSetStream(handle, main);
}
void phaseOnSideStreamSynced(float *h, const float *x, float *y, int n,
                             cudaStream_t main, cudaStream_t side) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, main);
  cublasSetStream(handle, side);
  cublasScopy(handle, n, x, 1, y, 1);
  cudaStreamSynchronize(side);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, main);
  cudaStreamSynchronize(main);
  cublasSetStream(handle, main);
}
// A setter under a branch may come between: no claim.
void phaseMaybeOnSideStream(float *h, const float *x, float *y, int n,
                            cudaStream_t main, cudaStream_t side, bool b) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, side);
  if (b)
    cublasSetStream(handle, main);
  cublasScopy(handle, n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, main);
  cudaStreamSynchronize(main);
}

// A handle member given its object's own stream member by the class
// (StreamOrigins::handleStream): `a.blas` runs on `a.stream`.
struct BlasContext {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  void init() {
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cublasCreate(&blas);
    cublasSetStream(blas, stream);
  }
};
float scaleThenBlockingCopy(BlasContext &a, float *x, int n) {
  const float two = 2;
  cublasSscal(a.blas, n, &two, x, 1);
  float v = 0;
  cudaMemcpy(&v, x, sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'x' on the legacy default stream may read it before the work that writes it on stream 'a.stream' has finished
  return v;
}
float scaleThenSyncThenBlockingCopy(BlasContext &a, float *x, int n) {
  const float two = 2;
  cublasSscal(a.blas, n, &two, x, 1);
  cudaStreamSynchronize(a.stream);
  float v = 0;
  cudaMemcpy(&v, x, sizeof(float), cudaMemcpyDeviceToHost);
  return v;
}

// An owner whose move assignment swaps its handle with the other owner's:
// the handle still holds what the class's setter gave it.
struct BlasOwner {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  void init() {
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cublasCreate(&blas);
    cublasSetStream(blas, stream);
  }
  BlasOwner &operator=(BlasOwner &&o) {
    std::swap(stream, o.stream);
    std::swap(blas, o.blas);
    return *this;
  }
};
float ownerScaleThenBlockingCopy(BlasOwner &a, float *x, int n) {
  const float two = 2;
  cublasSscal(a.blas, n, &two, x, 1);
  float v = 0;
  cudaMemcpy(&v, x, sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'x' on the legacy default stream may read it before the work that writes it on stream 'a.stream' has finished
  return v;
}
