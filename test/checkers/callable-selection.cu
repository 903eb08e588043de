// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Which callables the check analyses (CallableSelection.h): those that
// issue a copy themselves or call, within HelperDepth levels, a function
// whose body does, wherever that body is (after a prototype too).

#include <cuda_runtime.h>

void consume(float v);

// A helper declared before the caller and defined after it: the call names
// the prototype, which has no body; its definition's body is the one looked
// through.
void fetchLater(float *h, const float *d, cudaStream_t s);

void callsHelperDefinedLater(float *h, const float *d, cudaStream_t s) {
  fetchLater(h, d, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  consume(h[1]);
}

void callsHelperDefinedLaterThenSyncs(float *h, const float *d,
                                      cudaStream_t s) {
  fetchLater(h, d, s);
  cudaStreamSynchronize(s);
  consume(h[0]);
}

void fetchLater(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
}

// A lambda is a callable of its own: its copy and read are its findings,
// not its enclosing function's.
void lambdaWithItsOwnRace(float *h, const float *d, cudaStream_t s) {
  auto Fetch = [&] {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consume(h[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  };
  Fetch();
  consume(h[1]);
}

// Template instantiations are analysed, the dependent template is not.
template <class T> void fetchAndRead(T *h, const T *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, sizeof(T), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
}
void instantiates(float *h, const float *d, cudaStream_t s) {
  fetchAndRead(h, d, s);
  cudaStreamSynchronize(s);
}
