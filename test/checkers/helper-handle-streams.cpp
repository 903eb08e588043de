// A helper that reads the stream its handle parameter holds with the
// library's getter (`hipblasGetStream(handle, &s)`, rocBLAS's
// `rocblas_get_stream`: the shape of rocSOLVER's templates) and launches
// work on it that writes a buffer parameter: at its call, device work on the
// stream the handle argument holds there (HelperSummary::Production::
// OnHandleStream). A handle the caller created and gave no stream holds the
// NULL stream (the legacy default stream); one it gave a stream holds that
// stream; one it is handed holds a stream it may name otherwise, so any
// sync of a stream the caller is handed orders the work, and a blocking
// copy on the legacy default stream is claimed unless that stream is
// blocking.
//
// RUN: %clang_tidy_cars %s -- -x cuda --cuda-host-only -nocudainc -nocudalib -isystem %inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

__global__ void fill(int *p);

template <typename T> void produce(hipblasHandle_t handle, T *d) {
  hipStream_t stream;
  hipblasGetStream(handle, &stream);
  fill<<<1, 1, 0, stream>>>(d);
}

// The caller is handed the handle: its stream may be non-blocking.
void handedHandle(hipblasHandle_t handle, int *d, int *h) {
  produce(handle, d);
  hipMemcpy(h, d, 4, hipMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'hipblasGetStream(handle)' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 'hipblasGetStream(handle)' here
}
// The caller synchronizes the handle's stream, read by the getter too.
void handedHandleSynced(hipblasHandle_t handle, int *d, int *h) {
  hipStream_t stream;
  hipblasGetStream(handle, &stream);
  produce(handle, d);
  hipStreamSynchronize(stream);
  hipMemcpy(h, d, 4, hipMemcpyDeviceToHost);
}
// A stream the caller is handed may be the one the handle holds.
void handedStreamSynced(hipblasHandle_t handle, hipStream_t s, int *d,
                        int *h) {
  produce(handle, d);
  hipStreamSynchronize(s);
  hipMemcpy(h, d, 4, hipMemcpyDeviceToHost);
}
// The copy on the handle's stream.
void copiedOnHandleStream(hipblasHandle_t handle, int *d, int *h) {
  hipStream_t stream;
  hipblasGetStream(handle, &stream);
  produce(handle, d);
  hipMemcpyAsync(h, d, 4, hipMemcpyDeviceToHost, stream);
  hipStreamSynchronize(stream);
}
// Created here with no stream given: the NULL stream's work, which the
// blocking copy follows.
void createdHandle(int *d, int *h) {
  hipblasHandle_t handle;
  hipblasCreate(&handle);
  produce(handle, d);
  hipMemcpy(h, d, 4, hipMemcpyDeviceToHost);
  hipblasDestroy(handle);
}
// Given a non-blocking stream here: the work is on that stream.
void createdHandleOnStream(int *d, int *h) {
  hipStream_t s1;
  hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
  hipblasHandle_t handle;
  hipblasCreate(&handle);
  hipblasSetStream(handle, s1);
  produce(handle, d);
  hipMemcpy(h, d, 4, hipMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 's1' has finished
  hipStreamSynchronize(s1);
  hipMemcpy(h, d, 4, hipMemcpyDeviceToHost);
  hipblasDestroy(handle);
}
