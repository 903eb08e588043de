// Thrust algorithms given a CUDA execution policy, with the toolkit's own
// thrust: device work on the policy's stream writing their outputs (the
// producer diagnostic), and, for a synchronizing policy (`par`,
// `par.on(s)`), a host sync of that stream before they return
// (thrust/system/cuda/detail/par.h). A thrust::device_vector's iterators
// (`v.begin()`) and `thrust::raw_pointer_cast(v.data())` name its storage,
// and reading them off the vector is no device work (blind round 21: r30).
// GPU cases:
// runtime/cases/thrust_nosync_copy_other.cu, thrust_par_copy_other.cu.
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/sort.h>

void consume(float v);

void nosyncThenOtherStream(float *h, const float *src, float *d, int n,
                           cudaStream_t s1, cudaStream_t s2) {
  thrust::copy(thrust::cuda::par_nosync.on(s1), src, src + n, d);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

void parThenOtherStream(float *h, const float *src, float *d, int n,
                        cudaStream_t s1, cudaStream_t s2) {
  thrust::copy(thrust::cuda::par.on(s1), src, src + n, d);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void nosyncPolicyInALocal(float *h, float *d, int n, cudaStream_t s1,
                          cudaStream_t s2) {
  auto policy = thrust::cuda::par_nosync.on(s1);
  thrust::fill(policy, d, d + n, 1.0f);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
}

void nosyncThenSynced(float *h, float *d, int n, cudaStream_t s1,
                      cudaStream_t s2) {
  thrust::fill(thrust::cuda::par_nosync.on(s1), d, d + n, 1.0f);
  cudaStreamSynchronize(s1);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

void nosyncSameStream(float *h, float *d, int n, cudaStream_t s) {
  thrust::sort(thrust::cuda::par_nosync.on(s), d, d + n);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

// An algorithm that reads its count back waits for its kernels.
struct Positive {
  __host__ __device__ bool operator()(float x) const { return x > 0; }
};
void nosyncCopyIfReadsBack(float *h, const float *src, float *d, int n,
                           cudaStream_t s1, cudaStream_t s2) {
  thrust::copy_if(thrust::cuda::par_nosync.on(s1), src, src + n, d,
                  Positive());
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
}

// A synchronizing policy synchronizes its stream on the host: a copy in
// flight on it is complete after the algorithm.
void parSyncsPendingCopy(float *h, const float *d, float *keys, int n,
                         cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  thrust::sort(thrust::cuda::par.on(s), keys, keys + n);
  consume(h[0]);
}

void nosyncDoesNotSyncPendingCopy(float *h, const float *d, float *keys,
                                  int n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  thrust::sort(thrust::cuda::par_nosync.on(s), keys, keys + n);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy
}

// par_nosync without a stream: Thrust's default stream, the legacy one.
void nosyncDefaultStreamThenNonBlocking(float *h, float *d, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  thrust::fill(thrust::cuda::par_nosync, d, d + n, 1.0f);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's' may read it before the work that writes it on the legacy default stream has finished
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}

void nosyncDefaultStreamThenBlocking(float *h, float *d, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  thrust::fill(thrust::cuda::par_nosync, d, d + n, 1.0f);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}

void deviceVectorThenBlockingCopy(float *h, int n, cudaStream_t s) {
  thrust::device_vector<float> out(n);
  thrust::fill(thrust::cuda::par_nosync.on(s), out.begin(), out.end(), 1.0f);
  cudaMemcpy(h, thrust::raw_pointer_cast(out.data()), n * sizeof(float),
             cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-2]]:3: warning: the blocking device-to-host copy of 'out' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  cudaMemcpy(h, out.data().get(), n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'out' on the legacy default stream may read it before the work that writes it on stream 's' has finished
}

void deviceVectorSynchronized(float *h, int n, cudaStream_t s) {
  thrust::device_vector<float> out(n);
  thrust::fill(thrust::cuda::par_nosync.on(s), out.begin(), out.end(), 1.0f);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, thrust::raw_pointer_cast(out.data()), n * sizeof(float),
             cudaMemcpyDeviceToHost);
}

// Another vector's storage is another buffer.
void otherDeviceVector(float *h, int n, cudaStream_t s) {
  thrust::device_vector<float> out(n), other(n);
  thrust::fill(thrust::cuda::par_nosync.on(s), out.begin(), out.end(), 1.0f);
  cudaMemcpy(h, thrust::raw_pointer_cast(other.data()), n * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaStreamSynchronize(s);
}
