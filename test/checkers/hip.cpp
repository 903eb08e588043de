// HIP: the runtime API's twin. Copies, syncs, non-syncs, portability
// headers that reach HIP through the CUDA names, and pageable
// destinations, which HIP documents as synchronous (silent even in
// StrictMode).
//
// RUN: %clang_tidy_cars %s -- -x cuda --cuda-host-only -nocudainc -nocudalib -isystem %inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -config='{CheckOptions: {cuda-async-read-before-sync.StrictMode: true}}' \
// RUN:   -- -x cuda --cuda-host-only -nocudainc -nocudalib -isystem %inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <hip/hip_runtime.h>
#include <stdlib.h>

void consume(float);

void memcpyAsyncNoSync(const float *d, hipStream_t s) {
  float *h;
  hipHostMalloc((void **)&h, 64, 0);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:9: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void memcpyAsyncStreamSync(const float *d, hipStream_t s) {
  float *h;
  hipHostMalloc((void **)&h, 64, 0);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipStreamSynchronize(s);
  consume(h[0]);
}

void dtohAsyncOtherStream(float *h, hipDeviceptr_t d, hipStream_t s,
                          hipStream_t other) {
  (void)hipMemcpyDtoHAsync(h, d, 64, s);
  (void)hipStreamSynchronize(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:9: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:9: note: this synchronizes stream 'other', not stream 's', the copy's stream
}

void deviceSynchronize(float *h, const float *d, hipStream_t s) {
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipDeviceSynchronize();
  consume(h[0]);
}

void eventAfterCopy(float *h, const float *d, hipStream_t s, hipEvent_t e) {
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipEventRecord(e, s);
  (void)hipEventSynchronize(e);
  consume(h[0]);
}

void eventBeforeCopy(float *h, const float *d, hipStream_t s, hipEvent_t e) {
  (void)hipEventRecord(e, s);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipEventSynchronize(e);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void pollQuery(float *h, const float *d, hipStream_t s) {
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  while (hipStreamQuery(s) == hipErrorNotReady) {
  }
  consume(h[0]);
}

void pollEventQuery(float *h, const float *d, hipStream_t s, hipEvent_t e) {
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipEventRecord(e, s);
  while (hipEventQuery(e) != hipSuccess) {
  }
  consume(h[0]);
}

void streamWaitEventOnly(float *h, const float *d, hipStream_t s,
                         hipStream_t other, hipEvent_t e) {
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipEventRecord(e, s);
  (void)hipStreamWaitEvent(other, e, 0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void nonBlockingThenLegacy(float *h, const float *d) {
  hipStream_t s;
  (void)hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipStreamSynchronize(0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

// hip_runtime_api.h, hipMemcpyAsync: "If host or dest are not pinned, the
// memory copy will be performed synchronously."
void pageableIsSynchronous(const float *d, hipStream_t s) {
  float *h = (float *)malloc(64);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  consume(h[0]);
  free(h);
}

//===--- CUDA names mapped to HIP by a portability header ------------------===//

#define cudaMemcpyAsync hipMemcpyAsync
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaStream_t hipStream_t

void portedCudaNoSync(float *h, const float *d, cudaStream_t s) {
  (void)cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void portedCudaSync(float *h, const float *d, cudaStream_t s) {
  (void)cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  (void)cudaStreamSynchronize(s);
  consume(h[0]);
}

// hipMemcpyWithStream returns once the copy on that stream has completed.
void memcpyWithStreamSyncsItsStream(float *h, float *h2, const float *d,
                                    hipStream_t s) {
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipMemcpyWithStream(h2, d, 64, hipMemcpyDeviceToHost, s);
  consume(h[0]);
}

//===--- The producer diagnostic on a handle's stream (rocBLAS's shape) ---===//

__global__ void hipFill(float *d) { d[threadIdx.x] = 1.0f; }
struct rocHandle {
  hipStream_t stream;
};
void rocGetStream(rocHandle *h, hipStream_t *s);

void handleStreamThenBlockingHipMemcpy(rocHandle *handle, float *h, float *d) {
  hipStream_t stream;
  rocGetStream(handle, &stream);
  hipLaunchKernelGGL(hipFill, dim3(1), dim3(64), 0, stream, d);
  (void)hipMemcpy(h, d, 64, hipMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:9: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream '(stream)' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream '(stream)' here
  // CHECK: :[[@LINE-3]]:9: note: nothing makes the legacy default stream wait for the write: use hipEventRecord + hipStreamWaitEvent{{$}}
  // CHECK: :[[@LINE-4]]:9: note: stream '(stream)' is not created in this function: not a race if it is the legacy default stream or a blocking one
}

// The fix: the copy on the handle's stream, then its sync.
void handleStreamCopyOnIt(rocHandle *handle, float *h, float *d) {
  hipStream_t stream;
  rocGetStream(handle, &stream);
  hipLaunchKernelGGL(hipFill, dim3(1), dim3(64), 0, stream, d);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, stream);
  (void)hipStreamSynchronize(stream);
}

//===--- Graphs: a captured copy runs at each launch (graphs.cu) ----------===//

typedef struct ihipGraph *hipGraph_t;
typedef struct hipGraphExec *hipGraphExec_t;
extern "C" hipError_t hipStreamBeginCapture(hipStream_t, int);
extern "C" hipError_t hipStreamEndCapture(hipStream_t, hipGraph_t *);
extern "C" hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *, hipGraph_t,
                                                   unsigned long long);
extern "C" hipError_t hipGraphLaunch(hipGraphExec_t, hipStream_t);

void hipGraphReadAfterLaunch(const float *d, hipStream_t s) {
  float *h;
  hipHostMalloc((void **)&h, 64, 0);
  hipGraph_t graph;
  hipGraphExec_t exec;
  (void)hipStreamBeginCapture(s, 0);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, s);
  (void)hipStreamEndCapture(s, &graph);
  consume(h[0]); // captured, not launched yet
  (void)hipGraphInstantiateWithFlags(&exec, graph, 0);
  (void)hipGraphLaunch(exec, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  (void)hipStreamSynchronize(s);
  consume(h[0]);
}

// hipDeviceSynchronize waits for the current device's work only, as
// cudaDeviceSynchronize does (current-device.cu).
void hipSyncOtherDevice(float *h, const float *d) {
  hipHostMalloc((void **)&h, 64, 0);
  (void)hipSetDevice(0);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, 0);
  (void)hipSetDevice(1);
  (void)hipDeviceSynchronize();
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:9: note: 'hipDeviceSynchronize' waits only for the current device's work: device 1; the copy was issued while device 0 was current
}

void hipSyncSameDevice(float *h, const float *d) {
  hipHostMalloc((void **)&h, 64, 0);
  (void)hipSetDevice(1);
  (void)hipMemcpyAsync(h, d, 64, hipMemcpyDeviceToHost, 0);
  (void)hipDeviceSynchronize();
  consume(h[0]);
}
