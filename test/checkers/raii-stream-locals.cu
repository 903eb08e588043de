// Local objects of a stream class of the project's (`CudaStream compute,
// io;` whose constructor creates its member non-blocking): each object
// built here by a constructor other than a copy or move, and used only
// through its members and member functions, holds its own stream, so work
// on `compute` and a copy on `io` (by the conversion or by `get()`) are on
// two created streams (the sixth adversarial round's 36, a miss). A copy
// of another object may share its stream: no claim.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <utility>

__global__ void fill(float *d, int n);

class CudaStream {
public:
  CudaStream() { cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }
  CudaStream(CudaStream &&o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  CudaStream(const CudaStream &) = delete;
  ~CudaStream() {
    if (s_)
      cudaStreamDestroy(s_);
  }
  cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }

private:
  cudaStream_t s_ = nullptr;
};

void twoByGet(float *d, float *h) {
  CudaStream compute, io;
  fill<<<1, 64, 0, compute.get()>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io.get());
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'io.get()' may read it before the work that writes it on stream 'compute.get()' has finished
  cudaStreamSynchronize(io.get());
}
void twoByConversion(float *d, float *h) {
  CudaStream compute, io;
  fill<<<1, 64, 0, compute>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'io' may read it before the work that writes it on stream 'compute' has finished
  cudaStreamSynchronize(io);
}
void blockingCopyAfter(float *d, float *h) {
  CudaStream compute;
  fill<<<1, 64, 0, compute.get()>>>(d, 16);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'd' on the legacy default stream may read it before the work that writes it on stream 'compute.get()' has finished
}
void ordered(float *d, float *h) {
  CudaStream compute, io;
  cudaEvent_t e;
  cudaEventCreate(&e);
  fill<<<1, 64, 0, compute.get()>>>(d, 16);
  cudaEventRecord(e, compute.get());
  cudaStreamWaitEvent(io.get(), e, 0);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, io.get());
  cudaStreamSynchronize(io.get());
}
void sameObject(float *d, float *h) {
  CudaStream compute;
  fill<<<1, 64, 0, compute.get()>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, compute);
  cudaStreamSynchronize(compute);
}
// Moved from another object: may be that object's stream.
void moved(float *d, float *h) {
  CudaStream a;
  fill<<<1, 64, 0, a.get()>>>(d, 16);
  CudaStream b(std::move(a));
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, b.get());
  cudaStreamSynchronize(b.get());
}
// A copyable class: a copy shares the stream.
class SharedStream {
public:
  SharedStream() { cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }
  SharedStream(const SharedStream &o) : s_(o.s_) {}
  void adopt(const SharedStream &o) { s_ = o.s_; }
  cudaStream_t get() const { return s_; }

private:
  cudaStream_t s_;
};
void copied(float *d, float *h) {
  SharedStream a;
  SharedStream b = a;
  fill<<<1, 64, 0, a.get()>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, b.get());
  cudaStreamSynchronize(b.get());
}
void adopted(float *d, float *h) {
  SharedStream a, b;
  b.adopt(a);
  fill<<<1, 64, 0, a.get()>>>(d, 16);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, b.get());
  cudaStreamSynchronize(b.get());
}
