// The device-to-host programs of CuSan's labelled suite (ahueck/cusan,
// test/runtime/) whose race is the producer diagnostic's, written anew:
// a kernel on one stream writes a device buffer, the copy of that buffer to
// the host is issued on another stream, and the host reads it only after
// synchronizing the copy's stream. Each program's fixed form (CuSan's
// -DCUSAN_SYNC build, here -DFIXED) puts between kernel and copy what CuSan
// counts as ordering them, and must be silent.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 -DFIXED \
// RUN:   | FileCheck %s --check-prefix=FIXED --allow-empty --implicit-check-not='warning:'
// FIXED-NOT: warning:

#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void writeDelayed(int *arr, int n) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid < n)
    arr[tid] = tid + 1;
}
__global__ void readOnly(float *res, const float *in, int n) {
  int tid = threadIdx.x;
  if (tid < n)
    res[tid] = in[tid];
}
__global__ void writeFloats(float *arr, int n) {
  int tid = threadIdx.x;
  if (tid < n)
    arr[tid] = tid;
}
int report(const int *h, int n);

// 16_cuda_hostalloc_implicit_sync: the fix is an allocation in between
// (the Programming Guide's "Implicit Synchronization").
int hostAllocImplicitSync() {
  const int n = 256;
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  int *d, *h;
  cudaMalloc(&d, n * sizeof(int));
  cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocDefault);
  cudaMemset(d, 0, n * sizeof(int));
  cudaDeviceSynchronize();
  writeDelayed<<<1, n, 0, s1>>>(d, n);
#ifdef FIXED
  int *m;
  cudaMallocManaged(&m, sizeof(int));
#endif
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDefault, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-7]]:3: note: 'd' is written on stream 's1' here
  cudaStreamSynchronize(s2);
  return report(h, n);
}

// 19_cuda_cudaMemcpyAsyncH2H_implicit_sync: a blocking host-to-host
// cudaMemcpy synchronizes the legacy default stream, which waits for
// blocking streams. The destination is pageable: the copy still reads d.
int h2hImplicitSync() {
  const int n = 256;
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  int *h = (int *)malloc(n * sizeof(int));
  int *a = (int *)malloc(sizeof(int)), *b = (int *)malloc(sizeof(int));
  cudaMemset(d, 0, n * sizeof(int));
  cudaDeviceSynchronize();
  writeDelayed<<<1, n, 0, s1>>>(d, n);
#ifdef FIXED
  cudaMemcpy(a, b, sizeof(int), cudaMemcpyHostToHost);
#endif
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDefault, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-6]]:3: note: 'd' is written on stream 's1' here
  cudaStreamSynchronize(s2);
  return report(h, n);
}

// 19_cuda_cudaMemcpyAsyncH2H_implicit_sync_nonblocking: with non-blocking
// streams the blocking cudaMemcpy orders nothing; the fix synchronizes s1.
int h2hNonBlocking() {
  const int n = 256;
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  int *h = (int *)malloc(n * sizeof(int));
  int *a = (int *)malloc(sizeof(int)), *b = (int *)malloc(sizeof(int));
  cudaMemset(d, 0, n * sizeof(int));
  cudaDeviceSynchronize();
  writeDelayed<<<1, n, 0, s1>>>(d, n);
  cudaMemcpy(a, b, sizeof(int), cudaMemcpyHostToHost);
#ifdef FIXED
  cudaStreamSynchronize(s1);
#endif
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDefault, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-7]]:3: note: 'd' is written on stream 's1' here
  cudaStreamSynchronize(s2);
  return report(h, n);
}

