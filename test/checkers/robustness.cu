// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 | FileCheck %s --implicit-check-not='warning:'
// RUN: not %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 -DBROKEN 2>&1 | FileCheck %s --check-prefix=BROKEN --implicit-check-not='Stack dump'
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 -DHUGE | FileCheck %s --check-prefix=HUGE

// Inputs that must neither crash nor hang the check, and the deliberate
// blind spots: unknown directions, untrackable destinations, unknown APIs.

#include <cuda_runtime.h>
#include <cstdarg>

void consumeValue(float v);
void consume(const float *p);
void logValues(const char *fmt, ...);

//===--- Code that does not compile ---===//

#ifdef BROKEN
void brokenFunctionIsSkipped(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[undeclaredIndex]);
  // BROKEN: :[[@LINE-1]]:{{[0-9]+}}: error: use of undeclared identifier 'undeclaredIndex'
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s, 7);
  // BROKEN: :[[@LINE-1]]:{{[0-9]+}}: error: no matching function for call to 'cudaMemcpyAsync'
  cudaMemcpyAsync(h);
  // BROKEN: :[[@LINE-1]]:{{[0-9]+}}: error: no matching function for call to 'cudaMemcpyAsync'
  consumeValue(h[0]);
}
#endif

//===--- Deep nesting ---===//

void deeplyNestedLoops(const float *d, cudaStream_t s, int n) {
  float *h;
  cudaMallocHost(&h, 64);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < n; ++c)
        for (int e = 0; e < n; ++e)
          for (int f = 0; f < n; ++f)
            for (int g = 0; g < n; ++g)
              for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                  consumeValue(h[j]);
                  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
                  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: note: asynchronous device-to-host copy into 'h' on stream 's' is issued here
                  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
                }
}

void deeplyNestedLoopsSynced(const float *d, cudaStream_t s, int n) {
  float *h;
  cudaMallocHost(&h, 64);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < n; ++c)
        for (int e = 0; e < n; ++e)
          for (int f = 0; f < n; ++f)
            for (int g = 0; g < n; ++g)
              for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
                  cudaStreamSynchronize(s);
                  consumeValue(h[j]);
                }
}

void deeplyNestedBranches(const float *d, cudaStream_t s, int k) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (k > 0)
    if (k > 1)
      if (k > 2)
        if (k > 3)
          if (k > 4)
            if (k > 5)
              if (k > 6)
                if (k > 7)
                  cudaStreamSynchronize(s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Indirect and variadic calls ---===//

void callThroughFunctionPointer(const float *d, cudaStream_t s,
                                void (*sink)(const float *)) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  sink(h);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to a function before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void callThroughFunctionPointerAfterSync(const float *d, cudaStream_t s,
                                         void (*sink)(const float *)) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  sink(h);
}

void variadicCall(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  logValues("%p %f", h, 1.0);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is passed to 'logValues' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void variadicCallAfterSync(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  logValues("%p %f", h, 1.0);
}

//===--- Copies the check cannot classify ---===//

void kindIsAParameter(const float *d, cudaStream_t s, cudaMemcpyKind kind) {
  // Direction unknown: not tracked.
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, kind, s);
  consumeValue(h[0]);
}

void kindIsAConstantLocal(const float *d, cudaStream_t s) {
  const cudaMemcpyKind kind = cudaMemcpyDeviceToHost;
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, kind, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void copyThroughFunctionPointer(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  auto copy = &cudaMemcpyAsync;
  copy(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(h[0]);
}

void readThroughTernary(const float *d, cudaStream_t s, bool c) {
  float *a, *b;
  cudaMallocHost(&a, 64);
  cudaMallocHost(&b, 64);
  cudaMemcpyAsync(a, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue((c ? a : b)[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'a' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void readThroughTernaryAfterSync(const float *d, cudaStream_t s, bool c) {
  float *a, *b;
  cudaMallocHost(&a, 64);
  cudaMallocHost(&b, 64);
  cudaMemcpyAsync(a, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  consumeValue((c ? a : b)[0]);
}

//===--- APIs the model does not know ---===//

void unknownApisAreLeftAlone(const float *d, cudaStream_t s,
                             cudaMemLocation loc) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemPrefetchAsync(h, 64, loc, 0, s);
  cudaStreamAttachMemAsync(s, h);
  cudaHostUnregister(h);
  cudaStreamSynchronize(s);
}

void unknownApiDoesNotSync(const float *d, cudaStream_t s,
                           cudaMemLocation loc) {
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemPrefetchAsync(h, 64, loc, 0, s);
  consumeValue(h[0]);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

//===--- Very large functions ---===//

#ifdef HUGE
// 1000 copy / guarded read / sync triples: 3000 statements, 1000 branches.
#define STEP                                                                   \
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);                        \
  if (c)                                                                       \
    consumeValue(h[0]);                                                        \
  cudaStreamSynchronize(s);
#define STEP10 STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP
#define STEP100                                                                \
  STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10
#define STEP1000                                                               \
  STEP100 STEP100 STEP100 STEP100 STEP100 STEP100 STEP100 STEP100 STEP100      \
      STEP100

void threeThousandStatements(const float *d, cudaStream_t s, bool c) {
  float *h;
  cudaMallocHost(&h, 64);
  STEP1000
  // HUGE: :[[@LINE-1]]:{{[0-9]+}}: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
}

void threeThousandSyncedStatements(const float *d, cudaStream_t s, bool c) {
#undef STEP
#define STEP                                                                   \
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);                        \
  cudaStreamSynchronize(s);                                                    \
  if (c)                                                                       \
    consumeValue(h[0]);
  float *h;
  cudaMallocHost(&h, 64);
  STEP1000
}
// HUGE-NOT: warning:
#endif
