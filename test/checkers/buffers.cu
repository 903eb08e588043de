// What a buffer is: arrays of buffers are tracked as a whole (ring and
// double buffers) except that constant elements are told apart, and pinned memory owned by a smart pointer is not taken
// for a pageable local object.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

void consume(const float *, int);
void consumeValue(float);

//===--- Double buffering --------------------------------------------------===//

// The classic mistake: the other half is still being written by the copy
// of the previous iteration, which nothing has synchronized.
void doubleBufferReadsTheOtherHalf(float *h[2], float *d[2], cudaStream_t s[2],
                                   int n) {
  for (int it = 0; it < n; ++it) {
    int b = it & 1;
    cudaMemcpyAsync(h[b], d[b], 64, cudaMemcpyDeviceToHost, s[b]);
    consume(h[1 - b], 16);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[1 - b]' is passed to 'consume' before the asynchronous
  }
}

void doubleBufferSyncsTheOtherHalf(float *h[2], float *d[2],
                                   cudaStream_t s[2], int n) {
  for (int it = 0; it < n; ++it) {
    int b = it & 1;
    cudaMemcpyAsync(h[b], d[b], 64, cudaMemcpyDeviceToHost, s[b]);
    cudaDeviceSynchronize();
    consume(h[1 - b], 16);
  }
}

// Ping-pong by swapping the two pointers: std::swap rebinds them (each may
// name either buffer after it), it reads neither buffer.
void pingPongSwapSynced(const float *d, cudaStream_t s, int n) {
  float *front, *back;
  cudaMallocHost(&front, 64);
  cudaMallocHost(&back, 64);
  for (int it = 0; it < n; ++it) {
    cudaMemcpyAsync(back, d, 64, cudaMemcpyDeviceToHost, s);
    std::swap(front, back);
    cudaStreamSynchronize(s);
    consume(front, 16);
  }
}

void pingPongSwapUnsynced(const float *d, cudaStream_t s) {
  float *front, *back;
  cudaMallocHost(&front, 64);
  cudaMallocHost(&back, 64);
  cudaMemcpyAsync(back, d, 64, cudaMemcpyDeviceToHost, s);
  std::swap(front, back);
  consume(front, 16);
  // CHECK: :[[@LINE-1]]:11: warning: 'front' is passed to 'consume' before the asynchronous
  cudaStreamSynchronize(s);
}

// std::exchange returns the old buffer, the one the copy writes.
void exchangeReturnsTheCopysBuffer(const float *d, float *spare,
                                   cudaStream_t s) {
  float *cur;
  cudaMallocHost(&cur, 64);
  cudaMemcpyAsync(cur, d, 64, cudaMemcpyDeviceToHost, s);
  float *done = std::exchange(cur, spare);
  consume(done, 16);
  // CHECK: :[[@LINE-1]]:11: warning: 'done' is passed to 'consume' before the asynchronous
  cudaStreamSynchronize(s);
}

//===--- A local pointer bound to another buffer in each iteration ---------===//

// Issue 26, item 5: the copy of the previous iteration went into another
// item's buffer (the element by the loop's own counter), so the write at
// the top of this iteration is not a race.
struct Item {
  float *data;
  cudaStream_t s;
};

void elementByTheLoopsCounter(Item *items, int n, const float *d) {
  for (int i = 0; i < n; ++i) {
    float *h = items[i].data;
    h[0] = 0;
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, items[i].s);
  }
  cudaDeviceSynchronize();
}

void elementOfARangeFor(Item (&items)[4], const float *d) {
  for (Item &it : items) {
    float *h = it.data;
    h[0] = 0;
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, it.s);
  }
  cudaDeviceSynchronize();
}

void allocatedEachIteration(const float *d, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    float *h;
    cudaMallocHost(&h, 64);
    h[0] = 0;
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  cudaStreamSynchronize(s);
}

// The same buffers again: a ring by another index, an outer loop's
// counter, a constant element, a pointer assigned after its declaration.
void ringByAnotherIndex(float *bufs[2], const float *d, cudaStream_t s,
                        int n) {
  for (int i = 0; i < n; ++i) {
    float *h = bufs[i % 2];
    h[0] = 0;
    // CHECK: :[[@LINE-1]]:5: warning: 'h' is written before the asynchronous
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  cudaStreamSynchronize(s);
}

void outerLoopsCounter(Item *items, int n, const float *d) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 2; ++j) {
      float *h = items[i].data;
      h[0] = 0;
      // CHECK: :[[@LINE-1]]:7: warning: 'h' is written before the asynchronous
      cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, items[i].s);
    }
  cudaDeviceSynchronize();
}

