// The producer diagnostic through helpers whose streams and buffers are not
// parameters but what the caller names too: members of the object a member
// function is called on, members of an object parameter, globals. A
// helper's summary keeps such device work (Production::NamedBuffer,
// OnNamedStream) and such copies (Consumption::NamedBuffer, NamedStream)
// by their paths, rebased to the caller's object or argument at the call.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

__global__ void fill(float *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = 1.0f;
}

// A component with its own non-blocking stream; the caller reads its
// result back with a blocking cudaMemcpy (the legacy default stream does
// not wait for a non-blocking stream).
class BlockingHistogram {
public:
  BlockingHistogram() {
    cudaStreamCreate(&stream_);
    cudaMalloc(&counts_, 64 * sizeof(float));
  }
  void run() { fill<<<1, 64, 0, stream_>>>(counts_, 64); }
  const float *deviceCounts() const { return counts_; }

private:
  cudaStream_t stream_;
  float *counts_;
};

class NonBlockingHistogram {
public:
  NonBlockingHistogram() {
    cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    cudaMalloc(&counts_, 64 * sizeof(float));
  }
  void run() { fill<<<1, 64, 0, stream_>>>(counts_, 64); }
  void wait() { cudaStreamSynchronize(stream_); }
  const float *deviceCounts() const { return counts_; }

private:
  cudaStream_t stream_;
  float *counts_;
};

void componentThenBlockingCopy(float *h) {
  NonBlockingHistogram hist;
  hist.run();
  cudaMemcpy(h, hist.deviceCounts(), 64 * sizeof(float),
             cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-2]]:3: warning: the blocking device-to-host copy of 'hist.deviceCounts()' on the legacy default stream may read it before the work that writes it on stream 'hist.stream_' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'hist.deviceCounts()' is written on stream 'hist.stream_' here
}
// A blocking stream: the legacy default stream waits for its work.
void blockingComponentThenBlockingCopy(float *h) {
  BlockingHistogram hist;
  hist.run();
  cudaMemcpy(h, hist.deviceCounts(), 64 * sizeof(float),
             cudaMemcpyDeviceToHost);
}
void componentWaitedThenBlockingCopy(float *h) {
  NonBlockingHistogram hist;
  hist.run();
  hist.wait();
  cudaMemcpy(h, hist.deviceCounts(), 64 * sizeof(float),
             cudaMemcpyDeviceToHost);
}

// A pipeline's streams in a struct handed by reference: the producer on
// one member stream, the copy on another.
struct Streams {
  cudaStream_t compute;
  cudaStream_t d2h;
};
void enqueueForward(const Streams &st, float *d, int n) {
  fill<<<1, 64, 0, st.compute>>>(d, n);
}
void enqueueDownload(const Streams &st, float *h, const float *d, int n) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, st.d2h);
}
void forwardThenDownload(float *h, float *d, cudaEvent_t e) {
  Streams st;
  cudaStreamCreate(&st.compute);
  cudaStreamCreate(&st.d2h);
  enqueueForward(st, d, 64);
  enqueueDownload(st, h, d, 64);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'd' on stream 'st.d2h' may read it before the work that writes it on stream 'st.compute' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'd' is written on stream 'st.compute' here
  cudaStreamSynchronize(st.d2h);
}
void forwardWaitedThenDownload(float *h, float *d, cudaEvent_t e) {
  Streams st;
  cudaStreamCreate(&st.compute);
  cudaStreamCreate(&st.d2h);
  enqueueForward(st, d, 64);
  cudaEventRecord(e, st.compute);
  cudaStreamWaitEvent(st.d2h, e, 0);
  enqueueDownload(st, h, d, 64);
  cudaStreamSynchronize(st.d2h);
}

// A base class's member function produces, a derived class's downloads:
// both members of the object called on.
class Engine {
public:
  Engine() {
    cudaStreamCreate(&compute_);
    cudaMalloc(&dst_, 256);
  }
  void process() { fill<<<1, 64, 0, compute_>>>(dst_, 64); }
  void finish() { cudaStreamSynchronize(compute_); }

protected:
  cudaStream_t compute_;
  float *dst_;
};
class AsyncEngine : public Engine {
public:
  AsyncEngine() {
    cudaStreamCreate(&copy_);
    cudaMallocHost(&frame_, 256);
  }
  const float *download() {
    cudaMemcpyAsync(frame_, dst_, 256, cudaMemcpyDeviceToHost, copy_);
    cudaStreamSynchronize(copy_);
    return frame_;
  }

private:
  cudaStream_t copy_;
  float *frame_;
};
float processThenDownload() {
  AsyncEngine engine;
  engine.process();
  const float *frame = engine.download();
  // CHECK: :[[@LINE-1]]:24: warning: the asynchronous device-to-host copy of 'engine.dst_' on stream 'engine.copy_' may read it before the work that writes it on stream 'engine.compute_' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'engine.dst_' is written on stream 'engine.compute_' here
  return frame[0];
}
float processFinishedThenDownload() {
  AsyncEngine engine;
  engine.process();
  engine.finish();
  const float *frame = engine.download();
  return frame[0];
}
// Two objects: the work on one does not write the other's buffer.
float otherEngineDownloads() {
  AsyncEngine a, b;
  a.process();
  const float *frame = b.download();
  a.finish();
  return frame[0];
}

