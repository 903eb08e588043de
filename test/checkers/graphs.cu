// CUDA graphs: a device-to-host copy captured into a graph is not run at
// the capture (semantics.cu) but at each launch of the graph, on the
// launch's stream (runtime/cases/capture_launch_read: stale;
// capture_launch_synced: fresh). A graph launch and an instantiation
// return at once: neither synchronizes a copy already in flight
// (graph_launch_not_sync, graph_instantiate_not_sync: stale).
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdlib.h>

void consume(float);

static float *pinned(size_t n) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  return h;
}

//===--- The captured copy runs at the launch -----------------------------===//

void readAfterLaunch(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  consume(h[0]); // captured, not launched yet: not in flight
  cudaGraphLaunch(exec, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:3: note: this call leaves an asynchronous device-to-host copy into 'h' in flight on stream 's'
  // CHECK: :[[@LINE-8]]:3: note: the copy is issued here
}

void launchThenSync(const float *d, cudaStream_t s) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

// The copy runs on the launch's stream, not on the captured one.
void launchOnAnotherStream(const float *d, cudaStream_t s, cudaStream_t t) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiateWithFlags(&exec, graph, 0);
  cudaGraphLaunch(exec, t);
  cudaStreamSynchronize(s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

void launchOnAnotherStreamSynced(const float *d, cudaStream_t s,
                                 cudaStream_t t) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiateWithFlags(&exec, graph, 0);
  cudaGraphLaunch(exec, t);
  cudaStreamSynchronize(t);
  consume(h[0]);
}

// Each launch runs the copy again.
void launchEachIteration(const float *d, cudaStream_t s, int n) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  for (int i = 0; i < n; ++i) {
    cudaGraphLaunch(exec, s);
    consume(h[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before
  }
}

void launchEachIterationSynced(const float *d, cudaStream_t s, int n) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  for (int i = 0; i < n; ++i) {
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    consume(h[0]);
  }
}

//===--- Launches of other graphs: not followed ---------------------------===//

// The executable graph was instantiated from another graph.
void launchOfAnotherGraph(const float *d, cudaStream_t s, cudaGraph_t other) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, other, 0);
  cudaGraphLaunch(exec, s);
  consume(h[0]);
}

// Instantiated from the capture, then again from another graph.
void reinstantiated(const float *d, cudaStream_t s, cudaGraph_t other) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphInstantiate(&exec, other, 0);
  cudaGraphLaunch(exec, s);
  consume(h[0]);
}

// An executable graph the caller built: what it holds is not known.
void launchOfParameter(float *h, cudaGraphExec_t exec, cudaStream_t s) {
  cudaGraphLaunch(exec, s);
  consume(h[0]);
}

// An event recorded during the capture is a node of the graph, and a wait
// for it after the launch may cover the copy: not followed.
void captureRecordsAnEvent(const float *d, cudaStream_t s, cudaEvent_t e) {
  float *h = pinned(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  cudaEventSynchronize(e);
  consume(h[0]);
}

// Pageable destinations: a claim only under StrictMode, as for any copy.
void pageableCaptured(const float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  consume(h[0]);
}

//===--- A launch or an instantiation is no synchronization ---------------===//

void copyThenLaunchAnotherGraph(float *h, const float *d, cudaStream_t s,
                                cudaGraphExec_t exec) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaGraphLaunch(exec, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

void copyThenInstantiate(float *h, const float *d, cudaStream_t s,
                         cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaGraphInstantiate(&exec, g, 0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
}

//===--- The driver API ---------------------------------------------------===//

typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
extern "C" CUresult cuStreamBeginCapture(CUstream, int);
extern "C" CUresult cuStreamEndCapture(CUstream, CUgraph *);
extern "C" CUresult cuGraphInstantiateWithFlags(CUgraphExec *, CUgraph,
                                                unsigned long long);
extern "C" CUresult cuGraphLaunch(CUgraphExec, CUstream);

void driverReadAfterLaunch(CUdeviceptr d, CUstream s) {
  float *h = pinned(64);
  CUgraph graph;
  CUgraphExec exec;
  cuStreamBeginCapture(s, 0);
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuStreamEndCapture(s, &graph);
  cuGraphInstantiateWithFlags(&exec, graph, 0);
  cuGraphLaunch(exec, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
  cuStreamSynchronize(s);
  consume(h[0]);
}
