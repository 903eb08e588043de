// Library algorithms as producers (LibraryProducers.h): CUB's device-wide
// primitives, rocPRIM's algorithms and NCCL's collectives write their
// outputs on their stream argument -- stream 0 when it is omitted. cuML's
// decision tree read a cub::DeviceSelect::Flagged result given no stream
// with a copy on its handle's stream (fixed by passing the stream to cub).
// The size query (a null temporary storage) does no work.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   -isystem %S/Inputs/library-cccl \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cub/device.cuh>
#include <rocprim/rocprim.hpp>

void consume(int);

typedef struct ncclComm *ncclComm_t;
typedef enum { ncclFloat32 = 7 } ncclDataType_t;
typedef enum { ncclSum = 0 } ncclRedOp_t;
extern "C" int ncclAllReduce(const void *sendbuff, void *recvbuff,
                             size_t count, ncclDataType_t datatype,
                             ncclRedOp_t op, ncclComm_t comm,
                             cudaStream_t stream);

// cuML's shape: cub on stream 0, the copy on the handle's stream.
void cubWithoutAStream(void *temp, size_t bytes, const float *in, float *out,
                       int *count, int n, float *h, int *hcount,
                       cudaStream_t stream) {
  char flags[16];
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n);
  cudaMemcpyAsync(hcount, count, sizeof(int), cudaMemcpyDeviceToHost, stream);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'count' on stream 'stream' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-3]]:3: note: 'count' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes stream 'stream'
  // CHECK: :[[@LINE-4]]:3: note: stream 'stream' is not created in this function: not a race if it is the legacy default stream or a blocking one
  cudaStreamSynchronize(stream);
  consume(hcount[0]);
}

// The fix: the same stream for both.
void cubOnTheCopysStream(void *temp, size_t bytes, const float *in,
                         float *out, int *count, int n, int *hcount,
                         cudaStream_t stream) {
  char flags[16];
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n, stream);
  cudaMemcpyAsync(hcount, count, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  consume(hcount[0]);
}

// A body in a system header, followed by a blocking copy.
void cubSumThenBlockingCopy(const float *in, float *out, int n, float *h,
                            cudaStream_t s) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, in, out, n, s); // the size query
  void *temp;
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  cudaMemcpy(h, out, sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'out' on the legacy default stream may read it before the work that writes it on stream 's' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'out' is written on stream 's' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes the legacy default stream
  // CHECK: :[[@LINE-4]]:3: note: stream 's' is not created in this function
}

// The size query alone writes nothing; the input is not an output.
void cubSizeQueryOnly(const float *in, float *out, int n, float *h,
                      cudaStream_t s) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, in, out, n, s);
  cudaMemcpy(h, out, sizeof(float), cudaMemcpyDeviceToHost);
}

void cubThenSync(void *temp, size_t bytes, const float *in, float *out,
                 int n, float *h, cudaStream_t s) {
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, out, sizeof(float), cudaMemcpyDeviceToHost);
}

// A library algorithm is stream-ordered work on its stream, nothing more:
// between a kernel on the handle's stream and the blocking copy of its
// output it ends no claim (cuML's make_split before 7bf552dd56, whose
// blocking copies of the flags kernel's outputs followed cub on stream 0).
__global__ void flagKernel(char *flags, float *value);
void cubOnStream0BetweenHandleWorkAndCopy(void *temp, size_t bytes,
                                          const float *in, float *out,
                                          int *count, int n, float *hvalue,
                                          cudaStream_t handleStream) {
  char *flags;
  float *value;
  cudaMalloc(&flags, n);
  cudaMalloc(&value, sizeof(float));
  flagKernel<<<1, 64, 0, handleStream>>>(flags, value);
  size_t query = 0;
  cub::DeviceSelect::Flagged(nullptr, query, in, flags, out, count, n);
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n);
  cudaMemcpy(hvalue, value, sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'value' on the legacy default stream may read it before the work that writes it on stream 'handleStream' has finished
  // CHECK: :[[@LINE-6]]:3: note: 'value' is written on stream 'handleStream' here
}

// The same on a created blocking stream: the legacy default stream (cub's
// work and the blocking copy) waits for it.
void cubOnStream0AfterBlockingStreamWork(void *temp, size_t bytes,
                                         const float *in, float *out,
                                         int *count, int n, float *hvalue) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  char *flags;
  float *value;
  cudaMalloc(&flags, n);
  cudaMalloc(&value, sizeof(float));
  flagKernel<<<1, 64, 0, s>>>(flags, value);
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n);
  cudaMemcpy(hvalue, value, sizeof(float), cudaMemcpyDeviceToHost);
}

// rocSPARSE's coosort: rocprim on the handle's stream, then hipMemcpy's
// CUDA twin.
void rocprimThenBlockingCopy(void *temp, size_t bytes, const int *keys,
                             int *unique, int *counts, int *nruns,
                             unsigned n, cudaStream_t stream) {
  int h;
  rocprim::run_length_encode(temp, bytes, keys, n, unique, counts, nruns,
                             stream);
  cudaMemcpy(&h, nruns, sizeof(int), cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: the blocking device-to-host copy of 'nruns' on the legacy default stream may read it before the work that writes it on stream 'stream' has finished
  // CHECK: :[[@LINE-4]]:3: note: 'nruns' is written on stream 'stream' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  // CHECK: :[[@LINE-4]]:3: note: stream 'stream' is not created in this function
  consume(h);
}

void rocprimCopyOnItsStream(void *temp, size_t bytes, const int *keys,
                            int *unique, int *counts, int *nruns, unsigned n,
                            cudaStream_t stream) {
  int h;
  rocprim::run_length_encode(temp, bytes, keys, n, unique, counts, nruns,
                             stream);
  cudaMemcpyAsync(&h, nruns, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  consume(h);
}

// NCCL: the collective writes recvbuff on its stream.
void ncclThenCopyOnAnotherStream(const float *send, float *recv, float *h,
                                 ncclComm_t comm) {
  cudaStream_t comms, copies;
  cudaStreamCreateWithFlags(&comms, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&copies, cudaStreamNonBlocking);
  ncclAllReduce(send, recv, 16, ncclFloat32, ncclSum, comm, comms);
  cudaMemcpyAsync(h, recv, 64, cudaMemcpyDeviceToHost, copies);
  // CHECK: :[[@LINE-1]]:3: warning: the asynchronous device-to-host copy of 'recv' on stream 'copies' may read it before the work that writes it on stream 'comms' has finished
  // CHECK: :[[@LINE-3]]:3: note: 'recv' is written on stream 'comms' here
  // CHECK: :[[@LINE-3]]:3: note: nothing makes
  cudaStreamSynchronize(copies);
  // The send buffer is only read.
  cudaMemcpyAsync(h, send, 64, cudaMemcpyDeviceToHost, copies);
  cudaStreamSynchronize(copies);
}
