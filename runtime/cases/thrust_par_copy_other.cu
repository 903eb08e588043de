// The twin: the same algorithm with the par policy, after which thrust synchronizes the
// policy's stream before returning (the algorithm's "optional synchronization", which par_nosync
// skips), so the copy on the other stream reads the algorithm's result.
//
// semantics.md row: thrust::copy(thrust::cuda::par.on(s1), ...) writing d after a kernel on s1, then cudaMemcpyAsync D2H of d on another created stream s2 and cudaStreamSynchronize(s2)
// Expected on the GPU: the access reads fresh data
// Expected from the check: silent (a thrust algorithm with the par policy synchronizes its stream)
//
// Twin: thrust_nosync_copy_other.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  float *src, *d, *h;
  cudaMalloc(&src, bytes);
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // d holds the sentinel
  rt::produce(src, n, s1);
  thrust::copy(thrust::cuda::par.on(s1), src, src + n, d);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  cudaStreamSynchronize(s2);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
  cudaFree(d);
  cudaFree(src);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

RT_MAIN()
