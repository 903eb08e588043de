// Batch copies (CUDA 12.8+): every destination that is host memory, or of
// unknown kind copied from a source not known to be host memory, becomes
// pending on the batch's stream.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

void consume(float);

void batchIntoPinned(const float *d0, const float *d1, cudaStream_t s,
                     cudaMemcpyAttributes *attrs, size_t *idx) {
  float *h0, *h1;
  cudaMallocHost(&h0, 64);
  cudaMallocHost(&h1, 64);
  void *dsts[] = {h0, h1};
  const void *srcs[] = {d0, d1};
  size_t sizes[] = {64, 64};
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idx, 1, s);
  consume(h0[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h0' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  consume(h1[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h1' is read before the asynchronous
  cudaStreamSynchronize(s);
  consume(h0[1]);
}

// Destinations of unknown kind (parameters): the batch infers each
// direction from the pointers, as cudaMemcpyDefault does, so a destination
// read or written on the host here, from a source not known to be host
// memory, is a device-to-host copy.
void batchIntoUnknown(float *a, float *b, const float *d0, const float *d1,
                      cudaStream_t s, cudaMemcpyAttributes *attrs,
                      size_t *idx) {
  void *dsts[2];
  dsts[0] = a;
  dsts[1] = b;
  const void *srcs[] = {d0, d1};
  size_t sizes[] = {64, 64};
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idx, 1, s);
  consume(a[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'a' is read before the asynchronous
}

// Of unknown kind and never dereferenced on the host here (device memory
// would be as likely): no claim, as for cudaMemcpyDefault.
void storeResult(float *out);
void batchIntoUnknownPassedOn(float *a, const float *d0, cudaStream_t s,
                              cudaMemcpyAttributes *attrs, size_t *idx) {
  void *dsts[] = {a};
  const void *srcs[] = {d0};
  size_t sizes[] = {64};
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, attrs, idx, 1, s);
  storeResult(a);
}

// From host memory (a pinned staging buffer), or into device memory: not
// device-to-host.
void batchUnknownFromHostOrIntoDevice(float *a, const float *d0,
                                      cudaStream_t s,
                                      cudaMemcpyAttributes *attrs,
                                      size_t *idx) {
  float *staging, *dev;
  cudaMallocHost(&staging, 64);
  cudaMalloc(&dev, 64);
  void *dsts[] = {a, dev};
  const void *srcs[] = {staging, d0};
  size_t sizes[] = {64, 64};
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idx, 1, s);
  consume(a[0]);
}

void batchElementAssigned(const float *d0, cudaStream_t s,
                          cudaMemcpyAttributes *attrs, size_t *idx) {
  float *h;
  cudaMallocHost(&h, 64);
  void *dsts[1];
  dsts[0] = h;
  const void *srcs[] = {d0};
  size_t sizes[] = {64};
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, attrs, idx, 1, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void batch3DIntoPinned(cudaMemcpy3DBatchOp *unused, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 4096);
  cudaMemcpy3DBatchOp ops[1] = {};
  ops[0].dst.op.ptr.ptr = h;
  cudaMemcpy3DBatchAsync(1, ops, 0, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void batch3DThenSync(cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 4096);
  cudaMemcpy3DBatchOp ops[1] = {};
  ops[0].dst.op.ptr.ptr = h;
  cudaMemcpy3DBatchAsync(1, ops, 0, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

// Reusing a slot of the destination array for another buffer does not make
// the two buffers one.
void batchSlotReused(const float *d0, cudaStream_t s,
                     cudaMemcpyAttributes *attrs, size_t *idx) {
  float *h1, *h2;
  cudaMallocHost(&h1, 64);
  cudaMallocHost(&h2, 64);
  void *dsts[1];
  const void *srcs[] = {d0};
  size_t sizes[] = {64};
  dsts[0] = h1;
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, attrs, idx, 1, s);
  cudaStreamSynchronize(s);
  dsts[0] = h2;
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, attrs, idx, 1, s);
  consume(h1[0]);
  consume(h2[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h2' is read before the asynchronous
}
