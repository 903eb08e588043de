// The twin: the copy on the stream the handle was set to, behind the routine.
//
// semantics.md row: cublasSetStream(handle, s1); cublasScopy writing y after a kernel on s1; cudaMemcpyAsync D2H of y on s1, cudaStreamSynchronize(s1)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent
//
// Twin: cublas_set_stream_copy_other.cu
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
  cudaMemcpyAsync(h, y, bytes, cudaMemcpyDeviceToHost, s1); // copy: read
  cudaStreamSynchronize(s1);
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
