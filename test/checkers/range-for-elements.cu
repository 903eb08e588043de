// A range-for's reference loop variable names one of the range's elements
// (AccessPath::ofVar: `r` of `for (auto &r : reqs)` is `reqs[?]`): a
// copy into `r.h` in one loop is a copy into the buffers a later loop over
// the same range reads (the twentieth round's r42), and a sync of `st.s_`
// over every element of a container of stream objects covers a copy on
// `streams[0].s_` (c34), where a loop that runs no iteration has no element
// to have copied on. A copy on an object outside the range is not covered.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>
void consume(int);
void consume(float);

struct Request {
  int *d_out;
  int *h_out;
};
void readBeforeEventWait(Request (&reqs)[3], cudaStream_t s,
                         cudaEvent_t (&done)[3]) {
  int k = 0;
  for (auto &r : reqs) {
    cudaMemcpyAsync(r.h_out, r.d_out, 256, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(done[k++], s);
  }
  for (auto &r : reqs) {
    consume(r.h_out[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'r.h_out' is read before the asynchronous device-to-host copy into it is known to be complete
  }
  cudaStreamSynchronize(s);
  for (auto &r : reqs)
    consume(r.h_out[0]);
}

struct StreamBox {
  cudaStream_t s_;
};
void everyElementSynced(float *h, const float *d,
                        std::vector<StreamBox> &streams) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, streams[0].s_);
  for (auto &st : streams)
    cudaStreamSynchronize(st.s_);
  consume(h[0]);
}
void otherObjectNotSynced(float *h, const float *d,
                          std::vector<StreamBox> &streams) {
  StreamBox own;
  cudaStreamCreateWithFlags(&own.s_, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, own.s_);
  for (auto &st : streams)
    cudaStreamSynchronize(st.s_);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}