// A member or global stream the caller gives a value before the call (a
// setter, an assignment) may be any stream: not told apart from the copy's.
class SettableHistogram {
public:
  SettableHistogram() { cudaMalloc(&counts_, 64 * sizeof(float)); }
  void setStream(cudaStream_t s) { stream_ = s; }
  void run() { fill<<<1, 64, 0, stream_>>>(counts_, 64); }
  const float *deviceCounts() const { return counts_; }

private:
  cudaStream_t stream_ = nullptr;
  float *counts_;
};
void setterThenSameStream(float *h) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  SettableHistogram hg;
  hg.setStream(s);
  hg.run();
  cudaMemcpyAsync(h, hg.deviceCounts(), 64 * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}
cudaStream_t gStream;
float *gBuf;
void produceOnGlobal() { fill<<<1, 64, 0, gStream>>>(gBuf, 64); }
void globalGivenTheCopysStream(float *h) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  gStream = s;
  produceOnGlobal();
  cudaMemcpyAsync(h, gBuf, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

// A buffer class whose data accessor returns its pointer member: `b.data()`
// names that member, as the class's own copy names `this->data_` (`b.data_`
// at the call): ceres's CudaBuffer<T>, where a kernel writes
// `fp32_gpu.data()`, then `fp32_gpu.CopyToCpu(..)` copies on the context's
// stream.
class DeviceBuffer {
public:
  DeviceBuffer() {
    cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    cudaMalloc(&data_, 64 * sizeof(float));
    cudaMalloc(&scratch_, 64 * sizeof(float));
  }
  float *data() { return data_; }
  float *scratch() { return scratch_; }
  void copyToHost(float *h) const {
    cudaMemcpyAsync(h, data_, 64 * sizeof(float), cudaMemcpyDeviceToHost,
                    stream_);
    cudaStreamSynchronize(stream_);
  }
  void copyScratchToHost(float *h) const {
    cudaMemcpyAsync(h, scratch_, 64 * sizeof(float), cudaMemcpyDeviceToHost,
                    stream_);
    cudaStreamSynchronize(stream_);
  }

private:
  cudaStream_t stream_;
  float *data_;
  float *scratch_;
};
void accessorWrittenThenMemberCopied(float *h) {
  DeviceBuffer b;
  fill<<<1, 64>>>(b.data(), 64);
  b.copyToHost(h);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'b.data_' on stream 'b.stream_' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-3]]:3: note: 'b.data_' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 'b.stream_'
}
// Fixed: the legacy default stream's work is finished first.
void accessorWrittenSyncedThenMemberCopied(float *h) {
  DeviceBuffer b;
  fill<<<1, 64>>>(b.data(), 64);
  cudaDeviceSynchronize();
  b.copyToHost(h);
}
// Another member of the object: another buffer, whichever way it is named.
void otherMemberWrittenThenMemberCopied(float *h) {
  DeviceBuffer b;
  fill<<<1, 64>>>(b.scratch(), 64);
  b.copyToHost(h);
}
void accessorWrittenThenOtherMemberCopied(float *h) {
  DeviceBuffer b;
  fill<<<1, 64>>>(b.data(), 64);
  b.copyScratchToHost(h);
}

// The same through a helper's device work on its parameter.
void writeOn(float *x, cudaStream_t s) { fill<<<1, 64, 0, s>>>(x, 64); }
void helperWroteAccessorThenMemberCopied(float *h) {
  DeviceBuffer b;
  writeOn(b.data(), 0);
  b.copyToHost(h);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'b.data_' on stream 'b.stream_' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-3]]:3: note: 'b.data_' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 'b.stream_'
}
void helperWroteOtherMemberThenMemberCopied(float *h) {
  DeviceBuffer b;
  writeOn(b.scratch(), 0);
  b.copyToHost(h);
}

// A data accessor whose body the unit does not see, or that does more than
// return a member, names the whole object: which of its members the kernel
// wrote, the check cannot tell, so a copy of one of them is no claim.
class OpaqueBuffer {
public:
  OpaqueBuffer();
  float *data();
  float *checkedData() {
    if (!data_)
      reportMissing();
    return data_;
  }
  static void reportMissing();
  void copyToHost(float *h) const {
    cudaMemcpyAsync(h, data_, 64 * sizeof(float), cudaMemcpyDeviceToHost,
                    stream_);
    cudaStreamSynchronize(stream_);
  }
  void copyAuxToHost(float *h) const {
    cudaMemcpyAsync(h, aux_, 64 * sizeof(float), cudaMemcpyDeviceToHost,
                    stream_);
    cudaStreamSynchronize(stream_);
  }

private:
  cudaStream_t stream_;
  float *data_;
  float *aux_;
};
OpaqueBuffer::OpaqueBuffer() {
  cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
}
void opaqueAccessorWrittenThenMemberCopied(float *h) {
  OpaqueBuffer b;
  fill<<<1, 64>>>(b.data(), 64);
  b.copyToHost(h);
}
void checkedAccessorWrittenThenOtherMemberCopied(float *h) {
  OpaqueBuffer b;
  fill<<<1, 64>>>(b.checkedData(), 64);
  b.copyAuxToHost(h);
}
