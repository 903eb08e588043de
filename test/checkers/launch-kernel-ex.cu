// Kernels launched with cudaLaunchKernelEx (the runtime's C++ form, with a
// cudaLaunchConfig_t whose `stream` the function sets) are device work on
// that stream writing the arguments the kernel may write, as a `<<<>>>`
// launch is (the sixth adversarial round's 29, a miss). A configuration
// whose stream the check cannot read leaves the launch unknown: no claim.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.f * in[i];
}

void unordered(float *d_out, const float *d_in, float *h, int n) {
  cudaStream_t compute, copy;
  cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / 256);
  cfg.blockDim = dim3(256);
  cfg.stream = compute;
  cudaLaunchKernelEx(&cfg, scale, d_out, d_in, n);
  cudaMemcpyAsync(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, copy);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd_out' on stream 'copy' may read it before the work that writes it on stream 'compute' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd_out' is written on stream 'compute' here
  cudaMemcpyAsync(h, d_in, n * sizeof(float), cudaMemcpyDeviceToHost, copy);
  cudaStreamSynchronize(copy);
}
void sameStream(float *d_out, const float *d_in, float *h, int n) {
  cudaStream_t compute;
  cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking);
  cudaLaunchConfig_t cfg = {};
  cfg.stream = compute;
  cudaLaunchKernelEx(&cfg, scale, d_out, d_in, n);
  cudaMemcpyAsync(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost,
                  compute);
  cudaStreamSynchronize(compute);
}
void waited(float *d_out, const float *d_in, float *h, int n) {
  cudaStream_t compute, copy;
  cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking);
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaLaunchConfig_t cfg = {};
  cfg.stream = compute;
  cudaLaunchKernelEx(&cfg, scale, d_out, d_in, n);
  cudaEventRecord(done, compute);
  cudaStreamWaitEvent(copy, done, 0);
  cudaMemcpyAsync(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, copy);
  cudaStreamSynchronize(copy);
}
void streamNotKnown(float *d_out, const float *d_in, float *h, int n,
                    const cudaLaunchConfig_t *cfg) {
  cudaStream_t copy;
  cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking);
  cudaLaunchKernelEx(cfg, scale, d_out, d_in, n);
  cudaMemcpyAsync(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, copy);
  cudaStreamSynchronize(copy);
}
