// cuBLAS runs a routine on the stream last given to its handle by cublasSetStream ("cublasSetStream
// ... sets the cuBLAS library stream, which will be used to execute all subsequent calls to the
// cuBLAS library functions"). cublasScopy on s1 writes y; a copy of y on another stream does not
// wait for it.
//
// semantics.md row: cublasSetStream(handle, s1); cublasScopy writing y after a kernel on s1; cudaMemcpyAsync D2H of y on another created stream s2, cudaStreamSynchronize(s2)
// Expected on the GPU: the access reads stale data (the sentinel y held before the routine)
// Expected from the check: warns at the copy (the producer diagnostic: cublasScopy writes y on s1)
//
// Twin: cublas_set_stream_copy_same.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <cublas_v2.h>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, s1);
  float *x, *y, *h;
  cudaMalloc(&x, bytes);
  cudaMalloc(&y, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(y, h, bytes, cudaMemcpyHostToDevice); // y holds the sentinel
  rt::produce(x, n, s1);
  cublasScopy(handle, (int)n, x, 1, y, 1);
  cudaMemcpyAsync(h, y, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'y' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cublasDestroy(handle);
  cudaFreeHost(h);
  cudaFree(y);
  cudaFree(x);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
