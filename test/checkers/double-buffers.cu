// Double buffers: a local pointer the function re-points (`cur = next;`,
// `std::swap(cur, next)`, a swap through a temporary) names, at a read, the
// buffers of the copies it holds there, not every buffer it is ever given
// (PointerValues.cpp); an element by an index that differs from the copy's
// while its variables keep their values (`bufs[cur]` after a copy into
// `bufs[1 - cur]`, `h[i % 2]` and `h[(i + 1) % 2]`, `k ^ 1`) is another
// element (ElementIndices.h), also through locals that stand for an element
// or its index (`float *dst = bufs[1 - cur];`, `const int nxt = 1 - cur;`).
// What may make them one buffer again: a swap
// written without a temporary, an assignment on one path, a helper that
// returns its argument, an alias by pointer arithmetic, the pointer stored
// in an array, the array's elements changed, the index changed through an
// operator, unsigned wrap-around, a narrowing cast.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdint>
#include <utility>
void consume(float);

// The copy of the next chunk is in flight while the current one is read.
void swapByHand(const float *d, float *a, float *b, cudaStream_t s, int n) {
  float *cur = a, *next = b;
  cudaMemcpyAsync(cur, d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (int i = 1; i < n; ++i) {
    cudaMemcpyAsync(next, d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(cur[0]);
    cudaStreamSynchronize(s);
    float *tmp = cur;
    cur = next;
    next = tmp;
  }
}
void stdSwap(const float *d, float *a, float *b, cudaStream_t s, int n) {
  float *cur = a, *next = b;
  cudaMemcpyAsync(cur, d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (int i = 1; i < n; ++i) {
    cudaMemcpyAsync(next, d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(cur[0]);
    cudaStreamSynchronize(s);
    std::swap(cur, next);
  }
}
// The sync comes after the swap: the buffer read is the one in flight.
void swappedBeforeSync(const float *d, float *a, float *b, cudaStream_t s,
                       int n) {
  float *cur = a, *next = b;
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(next, d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    std::swap(cur, next);
    consume(cur[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  }
}
void swappedByHandBeforeSync(const float *d, float *a, float *b,
                             cudaStream_t s, int n) {
  float *cur = a, *next = b;
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(next, d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    float *tmp = cur;
    cur = next;
    next = tmp;
    consume(cur[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  }
}
// A copy of the pointer holds what it holds.
void copiedPointer(const float *d, float *a, float *b, cudaStream_t s,
                   int n) {
  float *cur = a;
  for (int i = 0; i < n; ++i) {
    float *p = cur;
    cudaMemcpyAsync(p, d, 256, cudaMemcpyDeviceToHost, s);
    consume(cur[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
    cur = (i % 2) ? a : b;
  }
}
// Given the buffer before the copy into it by its own name.
void givenBeforeCopy(const float *d, float *a, float *b, cudaStream_t s) {
  float *cur = b;
  cur = a;
  cudaMemcpyAsync(a, d, 256, cudaMemcpyDeviceToHost, s);
  consume(cur[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
// Re-pointed elsewhere after the copy: the read is of the other buffer;
// the buffer copied into is still in flight by its own name.
void repointedAfterCopy(const float *d, float *a, float *b, cudaStream_t s) {
  float *cur = a;
  cudaMemcpyAsync(cur, d, 256, cudaMemcpyDeviceToHost, s);
  cur = b;
  consume(cur[0]);
  consume(a[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'a' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
// A context pointer re-pointed at another context (two parameters are two
// objects, as two variables are two buffers elsewhere).
struct Ctx {
  float *host;
  cudaStream_t s;
};
void contextRepointed(const float *d, Ctx *a, Ctx *b) {
  Ctx *cur = a;
  cudaMemcpyAsync(cur->host, d, 256, cudaMemcpyDeviceToHost, cur->s);
  cur = b;
  consume(cur->host[0]);
  cur = a;
  consume(cur->host[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'cur->host' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(a->s);
}
// A new allocation through the pointer's address: a new buffer.
void reallocated(const float *d, cudaStream_t s) {
  float *cur;
  cudaMallocHost(&cur, 256);
  float *old = cur;
  cudaMemcpyAsync(cur, d, 256, cudaMemcpyDeviceToHost, s);
  cudaMallocHost(&cur, 256);
  cur[0] = 0.f;
  consume(old[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'old' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  cur = old;
}

// Indices.
void indexOneMinus(const float *d, float *bufs[2], cudaStream_t s, int n) {
  int cur = 0;
  cudaMemcpyAsync(bufs[0], d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (int i = 1; i < n; ++i) {
    cudaMemcpyAsync(bufs[1 - cur], d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(bufs[cur][0]);
    cudaStreamSynchronize(s);
    cur = 1 - cur;
  }
}
void indexFlippedBeforeRead(const float *d, float *bufs[2], cudaStream_t s,
                            int n) {
  int cur = 0;
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(bufs[1 - cur], d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    cur = 1 - cur;
    consume(bufs[cur][0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'bufs[cur]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  }
}
void indexModulo(const float *d, float *h[2], cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(h[(i + 1) % 2], d + i * 64, 256, cudaMemcpyDeviceToHost,
                    s);
    consume(h[i % 2][0]);
    consume(h[(i + 3) % 2][1]);
    // CHECK: :[[@LINE-1]]:13: warning: 'h[(i + 3) % 2]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  }
}
void indexXor(const float *d, float *h[2], cudaStream_t s, unsigned k) {
  cudaMemcpyAsync(h[k ^ 1u], d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[k][0]);
  consume(h[k ^ 1u][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h[k ^ 1u]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
// Two variables: nothing says they differ.
void indexTwoVariables(const float *d, float *h[2], cudaStream_t s, int a,
                       int b) {
  cudaMemcpyAsync(h[a], d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[b][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h[b]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}

// A helper handed the other slot: by its index, another element; its wait
// of the slot's event covers that slot's copy of the previous iteration
// (an event the check cannot tell apart from the one recorded).
struct Slot {
  float *host;
  cudaEvent_t ready;
};
void drain(const Slot &sl) {
  cudaEventSynchronize(sl.ready);
  consume(sl.host[0]);
}
void peek(const Slot &sl) { consume(sl.host[0]); }
void slotsDrainedByHelper(const float *d, Slot *slots, cudaStream_t s,
                          int n) {
  for (int b = 0; b < n; ++b) {
    const int cur = b & 1;
    cudaMemcpyAsync(slots[cur].host, d, 256, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(slots[cur].ready, s);
    if (b > 0)
      drain(slots[cur ^ 1]);
  }
  cudaStreamSynchronize(s);
}
void slotsPeekedUnwaited(const float *d, Slot *slots, cudaStream_t s, int n) {
  for (int b = 0; b < n; ++b) {
    const int cur = b & 1;
    cudaMemcpyAsync(slots[cur].host, d, 256, cudaMemcpyDeviceToHost, s);
    peek(slots[cur]);
    // CHECK: :[[@LINE-1]]:5: warning: 'slots[cur].host' is used by 'peek' before the asynchronous device-to-host copy into it is known to be complete
    if (b > 0)
      peek(slots[cur ^ 1]);
    // CHECK: :[[@LINE-1]]:7: warning: 'slots[cur ^ 1].host' is used by 'peek' before the asynchronous device-to-host copy into it is known to be complete
  }
  cudaStreamSynchronize(s);
}

// What may make two pointers one buffer again (a fresh helper's attempt to
// break the above; each was a miss of the first version).
// A swap written without a temporary leaves both naming one buffer.
void swapWithoutTemporary(const float *d, float *a, float *b, cudaStream_t s,
                          int n) {
  float *cur = a, *next = b;
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(next, d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(cur[0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
    next = cur;
    cur = next;
  }
}
// Equal on one path only.
void equalOnSomePath(const float *d, float *a, float *b, cudaStream_t s,
                     bool single) {
  float *cur = a, *next = b;
  if (single)
    cur = next;
  cudaMemcpyAsync(next, d, 256, cudaMemcpyDeviceToHost, s);
  consume(cur[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  std::swap(cur, next);
}
// Through a helper that returns its argument.
static float *same(float *p) { return p; }
void throughIdentity(const float *d, float *a, float *b, cudaStream_t s) {
  float *cur = a, *next = b;
  cur = same(next);
  cudaMemcpyAsync(next, d, 256, cudaMemcpyDeviceToHost, s);
  consume(cur[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  std::swap(cur, next);
}
// Halves of one allocation: `next` is an alias of `base`.
void halvesOfOne(const float *d, cudaStream_t s) {
  float *base;
  cudaMallocHost(&base, 512);
  float *cur = base, *next = base + 64;
  cudaMemcpyAsync(next, d, 256, cudaMemcpyDeviceToHost, s);
  cur += 64;
  consume(cur[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'cur' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  cur = base;
}
// Stored where no followed pointer holds it: not followed.
void storedInArray(const float *d, float *a, float *b, cudaStream_t s) {
  float *cur = a, *next = b;
  float *ptrs[2] = {cur, next};
  cudaMemcpyAsync(ptrs[1], d, 256, cudaMemcpyDeviceToHost, s);
  consume(next[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'next' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
  std::swap(cur, next);
}
// The array's elements, or the pointer to them, change after the copy.
void elementsSwapped(const float *d, float *bufs[2], cudaStream_t s,
                     int cur) {
  cudaMemcpyAsync(bufs[1 - cur], d, 256, cudaMemcpyDeviceToHost, s);
  std::swap(bufs[0], bufs[1]);
  consume(bufs[cur][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'bufs[cur]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
void ringAdvanced(const float *d, float **bufs, cudaStream_t s, int k) {
  float **ring = bufs;
  cudaMemcpyAsync(ring[k + 1], d, 256, cudaMemcpyDeviceToHost, s);
  ++ring;
  consume(ring[k][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'ring[k]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
// The index changed through an operator taking it by reference.
struct Flip {
  void operator()(int &c) const { c = 1 - c; }
};
void flippedByFunctor(const float *d, float *bufs[2], cudaStream_t s) {
  int cur = 0;
  Flip flip;
  cudaMemcpyAsync(bufs[1 - cur], d, 256, cudaMemcpyDeviceToHost, s);
  flip(cur);
  consume(bufs[cur][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'bufs[cur]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
// Unsigned arithmetic wraps; a narrowing cast may make two values one.
void unsignedModulo(const float *d, float *h[3], cudaStream_t s, unsigned k) {
  cudaMemcpyAsync(h[(k + 1) % 3], d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[k % 3][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h[k % 3]' is read before the asynchronous device-to-host copy into it is known to be complete
  consume(h[(k + 4) % 3][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h[(k + 4) % 3]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
void unsignedHalfTurn(const float *d, float **h, cudaStream_t s, unsigned k) {
  cudaMemcpyAsync(h[k + 2147483648u], d, 256, cudaMemcpyDeviceToHost, s);
  consume(h[k - 2147483648u][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'h[k - 2147483648u]' is read before the asynchronous device-to-host copy into it is known to be complete
  consume(h[k + 1u][0]);
  cudaStreamSynchronize(s);
}
void narrowed(const float *d, float **ring, cudaStream_t s, unsigned head) {
  cudaMemcpyAsync(ring[(uint8_t)(head + 256)], d, 256, cudaMemcpyDeviceToHost,
                  s);
  consume(ring[(uint8_t)head][0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'ring[(uint8_t)head]' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}
void notIndex(const float *d, float *bufs[2], cudaStream_t s, int n) {
  int cur = 0;
  for (int i = 1; i < n; ++i) {
    cudaMemcpyAsync(bufs[!cur], d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(bufs[cur][0]);
    cudaStreamSynchronize(s);
    cur = !cur;
  }
}

// Locals that stand for an element (FunctionFacts::definedAs): an index
// kept in its own variable (`const int nxt = 1 - cur;`), pointers taken from
// the slots (`float *dst = bufs[1 - cur];`), read where nothing since their
// definition changed what they read.
void nextIndexVariable(const float *d, float *bufs[2], cudaStream_t s, int n) {
  int cur = 0;
  cudaMemcpyAsync(bufs[0], d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (int i = 1; i < n; ++i) {
    const int nxt = 1 - cur;
    cudaMemcpyAsync(bufs[nxt], d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(bufs[cur][0]);
    cudaStreamSynchronize(s);
    cur = nxt;
  }
}

// cur changed after nxt was defined: both now name the same slot.
void nextIndexVariableChangedBetween(const float *d, float *bufs[2],
                                     cudaStream_t s, int n) {
  int cur = 0;
  for (int i = 1; i < n; ++i) {
    int nxt = 1 - cur;
    cur = nxt;
    cudaMemcpyAsync(bufs[nxt], d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(bufs[cur][0]);
    // CHECK: :[[@LINE-1]]:13: warning: 'bufs[cur]' is read before the asynchronous device-to-host copy into it is known to be complete
    cudaStreamSynchronize(s);
  }
}

void localPointersFromIndices(const float *d, float *bufs[2], cudaStream_t s,
                              int n) {
  int cur = 0;
  cudaMemcpyAsync(bufs[0], d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (int i = 1; i < n; ++i) {
    float *dst = bufs[1 - cur];
    float *src = bufs[cur];
    cudaMemcpyAsync(dst, d + i * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(src[0]);
    cudaStreamSynchronize(s);
    cur = 1 - cur;
  }
}

void localPointersSameIndex(const float *d, float *bufs[2], cudaStream_t s,
                            int cur) {
  float *dst = bufs[cur];
  float *src = bufs[cur];
  cudaMemcpyAsync(dst, d, 256, cudaMemcpyDeviceToHost, s);
  consume(src[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'src' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}

// The index changed between the two definitions: src is dst's slot.
void localPointersIndexChangedBetween(const float *d, float *bufs[2],
                                      cudaStream_t s, int cur) {
  float *dst = bufs[1 - cur];
  cur = 1 - cur;
  float *src = bufs[cur];
  cudaMemcpyAsync(dst, d, 256, cudaMemcpyDeviceToHost, s);
  consume(src[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'src' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}

// The slots changed after dst was taken: src may be dst's buffer.
void localPointersSlotsChanged(const float *d, float *bufs[2], cudaStream_t s,
                               int cur) {
  float *dst = bufs[1 - cur];
  bufs[cur] = dst;
  float *src = bufs[cur];
  cudaMemcpyAsync(dst, d, 256, cudaMemcpyDeviceToHost, s);
  consume(src[0]);
  // CHECK: :[[@LINE-1]]:11: warning: 'src' is read before the asynchronous device-to-host copy into it is known to be complete
  cudaStreamSynchronize(s);
}

void loopLocalRingPointers(const float *d, float *h[2], cudaStream_t s,
                           int n) {
  cudaMemcpyAsync(h[0], d, 256, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (int i = 0; i < n; ++i) {
    float *cur = h[i % 2];
    float *next = h[(i + 1) % 2];
    cudaMemcpyAsync(next, d + (i + 1) * 64, 256, cudaMemcpyDeviceToHost, s);
    consume(cur[0]);
    cudaStreamSynchronize(s);
  }
}
