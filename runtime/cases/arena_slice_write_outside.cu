// Twin of arena_slice_write_inside: the host writes the first half, which the copy into the
// second half does not touch ("Copies count bytes from the memory area pointed to by src to the
// memory area pointed to by dst"), so the host's value is kept.
//
// semantics.md row: copy into h + n/2 (n/2 elements), host WRITES h[0] before the sync: the host's value is kept
// Expected on the GPU: the host's write is kept
// Expected from the check: silent
//
// Twin: arena_slice_write_inside.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h + n / 2, d + n / 2, bytes / 2, cudaMemcpyDeviceToHost, s);
  h[0] = 42.0f; // access: write
  cudaStreamSynchronize(s);
  rt::observe_write("write", h[0], 42.0f, 0);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
