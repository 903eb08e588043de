// The producer diagnostic on a part of a buffer: a copy reading `d +
// offset` (any offset, constant or not) or `&d[k]` reads bytes that device
// work writing the whole buffer `d` may have written, where every work of
// the function writing that buffer runs on one stream (rocBLAS 04d8ab02e:
// `hipMemcpy(result, workspace + offset, ...)` after kernels on the handle's
// stream). A buffer divided among streams (a chunked pipeline, each part
// written and copied on its own stream) makes no claim: which part the
// whole buffer's work writes is not known.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

__global__ void fill(float *d, int n);
__global__ void reduce(const float *in, float *out, int n);

void partAtVariableOffset(float *workspace, float *result, int n,
                          cudaStream_t s, bool twoPass) {
  fill<<<1, 64, 0, s>>>(workspace, n);
  size_t offset = twoPass ? size_t(n) : 0;
  if (twoPass)
    reduce<<<1, 64, 0, s>>>(workspace, workspace + n, n);
  cudaMemcpy(result, workspace + offset, sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'workspace' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // CHECK: :[[@LINE-6]]:3: note: 'workspace' is written on stream 's' here
}

void elementAddress(float *h, float *d) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, 64);
  cudaMemcpyAsync(h, &d[8], 8 * sizeof(float), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

// Negatives: ordered, on one stream, or a buffer divided among streams.
void synchronizedFirst(float *workspace, float *result, int n, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(workspace, n);
  cudaStreamSynchronize(s);
  cudaMemcpy(result, workspace + n / 2, sizeof(float), cudaMemcpyDeviceToHost);
}

void sameStream(float *h, float *d, int n, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(d, n);
  cudaMemcpyAsync(h, d + n / 2, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

void dividedAmongStreams(float *h, float *d, int n) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s1>>>(d, n);
  fill<<<1, 64, 0, s2>>>(d + n, n);
  cudaMemcpyAsync(h + n, d + n, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  cudaStreamSynchronize(s1);
}

void dividedInLoop(float *h, float *d, int chunk, cudaStream_t *s) {
  fill<<<1, 64, 0, s[0]>>>(d, chunk);
  for (int i = 1; i < 4; ++i) {
    fill<<<1, 64, 0, s[i]>>>(d + i * chunk, chunk);
    cudaMemcpyAsync(h + i * chunk, d + i * chunk, chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, s[i]);
  }
}

// A helper reading a part of its parameter: the caller's work on the whole.
static void copyBackPart(float *h, const float *d, size_t off) {
  cudaMemcpy(h, d + off, sizeof(float), cudaMemcpyDeviceToHost);
}

void helperReadsPart(float *h, float *d, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  fill<<<1, 64, 0, s>>>(d, n);
  copyBackPart(h, d, n - 1);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  cudaStreamSynchronize(s);
}