void counterChangedInTheBody(Item *items, int n, const float *d) {
  for (int i = 0; i < n; ++i) {
    float *h = items[i].data;
    h[0] = 0;
    // CHECK: :[[@LINE-1]]:5: warning: 'h' is written before the asynchronous
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, items[i].s);
    if (i == 3)
      --i;
  }
  cudaDeviceSynchronize();
}

void assignedAfterItsDeclaration(float *bufs[2], const float *d,
                                 cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    float *h;
    h = bufs[i % 2];
    h[0] = 0;
    // CHECK: :[[@LINE-1]]:5: warning: 'h' is written before the asynchronous
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  }
  cudaStreamSynchronize(s);
}

// Constant elements (issue 12, class 9): buf[0] and buf[1] are different
// buffers. buf[0] is complete once its stream is synchronized, whatever is
// in flight into buf[1].
void doubleBufferConstantHalves(float *buf[2], const float *d,
                                cudaStream_t s) {
  cudaMemcpyAsync(buf[0], d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(buf[1], d + 16, 64, cudaMemcpyDeviceToHost, s);
  consume(buf[0], 16);
  consume(buf[1], 16);
  // CHECK: :[[@LINE-1]]:11: warning: 'buf[1]' is passed to 'consume' before the asynchronous
  cudaStreamSynchronize(s);
}

// Both halves in flight: either read warns.
void doubleBufferBothInFlight(float *buf[2], const float *d, cudaStream_t s) {
  cudaMemcpyAsync(buf[0], d, 64, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(buf[1], d + 16, 64, cudaMemcpyDeviceToHost, s);
  consume(buf[0], 16);
  // CHECK: :[[@LINE-1]]:11: warning: 'buf[0]' is passed to 'consume' before the asynchronous
  cudaStreamSynchronize(s);
}

// An element by a non-constant index may be either half.
void doubleBufferVariableIndex(float *buf[2], const float *d, cudaStream_t s,
                               int b) {
  cudaMemcpyAsync(buf[1], d, 64, cudaMemcpyDeviceToHost, s);
  consume(buf[b], 16);
  // CHECK: :[[@LINE-1]]:11: warning: 'buf[b]' is passed to 'consume' before the asynchronous
  cudaStreamSynchronize(s);
}

//===--- Smart pointers ----------------------------------------------------===//

struct PinnedDeleter {
  void operator()(float *p) const { cudaFreeHost(p); }
};

float uniquePtrOwnedPinned(const float *d, cudaStream_t s) {
  float *raw;
  cudaMallocHost(&raw, 64);
  std::unique_ptr<float[], PinnedDeleter> h(raw);
  cudaMemcpyAsync(h.get(), d, 64, cudaMemcpyDeviceToHost, s);
  return h[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before the asynchronous
}

float uniquePtrOwnedPinnedThenSync(const float *d, cudaStream_t s) {
  float *raw;
  cudaMallocHost(&raw, 64);
  std::unique_ptr<float[], PinnedDeleter> h(raw);
  cudaMemcpyAsync(h.get(), d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return h[0];
}

//===--- Pinned buffers held in a std::vector -------------------------------===//

// `bufs[p]` of a std::vector<float *> is element p, as of an array: the
// buffers allocated into the elements are pinned, each element its own.
void vectorOfPinnedBuffers(const float *d, int parts, cudaStream_t s0,
                           cudaStream_t s1) {
  std::vector<float *> bufs(2);
  for (int p = 0; p < 2; ++p)
    cudaMallocHost(&bufs[p], 64);
  cudaMemcpyAsync(bufs[1], d, 64, cudaMemcpyDeviceToHost, s1);
  cudaMemcpyAsync(bufs[0], d, 64, cudaMemcpyDeviceToHost, s0);
  cudaStreamSynchronize(s0);
  consumeValue(bufs[0][0]);
  consumeValue(bufs[1][0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'bufs[1]' is read before the asynchronous
  cudaStreamSynchronize(s1);
  consumeValue(bufs[1][0]);
}

// A range-for's variable over the vector is one of its elements: only the
// first stream was synchronized.
void vectorRangeForAfterOneSync(const float *d, cudaStream_t s0,
                                cudaStream_t s1) {
  std::vector<float *> bufs(2);
  cudaStream_t streams[2] = {s0, s1};
  for (int p = 0; p < 2; ++p)
    cudaMallocHost(&bufs[p], 64);
  for (int p = 0; p < 2; ++p)
    cudaMemcpyAsync(bufs[p], d, 64, cudaMemcpyDeviceToHost, streams[p]);
  cudaStreamSynchronize(streams[0]);
  for (float *b : bufs)
    consumeValue(b[0]);
  // CHECK: :[[@LINE-1]]:18: warning: 'b' is read before the asynchronous
  for (int p = 0; p < 2; ++p)
    cudaStreamSynchronize(streams[p]);
  for (float *b : bufs)
    consumeValue(b[0]);
}

// A vector of pageable buffers is not copied into asynchronously.
void vectorOfPageableBuffers(const float *d, cudaStream_t s) {
  std::vector<float *> bufs(2);
  for (int p = 0; p < 2; ++p)
    bufs[p] = static_cast<float *>(std::malloc(64));
  cudaMemcpyAsync(bufs[1], d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(bufs[1][0]);
  cudaStreamSynchronize(s);
}

//===--- References to an element of a buffer -------------------------------===//

// `float &first = h[0]` names the buffer's first element, bound before or
// after the copy.
void referenceToAnElement(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64);
  float &first = h[0];
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(first);
  // CHECK: :[[@LINE-1]]:16: warning: 'first' is read before the asynchronous
  float &last = h[15];
  consumeValue(last);
  // CHECK: :[[@LINE-1]]:16: warning: 'last' is read before the asynchronous
  cudaStreamSynchronize(s);
  consumeValue(first);
}

// A reference to a pageable local's element stays pageable; a copy of the
// element is a value, read where it is made.
void referenceToAPageableElement(const float *d, cudaStream_t s) {
  float local[16];
  float &first = local[0];
  cudaMemcpyAsync(local, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(first);
  float *h;
  cudaMallocHost(&h, 64);
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  float copy = h[0];
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(copy);
  cudaStreamSynchronize(s);
}

//===--- Pointers stored by aggregate initialisation ------------------------===//

struct Staging {
  float *host;
  float *other;
};

// `Staging st{h, g}` makes st.host an alias of h, st.other one of g.
void aggregateFields(const float *d, cudaStream_t s) {
  float *h, *g;
  cudaMallocHost(&h, 64);
  cudaMallocHost(&g, 64);
  Staging st{h, g};
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(st.other[0]);
  consumeValue(st.host[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'st.host' is read before the asynchronous
  cudaStreamSynchronize(s);
}

// An aggregate a helper returns with its parameters as fields (`return
// Pending{h, s};`): the caller's `p.data` is its argument h, and `p.s` its
// stream (the third adversarial round's programs 24 and 38).
struct Pending {
  float *data;
  cudaStream_t s;
};
static Pending download(float *h, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  return Pending{h, s};
}
static Pending downloadInto(float *h, float *spare, const float *d,
                            cudaStream_t s, bool useSpare) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  if (useSpare)
    return Pending{spare, s};
  return Pending{h, s};
}
static void waitFor(const Pending &p) { cudaStreamSynchronize(p.s); }
void returnedAggregateReadEarly(float *h, const float *d, cudaStream_t s) {
  Pending p = download(h, d, s);
  consumeValue(p.data[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'p.data' is read before the asynchronous
  waitFor(p);
}
void returnedAggregateWaited(float *h, const float *d, cudaStream_t s) {
  Pending p = download(h, d, s);
  waitFor(p);
  consumeValue(p.data[0]);
}
// A field returned as different parameters on two paths: not followed.
void returnedAggregateTwoWays(float *h, float *g, const float *d,
                              cudaStream_t s, bool spare) {
  Pending p = downloadInto(h, g, d, s, spare);
  consumeValue(p.data[0]);
  waitFor(p);
}

// The elements of `float *slots[2] = {h, h + 512}` point into h; an array
// of two buffers keeps them apart (one class would make a copy into the
// first race with a read of the second).
void arrayInitializerIntoOneBuffer(const float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 4096);
  float *slots[2] = {h, h + 512};
  cudaMemcpyAsync(slots[1], d, 256, cudaMemcpyDeviceToHost, s);
  consumeValue(h[512]);
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is read before the asynchronous
  cudaStreamSynchronize(s);
}

void arrayInitializerOfTwoBuffers(const float *d, cudaStream_t s) {
  float *a, *b;
  cudaMallocHost(&a, 64);
  cudaMallocHost(&b, 64);
  float *slots[2] = {a, b};
  cudaMemcpyAsync(a, d, 64, cudaMemcpyDeviceToHost, s);
  consumeValue(b[0]);
  cudaStreamSynchronize(s);
  consumeValue(slots[0][0]);
}
