// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'

// Control flow between the copy and the access: branches, loops, polling
// queries, exceptions, lambdas, templates and error-checking wrappers.

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

void consume(const float *p);
void consumeValue(float v);
bool condition();
void mayThrow();

//===--- Branches ---===//

void syncOnOneBranchOnly(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c)
    cudaStreamSynchronize(s);
  else
    consumeValue(1.0f);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-7]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void syncOnBothBranches(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c)
    cudaStreamSynchronize(s);
  else
    cudaDeviceSynchronize();
  consumeValue(h[0]);
}

void readInsideUnsyncedBranch(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c) {
    cudaStreamSynchronize(s);
    consumeValue(h[0]);
  } else {
    consumeValue(h[1]);
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  }
}

void earlyReturnWithoutSync(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c)
    return;
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void earlyReturnOnTheUnsyncedPath(const float *d, cudaStream_t s, bool c) {
  // Only the synchronized path reaches the read.
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c)
    cudaStreamSynchronize(s);
  else
    return;
  consumeValue(h[0]);
}

void switchWithOneUnsyncedCase(const float *d, cudaStream_t s, int k) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  switch (k) {
  case 0:
    cudaStreamSynchronize(s);
    break;
  case 1:
    cudaDeviceSynchronize();
    break;
  default:
    break;
  }
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void switchSyncedInEveryCase(const float *d, cudaStream_t s, int k) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  switch (k) {
  case 0:
    cudaStreamSynchronize(s);
    break;
  default:
    cudaDeviceSynchronize();
    break;
  }
  consumeValue(h[0]);
}

void gotoSkipsTheSync(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c)
    goto done;
  cudaStreamSynchronize(s);
done:
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void gotoToTheSync(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (c)
    goto wait;
  consumeValue(2.0f);
wait:
  cudaStreamSynchronize(s);
  consumeValue(h[0]);
}

//===--- Loops ---===//

void readAtTopCopyAtBottom(const float *d, cudaStream_t s, int n) {
  // The seed's pattern: the next iteration's read races this iteration's
  // copy.
  float *h;
  cudaMallocHost(&h, 64);
  for (int i = 0; i < n; ++i) {
    consumeValue(h[0]);
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    // CHECK: :[[@LINE+2]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: note: the copy is still in flight when a later iteration of the loop reaches the access
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
}

void syncAtTopOfLoop(const float *d, cudaStream_t s, int n) {
  float *h;
  cudaMallocHost(&h, 64);
  for (int i = 0; i < n; ++i) {
    cudaStreamSynchronize(s);
    consumeValue(h[0]);
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
}

void doWhileReadsBeforeSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  do {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    cudaStreamSynchronize(s);
  } while (condition());
}

void doWhileSyncsBeforeRead(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  do {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    consumeValue(h[0]);
  } while (condition());
}

void loopThatMayNotRunTheSync(const float *d, cudaStream_t s, int n) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < n; ++i)
    cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Polling with cudaStreamQuery ---===//

void pollUntilNotNotReady(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
  }
  consumeValue(h[0]);
}

void pollUntilSuccess(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  while (cudaStreamQuery(s) != cudaSuccess) {
  }
  consumeValue(h[0]);
}

void queryGuardsTheRead(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (cudaStreamQuery(s) == cudaSuccess)
    consumeValue(h[0]);
  else
    consumeValue(h[1]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-6]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-6]]:{{[0-9]+}}: note: 's' is queried here, but the access is not guarded by the query having returned cudaSuccess
}

void queryResultIgnored(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamQuery(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: 's' is queried here, but the access is not guarded by the query having returned cudaSuccess
}

void queryResultKeptInVariable(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaError_t r;
  do {
    r = cudaStreamQuery(s);
  } while (r == cudaErrorNotReady);
  consumeValue(h[0]);
}

void queryOfAnotherStream(const float *d, cudaStream_t s, cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  while (cudaStreamQuery(t) != cudaSuccess) {
  }
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Exceptions ---===//

void readAfterTryBlockThatSyncs(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  try {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    consumeValue(h[0]);
  } catch (...) {
  }
}

void readInTryBlockBeforeSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  try {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    cudaStreamSynchronize(s);
  } catch (...) {
  }
}

//===--- Lambdas ---===//

void copyAndReadInsideLambda(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto body = [&] {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    consumeValue(h[0]);
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  };
  body();
}

void copyAndSyncInsideLambda(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto body = [&] {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    consumeValue(h[0]);
  };
  body();
}

void lambdaDefinedAfterCopyIsNotAnAccess(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  auto later = [h] { consumeValue(h[0]); };
  cudaStreamSynchronize(s);
  later();
}

//===--- Templates ---===//

template <class T>
void copyAndReadTemplate(const T *d, cudaStream_t s) {
  T *h;
  cudaMallocHost(&h, 4 * sizeof(T));
  cudaMemcpyAsync(h, d, 4 * sizeof(T), cudaMemcpyDeviceToHost, s);
  consumeValue(static_cast<float>(h[0]));
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

template <class T>
void copyAndSyncTemplate(const T *d, cudaStream_t s) {
  T *h;
  cudaMallocHost(&h, 4 * sizeof(T));
  cudaMemcpyAsync(h, d, 4 * sizeof(T), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue(static_cast<float>(h[0]));
}

template <class T>
void neverInstantiated(const T *d, cudaStream_t s) {
  T *h;
  cudaMallocHost(&h, 4 * sizeof(T));
  cudaMemcpyAsync(h, d, 4 * sizeof(T), cudaMemcpyDeviceToHost, s);
  consumeValue(static_cast<float>(h[0]));
}

void instantiateTemplates(const float *df, const double *dd, cudaStream_t s) {
  copyAndReadTemplate(df, s);
  copyAndReadTemplate(dd, s);
  copyAndSyncTemplate(df, s);
  copyAndSyncTemplate(dd, s);
}

//===--- Device code ---===//

__global__ void kernelIsIgnored(float *out, const float *d, float *h) {
  out[0] = h[0];
}

__device__ float deviceFunctionIsIgnored(const float *h) { return h[0]; }

//===--- Error-checking wrappers ---===//

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess)                                                      \
      abort();                                                                 \
  } while (0)

void wrappedCopyWithoutSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  CHECK_CUDA(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
}

void wrappedCopyAndWrappedSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  CHECK_CUDA(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  consumeValue(h[0]);
}

void syncResultChecked(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (cudaStreamSynchronize(s) != cudaSuccess)
    return;
  consumeValue(h[0]);
}

void wrappedSyncOfAnotherStream(const float *d, cudaStream_t s,
                                cudaStream_t t) {
  float *h;
  cudaMallocHost(&h, 64);
  CHECK_CUDA(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(t));
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: this synchronizes stream 't', not stream 's', the copy's stream
}
