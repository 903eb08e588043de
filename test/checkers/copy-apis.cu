// Which calls are asynchronous device-to-host copies: every modelled API,
// the direction from cudaMemcpyKind (literal, constant, variable),
// cudaMemcpyDefault, and error-checking wrappers.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <stdlib.h>

void consume(float);
__device__ float deviceSymbol[64];

//===--- Relatives of cudaMemcpyAsync --------------------------------------===//

void fromSymbolAsync(float *h, cudaStream_t s) {
  cudaMemcpyFromSymbolAsync(h, deviceSymbol, 64, 0, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void fromSymbolAsyncThenSync(float *h, cudaStream_t s) {
  cudaMemcpyFromSymbolAsync(h, deviceSymbol, 64, 0, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

void fromArray2DAsync(float *h, cudaArray_const_t a, cudaStream_t s) {
  cudaMemcpy2DFromArrayAsync(h, 64, a, 0, 0, 64, 4, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void fromArray2DAsyncThenSync(float *h, cudaArray_const_t a, cudaStream_t s) {
  cudaMemcpy2DFromArrayAsync(h, 64, a, 0, 0, 64, 4, cudaMemcpyDeviceToHost, s);
  cudaDeviceSynchronize();
  consume(h[0]);
}

void memcpy3DAsyncFromParams(float *h, cudaPitchedPtr src, cudaExtent ext,
                             cudaStream_t s) {
  cudaMemcpy3DParms p = {0};
  p.srcPtr = src;
  p.dstPtr = make_cudaPitchedPtr(h, 256, 64, 4);
  p.extent = ext;
  p.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3DAsync(&p, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void memcpy3DAsyncPtrField(float *h, cudaPitchedPtr src, cudaExtent ext,
                           cudaStream_t s) {
  cudaMemcpy3DParms p = {0};
  p.srcPtr = src;
  p.dstPtr.ptr = h;
  p.extent = ext;
  p.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3DAsync(&p, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void memcpy3DAsyncHostToDevice(float *h, cudaPitchedPtr dst, cudaExtent ext,
                               cudaStream_t s) {
  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(h, 256, 64, 4);
  p.dstPtr = dst;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DAsync(&p, s);
  consume(h[0]);
}

void memcpy3DAsyncThenSync(float *h, cudaPitchedPtr src, cudaExtent ext,
                           cudaStream_t s) {
  cudaMemcpy3DParms p = {0};
  p.srcPtr = src;
  p.dstPtr = make_cudaPitchedPtr(h, 256, 64, 4);
  p.extent = ext;
  p.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3DAsync(&p, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

//===--- Direction ---------------------------------------------------------===//

void hostToDeviceNeverWarns(float *h, float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  consume(h[0]);
}

void deviceToDeviceNeverWarns(float *d2, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(d2, d, 64, cudaMemcpyDeviceToDevice, s);
  consume(d2[0]);
}

void kindInConstant(float *h, const float *d, cudaStream_t s) {
  const cudaMemcpyKind kind = cudaMemcpyDeviceToHost;
  cudaMemcpyAsync(h, d, 64, kind, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void kindInLocalNeverChanged(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyKind kind = cudaMemcpyDeviceToHost;
  cudaMemcpyAsync(h, d, 64, kind, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void kindInLocalHostToDevice(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyKind kind = cudaMemcpyHostToDevice;
  cudaMemcpyAsync(h, d, 64, kind, s);
  consume(h[0]);
}

// The direction is not known: no guess, no warning.
void kindChangedOnSomePath(float *h, const float *d, cudaStream_t s, bool b) {
  cudaMemcpyKind kind = cudaMemcpyDeviceToHost;
  if (b)
    kind = cudaMemcpyHostToDevice;
  cudaMemcpyAsync(h, d, 64, kind, s);
  consume(h[0]);
}

void kindFromParameter(float *h, const float *d, cudaMemcpyKind kind,
                       cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, kind, s);
  consume(h[0]);
}

void kindAsInteger(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, (cudaMemcpyKind)2, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

//===--- cudaMemcpyDefault -------------------------------------------------===//

void defaultKindUnknownDestination(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDefault, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void defaultKindDeviceDestination(const float *src, cudaStream_t s) {
  float *dd;
  cudaMalloc(&dd, 64);
  cudaMemcpyAsync(dd, src, 64, cudaMemcpyDefault, s);
  consume(dd[0]);
}

void defaultKindPinnedSource(float *dst, cudaStream_t s) {
  float *src;
  cudaMallocHost(&src, 64);
  cudaMemcpyAsync(dst, src, 64, cudaMemcpyDefault, s);
  consume(dst[0]);
}

// Pointers of unknown kind: a copy to the host only where the destination
// is host memory. Here nothing dereferences it on the host (device memory
// passed on would be as likely: a device-to-device copy), so no claim.
void storeResult(float *out);
void defaultKindUnknownDestinationPassedOn(float *out, const float *in,
                                           cudaStream_t s) {
  cudaMemcpyAsync(out, in, 64, cudaMemcpyDefault, s);
  storeResult(out);
}

// A copy wrapper (raft::copy's shape): the direction is decided at each
// call by the argument.
static void copyDefault(float *dst, const float *src, size_t bytes,
                        cudaStream_t s) {
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
}

void wrapperIntoPinned(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  copyDefault(h, d, 64, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void wrapperIntoDevice(const float *src, cudaStream_t s) {
  float *dd;
  cudaMalloc(&dd, 64);
  copyDefault(dd, src, 64, s);
  storeResult(dd);
}

void wrapperIntoUnknownPassedOn(float *out, const float *in, cudaStream_t s) {
  copyDefault(out, in, 64, s);
  storeResult(out);
}

void wrapperIntoUnknownReadOnHost(float *out, const float *in, cudaStream_t s) {
  copyDefault(out, in, 64, s);
  consume(out[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'out' is read before the asynchronous
}

// Through two wrappers: the outer one passes its own parameter on.
static void copyTwice(float *dst, const float *src, size_t bytes,
                      cudaStream_t s) {
  copyDefault(dst, src, bytes, s);
}

void twoWrappersIntoPinned(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  copyTwice(h, d, 64, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void twoWrappersIntoDevice(const float *src, cudaStream_t s) {
  float *dd;
  cudaMalloc(&dd, 64);
  copyTwice(dd, src, 64, s);
  storeResult(dd);
}

//===--- Error-checking wrappers -------------------------------------------===//

#define CHECK(call)                                                           \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess)                                                  \
      abort();                                                                \
  } while (0)

cudaError_t checkCudaErrors(cudaError_t e);

void copyInsideCheckMacro(float *h, const float *d, cudaStream_t s) {
  CHECK(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-3]]:9: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void syncInsideCheckMacro(float *h, const float *d, cudaStream_t s) {
  CHECK(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  consume(h[0]);
}

void copyInsideCheckFunction(float *h, const float *d, cudaStream_t s) {
  checkCudaErrors(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void syncInsideCheckFunction(float *h, const float *d, cudaStream_t s) {
  checkCudaErrors(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  consume(h[0]);
}

int syncInCondition(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (cudaStreamSynchronize(s) != cudaSuccess)
    return -1;
  consume(h[0]);
  return 0;
}

int copyInCondition(float *h, const float *d, cudaStream_t s) {
  if (cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s) != cudaSuccess)
    return -1;
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  return 0;
}
