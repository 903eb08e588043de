// The CUDA driver API: cuMemcpyDtoHAsync and friends, its syncs and
// non-syncs, its macro renaming (cuMemcpyDtoHAsync -> _v2 -> _v2_ptsz), and
// code mixing it with the runtime API on one stream through a cast.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --check-prefixes=CHECK,LEGACY --implicit-check-not='warning:'
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -DCUDA_API_PER_THREAD_DEFAULT_STREAM \
// RUN:   | FileCheck %s --check-prefixes=CHECK,PTDS --implicit-check-not='warning:'

#include <cuda.h>
#include <cuda_runtime.h>

void consume(float);

//===--- Copies ------------------------------------------------------------===//

void dtohAsyncNoSync(float *h, CUdeviceptr d, CUstream s) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void dtohAsyncStreamSync(float *h, CUdeviceptr d, CUstream s) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuStreamSynchronize(s);
  consume(h[0]);
}

void dtohAsyncOtherStreamSync(float *h, CUdeviceptr d, CUstream s,
                              CUstream other) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuStreamSynchronize(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: this synchronizes stream 'other', not stream 's', the copy's stream
}

void unifiedCopyIntoPinned(CUdeviceptr d, CUstream s) {
  float *h;
  cuMemAllocHost((void **)&h, 64);
  cuMemcpyAsync((CUdeviceptr)h, d, 64, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void unifiedCopyIntoDevice(CUdeviceptr src, CUstream s) {
  CUdeviceptr dd;
  cuMemAlloc(&dd, 64);
  cuMemcpyAsync(dd, src, 64, s);
}

void memcpy2DAsyncToHost(float *h, CUdeviceptr d, CUstream s) {
  CUDA_MEMCPY2D p = {};
  p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  p.srcDevice = d;
  p.dstMemoryType = CU_MEMORYTYPE_HOST;
  p.dstHost = h;
  p.WidthInBytes = 64;
  p.Height = 4;
  cuMemcpy2DAsync(&p, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void memcpy2DAsyncToDevice(float *h, CUdeviceptr d, CUstream s) {
  CUDA_MEMCPY2D p = {};
  p.srcMemoryType = CU_MEMORYTYPE_HOST;
  p.srcHost = h;
  p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  p.dstDevice = d;
  cuMemcpy2DAsync(&p, s);
  consume(h[0]);
}

//===--- Syncs and non-syncs -----------------------------------------------===//

void ctxSynchronize(float *h, CUdeviceptr d, CUstream s) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuCtxSynchronize();
  consume(h[0]);
}

void eventRecordedAfter(float *h, CUdeviceptr d, CUstream s, CUevent e) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuEventRecord(e, s);
  cuEventSynchronize(e);
  consume(h[0]);
}

void eventRecordedBefore(float *h, CUdeviceptr d, CUstream s, CUevent e) {
  cuEventRecord(e, s);
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuEventSynchronize(e);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-6]]:3: note: event 'e' was recorded before the copy
}

void pollStreamQuery(float *h, CUdeviceptr d, CUstream s) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  while (cuStreamQuery(s) == CUDA_ERROR_NOT_READY) {
  }
  consume(h[0]);
}

void pollEventQuery(float *h, CUdeviceptr d, CUstream s, CUevent e) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuEventRecord(e, s);
  while (cuEventQuery(e) != CUDA_SUCCESS) {
  }
  consume(h[0]);
}

void streamWaitEventOnly(float *h, CUdeviceptr d, CUstream s, CUstream other,
                         CUevent e) {
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuEventRecord(e, s);
  cuStreamWaitEvent(other, e, 0);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-5]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: 'cuStreamWaitEvent{{(_ptsz)?}}' makes a stream wait on the device; it does not block the host
}

void nonBlockingStreamThenLegacySync(float *h, CUdeviceptr d) {
  CUstream s;
  cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuStreamSynchronize(CU_STREAM_LEGACY);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // CHECK: :[[@LINE-4]]:3: note: asynchronous device-to-host copy
  // CHECK: :[[@LINE-4]]:3: note: synchronizing the legacy default stream does not wait for stream 's', which was created non-blocking
}

void blockingStreamThenLegacySync(float *h, CUdeviceptr d) {
  CUstream s;
  cuStreamCreate(&s, CU_STREAM_DEFAULT);
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuStreamSynchronize(CU_STREAM_LEGACY);
  consume(h[0]);
}

void blockingDtoHOfAnotherBuffer(float *h, float *h2, CUdeviceptr d) {
  CUstream s;
  cuStreamCreate(&s, CU_STREAM_DEFAULT);
  cuMemcpyDtoHAsync(h, d, 64, s);
  cuMemcpyDtoH(h2, d, 64);
  consume(h[0]);
  // PTDS: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void copyOnDefaultStream(float *h, CUdeviceptr d) {
  cuMemcpyDtoHAsync(h, d, 64, 0);
  consume(h[0]);
  // LEGACY: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
  // LEGACY: :[[@LINE-3]]:3: note: asynchronous device-to-host copy into 'h' on the legacy default stream is issued here
  // PTDS: :[[@LINE-3]]:11: warning: 'h' is read before the asynchronous
  // PTDS: :[[@LINE-5]]:3: note: asynchronous device-to-host copy into 'h' on the per-thread default stream is issued here
}

//===--- Mixed runtime and driver code: one stream through a cast -----------===//

void driverCopyRuntimeSync(float *h, CUdeviceptr d, cudaStream_t rs) {
  CUstream s = (CUstream)rs;
  cuMemcpyDtoHAsync(h, d, 64, (CUstream)rs);
  cudaStreamSynchronize(rs);
  consume(h[0]);
}

void runtimeCopyDriverSync(float *h, const float *d, CUstream s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, (cudaStream_t)s);
  cuStreamSynchronize(s);
  consume(h[0]);
}

void runtimeCopyDriverSyncOfAnother(float *h, const float *d, CUstream s,
                                    CUstream other) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, (cudaStream_t)s);
  cuStreamSynchronize(other);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

//===--- Blocking struct copies, device addresses --------------------------===//

void blockingMemcpy2DSyncs(float *h, float *h2, CUdeviceptr d) {
  CUstream s;
  cuStreamCreate(&s, CU_STREAM_DEFAULT);
  cuMemcpyDtoHAsync(h, d, 64, s);
  CUDA_MEMCPY2D c = {};
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = d;
  c.dstMemoryType = CU_MEMORYTYPE_HOST;
  c.dstHost = h2;
  cuMemcpy2D(&c);
  consume(h[0]);
  // PTDS: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous
}

void logAddress(CUdeviceptr);
// cuMemcpyAsync between two CUdeviceptr values is device-to-device.
void unifiedCopyBetweenDeviceAddresses(CUdeviceptr dst, CUdeviceptr src,
                                       CUstream s) {
  cuMemcpyAsync(dst, src, 64, s);
  logAddress(dst);
}

//===--- The producer diagnostic: its note in the driver API ---------------===//

__global__ void fillKernel(float *d, int n);

void driverCopyNotOrderedAfterKernel(float *h, float *d) {
  CUstream s1, s2;
  cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
  cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
  cuMemAllocHost((void **)&h, 64);
  fillKernel<<<1, 64, 0, s1>>>(d, 16);
  cuMemcpyDtoHAsync(h, (CUdeviceptr)d, 64, s2);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 's2' may read it before the work that writes it on stream 's1' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 's1' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 's2' wait for the write: use cuEventRecord + cuStreamWaitEvent{{$}}
  cuStreamSynchronize(s2);
  consume(h[0]);
}
