// A cuBLAS handle whose stream was never set runs its routines on the default (NULL) stream
// ("If the cuBLAS library stream is not set, all kernels use the default NULL stream"); a copy of
// the result on a non-blocking stream does not wait for the legacy default stream.
//
// semantics.md row: cublasScopy on a handle with no stream set, writing y after a kernel on stream 0; cudaMemcpyAsync D2H of y on a non-blocking stream s2, cudaStreamSynchronize(s2)
// Expected on the GPU: the access reads stale data (the sentinel y held before the routine)
// Expected from the check: warns at the copy (the producer diagnostic: cublasScopy writes y on the legacy default stream)
//
// Twin: cublas_set_stream_copy_same.cu (the stream set, the copy on it)
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <cublas_v2.h>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cublasHandle_t handle;
  cublasCreate(&handle);
  float *x, *y, *h;
  cudaMalloc(&x, bytes);
  cudaMalloc(&y, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(y, h, bytes, cudaMemcpyHostToDevice); // y holds the sentinel
  rt::produce(x, n, 0);
  cublasScopy(handle, (int)n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'y' on stream 's2' may read it before the work that writes it on the legacy default stream has finished
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cublasDestroy(handle);
  cudaFreeHost(h);
  cudaFree(y);
  cudaFree(x);
  cudaStreamDestroy(s2);
}

RT_MAIN()
