// A copy issued on a stream while it is being captured into a graph is recorded, not run: the host sees the data from before.
//
// semantics.md row: cudaStreamSynchronize(s) (extension: the copy was issued while s was being captured)
// Expected on the GPU: the access reads the sentinel every time: the copy never runs (the graph is not launched)
// Expected from the check: silent: no copy is in flight, so nothing races with the read
// rt-not-modelled: the sentinel is deterministic here, not stale data from a race: the copy is only recorded into the graph (CUDA Programming Guide, "Stream Capture"), which is all the check's silence claims
//
// Twin: capture_launch_synced.cu
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
  cudaStreamSynchronize(s);
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaGraphDestroy(graph);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
