// cudaDeviceSynchronize waits for the current device's work only (CUDA
// Runtime API: "Blocks until the device has completed all preceding
// requested tasks"; cudaSetDevice "Sets device as the current device for
// the calling host thread"). A copy issued while another device was current
// is not waited for (runtime/pending/device_sync_other_device.cu and its
// twin device_sync_each_device.cu, which wait for a machine of two GPUs).
// The check claims it only where this function's own cudaSetDevice calls
// say both devices in straight-line code; where anything may have changed
// the device in between, the sync covers the copy.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

void consume(const float *p, int n);
void consumeValue(float v);
void opaque();
int helperSetsNothing(int x) { return x + 1; }
void helperSetsDevice(int d) { cudaSetDevice(d); }

constexpr int N = 2;
constexpr int Chunk = 256;

//===--- A device per loop iteration, one device sync after ------------------===//

void syncAfterDeviceLoop(float **h, float **d, cudaStream_t *s) {
  for (int dev = 0; dev < N; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpyAsync(h[dev], d[dev], Chunk * 4, cudaMemcpyDeviceToHost, s[dev]);
  }
  cudaDeviceSynchronize();
  consumeValue(h[0][0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h[0]' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:3: note: 'cudaDeviceSynchronize' waits only for the current device's work: device 1; the copy was issued while any of devices 0 to 1 was current
}

// The fix: each device synchronized while it is current.
void syncEachDevice(float **h, float **d, cudaStream_t *s) {
  for (int dev = 0; dev < N; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpyAsync(h[dev], d[dev], Chunk * 4, cudaMemcpyDeviceToHost, s[dev]);
  }
  for (int dev = 0; dev < N; ++dev) {
    cudaSetDevice(dev);
    cudaDeviceSynchronize();
  }
  consumeValue(h[0][0]);
}

// A device count known only at run time: device n - 1 after the loop.
void syncAfterRuntimeDeviceLoop(float **h, float **d, cudaStream_t *s) {
  int n = 0;
  cudaGetDeviceCount(&n);
  for (int dev = 0; dev < n; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpyAsync(h[dev], d[dev], Chunk * 4, cudaMemcpyDeviceToHost, s[dev]);
  }
  cudaDeviceSynchronize();
  consumeValue(h[0][0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h[0]' is read before
  // CHECK: :[[@LINE-3]]:3: note: 'cudaDeviceSynchronize' waits only for the current device's work: device 'n' - 1; the copy was issued while any of devices 0 to 'n' - 1 was current
}

void syncEachRuntimeDevice(float **h, float **d, cudaStream_t *s) {
  int n = 0;
  cudaGetDeviceCount(&n);
  for (int dev = 0; dev < n; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpyAsync(h[dev], d[dev], Chunk * 4, cudaMemcpyDeviceToHost, s[dev]);
  }
  for (int dev = 0; dev < n; ++dev) {
    cudaSetDevice(dev);
    cudaDeviceSynchronize();
  }
  consumeValue(h[0][0]);
}

//===--- Constant devices ----------------------------------------------------===//

void syncOtherConstantDevice(float *h, const float *d) {
  cudaSetDevice(0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaSetDevice(1);
  cudaDeviceSynchronize();
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before
  // CHECK: :[[@LINE-3]]:3: note: 'cudaDeviceSynchronize' waits only for the current device's work: device 1; the copy was issued while device 0 was current
  // CHECK-NOT: note: insert
}

void syncSameConstantDevice(float *h, const float *d) {
  cudaSetDevice(1);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  helperSetsNothing(2);
  cudaDeviceSynchronize();
  consumeValue(h[0]);
}

// The device set back before the sync.
void deviceSetBack(float *h, const float *d) {
  cudaSetDevice(0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaSetDevice(1);
  opaque();
  cudaSetDevice(0);
  cudaDeviceSynchronize();
  consumeValue(h[0]);
}

//===--- Where the device is not known: no claim ------------------------------===//

// Set on one branch only, by a helper that sets it, by an opaque call, or by
// the caller.
void deviceSetOnBranch(float *h, const float *d, bool other) {
  cudaSetDevice(0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  if (other)
    cudaSetDevice(1);
  cudaDeviceSynchronize();
  consumeValue(h[0]);
}

void deviceSetByHelper(float *h, const float *d) {
  cudaSetDevice(0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  helperSetsDevice(1);
  cudaDeviceSynchronize();
  consumeValue(h[0]);
}

void deviceAfterOpaqueCall(float *h, const float *d) {
  cudaSetDevice(0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  opaque();
  cudaDeviceSynchronize();
  consumeValue(h[0]);
}

void deviceOfCaller(float *h, const float *d) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, 0);
  cudaSetDevice(1);
  cudaDeviceSynchronize();
  consumeValue(h[0]);
}

// A loop that may stop before its last device.
bool ready(int dev);
void deviceLoopBreaks(float **h, float **d, cudaStream_t *s) {
  for (int dev = 0; dev < N; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpyAsync(h[dev], d[dev], Chunk * 4, cudaMemcpyDeviceToHost, s[dev]);
    if (ready(dev))
      break;
  }
  cudaDeviceSynchronize();
  consumeValue(h[0][0]);
}
