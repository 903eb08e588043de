// Launching a graph (here one that clears a scratch buffer on another stream) does not wait for a copy already in flight: the read after the launch races with the copy.
//
// semantics.md row: pinned dst (cudaMallocHost), read right after the copy (extension: a cudaGraphLaunch between the copy and the read)
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: capture_launch_synced.cu
//
// REQUIRES: cuda-toolkit
// RUN: %clang_tidy_cars %s -- %cuda_real_flags -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt.h"

static void scenario() {
  const size_t n = rt::kElems;
  const size_t bytes = rt::kBytes;
  cudaStream_t s, s2;
  cudaStreamCreate(&s);
  cudaStreamCreate(&s2);
  float *d, *h, *scratch;
  cudaMalloc(&d, bytes);
  cudaMalloc(&scratch, bytes);
  cudaMallocHost(&h, bytes);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(scratch, 0, bytes, s2);
  cudaStreamEndCapture(s2, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  rt::prime(h, n);
  rt::produce(d, n, s);
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaGraphLaunch(exec, s2);
  float v = h[0]; // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v);
  cudaDeviceSynchronize();
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFreeHost(h);
  cudaFree(scratch);
  cudaFree(d);
  cudaStreamDestroy(s2);
  cudaStreamDestroy(s);
}

RT_MAIN()