// 27_cuda_memcpy2d_implicit_syn: a 2D copy; the fix is a blocking 2D copy
// to the host in between.
int memcpy2dImplicitSync() {
  const int w = 64, rows = 4;
  size_t pitch;
  int *d;
  cudaMallocPitch(&d, &pitch, w * sizeof(int), rows);
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  int *h, *dummy;
  cudaMallocHost(&h, w * rows * sizeof(int));
  cudaMallocHost(&dummy, w * rows * sizeof(int));
  cudaMemset2D(d, pitch, 0, w * sizeof(int), rows);
  cudaDeviceSynchronize();
  writeDelayed<<<rows, w, 0, s1>>>(d, w * rows);
#ifdef FIXED
  cudaMemcpy2D(dummy, w * sizeof(int), d, pitch, w * sizeof(int), rows,
               cudaMemcpyDeviceToHost);
#endif
  cudaMemcpy2DAsync(h, w * sizeof(int), d, pitch, w * sizeof(int), rows,
                    cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-2]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-8]]:3: note: 'd' is written on stream 's1' here
  cudaStreamSynchronize(s2);
  return report(h, w * rows);
}

// 28_cuda_memset2d_implicit_syn: the fix is a cudaMemset2D of another
// buffer, work on the legacy default stream between two blocking streams
// (s2 is created with a priority and the default, blocking, flags).
int memset2dImplicitSync() {
  const int w = 64, rows = 4;
  size_t pitch, dummyPitch;
  int *d, *dummy;
  cudaMallocPitch(&d, &pitch, w * sizeof(int), rows);
  cudaMallocPitch(&dummy, &dummyPitch, w * sizeof(int), rows);
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithPriority(&s2, cudaStreamDefault, -1);
  int *h;
  cudaMallocHost(&h, w * rows * sizeof(int));
  cudaMemset2D(d, pitch, 0, w * sizeof(int), rows);
  cudaDeviceSynchronize();
  writeDelayed<<<rows, w, 0, s1>>>(d, w * rows);
#ifdef FIXED
  cudaMemset2D(dummy, dummyPitch, 0, w * sizeof(int), rows);
#endif
  cudaMemcpy2DAsync(h, w * sizeof(int), d, pitch, w * sizeof(int), rows,
                    cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-2]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-7]]:3: note: 'd' is written on stream 's1' here
  cudaStreamSynchronize(s2);
  return report(h, w * rows);
}

// 32_tsan_async_copy: the plain form; the fix synchronizes s1.
int asyncCopy() {
  const int n = 256;
  cudaEvent_t unused;
  cudaEventCreate(&unused);
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  int *d, *h;
  cudaMalloc(&d, n * sizeof(int));
  cudaMallocHost(&h, n * sizeof(int));
  writeDelayed<<<1, n, 0, s1>>>(d, n);
#ifdef FIXED
  cudaStreamSynchronize(s1);
#endif
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-6]]:3: note: 'd' is written on stream 's1' here
  cudaStreamSynchronize(s2);
  return report(h, n);
}

// 33_tsan_wait_event: CuSan's race here is between the two kernels (the
// reader on s2 does not wait for the writer on s1 unless -DCUSAN_SYNC adds
// cudaStreamWaitEvent). The copy to the host is a blocking cudaMemcpy on
// the legacy default stream, which waits for the blocking stream s1: the
// copy itself is ordered, in both forms, and the check is silent.
int waitEventLegacyCopy() {
  const int n = 256;
  float *d, *res, *h;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&res, n * sizeof(float));
  cudaMallocHost(&h, n * sizeof(float));
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t e;
  cudaEventCreate(&e);
  writeFloats<<<1, n, 0, s1>>>(d, n);
  cudaEventRecord(e, s1);
#ifdef FIXED
  cudaStreamWaitEvent(s2, e, 0);
#endif
  readOnly<<<1, n, 0, s2>>>(res, d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaStreamSynchronize(s2);
  return (int)h[0];
}

// The same program with non-blocking streams: the legacy default stream no
// longer waits for s1, and the blocking copy may read d before the write.
int waitEventLegacyCopyNonBlocking() {
  const int n = 256;
  float *d, *res, *h;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&res, n * sizeof(float));
  cudaMallocHost(&h, n * sizeof(float));
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t e;
  cudaEventCreate(&e);
  writeFloats<<<1, n, 0, s1>>>(d, n);
  cudaEventRecord(e, s1);
#ifdef FIXED
  cudaStreamSynchronize(s1);
#endif
  readOnly<<<1, n, 0, s2>>>(res, d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-8]]:3: note: 'd' is written on stream 's1' here
  cudaStreamSynchronize(s2);
  return (int)h[0];
}
