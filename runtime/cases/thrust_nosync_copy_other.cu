// A thrust algorithm run with the par_nosync policy on stream s1 writes d; a copy of d on
// another stream does not wait for it. par_nosync tells thrust to skip the synchronization
// that the par policy does after an algorithm (Thrust: "thrust::cuda::par_nosync ...
// synchronization is not required"), so the algorithm is device work on s1 only.
//
// semantics.md row: thrust::copy(thrust::cuda::par_nosync.on(s1), ...) writing d after a kernel on s1, then cudaMemcpyAsync D2H of d on another created stream s2 and cudaStreamSynchronize(s2)
// Expected on the GPU: the access reads stale data (the sentinel d held before the algorithm)
// Expected from the check: warns at the copy (the producer diagnostic)
//
// Twin: thrust_par_copy_other.cu
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
  thrust::copy(thrust::cuda::par_nosync.on(s1), src, src + n, d);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s2); // copy: read
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
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
