// A copy captured into a graph runs when the graph is launched; a sync of the launch stream covers it.
//
// semantics.md row: cudaStreamSynchronize(s) (extension: the copy runs from a captured graph launched on s)
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: capture_copy_not_run.cu
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
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  float v = h[0]; // access: read
  rt::observe("read", v);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

RT_MAIN()
