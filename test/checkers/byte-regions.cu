// Slices of one pinned buffer (ByteRegions.h): a copy writes only its
// bytes, from its destination pointer on, so a host access by a constant
// offset outside them is not a race. Offsets and counts are followed where
// they are constants (or locals initialised with constants) and the root
// pointer keeps its value; anything else is the whole buffer, as before.
//
// RUN: %clang_tidy_cars %s -- %cuda_mock_flags -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

void consume(const float *, int);
void consumeValue(float);

//===--- Constant offsets into one arena ------------------------------------===//

// Elements 256 to 511 are in flight; element 0 and element 512 are not.
void arenaSliceOtherSlices(const float *d, cudaStream_t s) {
  float *arena;
  cudaMallocHost(&arena, 4096);
  cudaMemcpyAsync(arena + 256, d, 256 * sizeof(float), cudaMemcpyDeviceToHost,
                  s);
  consumeValue(arena[0]);
  consumeValue(arena[512]);
  arena[1] = 2.0f;
  consumeValue(*(arena + 10));
  consumeValue(arena[300]);
  // CHECK: :[[@LINE-1]]:16: warning: 'arena' is read before the asynchronous
  consumeValue(*(arena + 511));
  // CHECK: :[[@LINE-1]]:16: warning: 'arena' is read before the asynchronous
  cudaStreamSynchronize(s);
}

// The first and last elements of the copied bytes.
void arenaSliceEdges(const float *d, cudaStream_t s) {
  float *arena;
  cudaMallocHost(&arena, 4096);
  int n = 64;
  size_t bytes = n * sizeof(float);
  cudaMemcpyAsync(&arena[64], d, bytes, cudaMemcpyDeviceToHost, s);
  consumeValue(arena[63]);
  consumeValue(arena[128]);
  consumeValue(arena[64]);
  // CHECK: :[[@LINE-1]]:16: warning: 'arena' is read before the asynchronous
  consumeValue(arena[127]);
  // CHECK: :[[@LINE-1]]:16: warning: 'arena' is read before the asynchronous
  cudaStreamSynchronize(s);
}

// A count not known here writes every byte from the offset on, none before.
void arenaSliceUnknownCount(const float *d, size_t bytes, cudaStream_t s) {
  float *arena;
  cudaMallocHost(&arena, 4096);
  cudaMemcpyAsync(arena + 512, d, bytes, cudaMemcpyDeviceToHost, s);
  consumeValue(arena[0]);
  consumeValue(arena[1000]);
  // CHECK: :[[@LINE-1]]:16: warning: 'arena' is read before the asynchronous
  cudaStreamSynchronize(s);
}

// Byte offsets through a char view of the arena: the header is the first
// 16 bytes, the payload is copied after it.
struct Header {
  int count, flags, pad0, pad1;
};
void arenaBytesThroughCasts(void *base, const float *d, cudaStream_t s) {
  cudaMemcpyAsync(static_cast<char *>(base) + sizeof(Header), d, 1024,
                  cudaMemcpyDeviceToHost, s);
  consumeValue(static_cast<float>(static_cast<Header *>(base)->count));
  static_cast<Header *>(base)->flags = 1;
  consumeValue(static_cast<float *>(base)[2]);
  consumeValue(static_cast<float *>(base)[4]);
  // CHECK: :[[@LINE-1]]:16: warning: 'base' is read before the asynchronous
  cudaStreamSynchronize(s);
}

// Two slices on two streams: the one synchronized is fresh, the other is
// still in flight.
void arenaTwoStreams(const float *d, cudaStream_t s0, cudaStream_t s1) {
  float *arena;
  cudaMallocHost(&arena, 2048 * sizeof(float));
  cudaMemcpyAsync(arena, d, 1024 * sizeof(float), cudaMemcpyDeviceToHost, s0);
  cudaMemcpyAsync(arena + 1024, d + 1024, 1024 * sizeof(float),
                  cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s0);
  consumeValue(arena[0]);
  consumeValue(arena[1024]);
  // CHECK: :[[@LINE-1]]:16: warning: 'arena' is read before the asynchronous
  cudaStreamSynchronize(s1);
}

//===--- What is still the whole buffer -------------------------------------===//

// The root pointer moves between the copy and the read: `p[0]` is then
// `arena[256]`, inside the copy.
void movedRoot(const float *d, cudaStream_t s) {
  float *arena;
  cudaMallocHost(&arena, 4096);
  float *p = arena;
  cudaMemcpyAsync(p + 256, d, 1024, cudaMemcpyDeviceToHost, s);
  p = arena + 256;
  consumeValue(p[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'p' is read before the asynchronous
  cudaStreamSynchronize(s);
}

void movedRootByIncrement(const float *d, cudaStream_t s) {
  float *arena;
  cudaMallocHost(&arena, 4096);
  float *p = arena;
  cudaMemcpyAsync(p + 256, d, 1024, cudaMemcpyDeviceToHost, s);
  p += 256;
  consumeValue(p[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'p' is read before the asynchronous
  cudaStreamSynchronize(s);
}

// Handed whole to a function, read by an index not known, or through a
// second pointer into the arena: any byte may be read.
void wholeBufferUses(const float *d, cudaStream_t s, int i) {
  float *arena;
  cudaMallocHost(&arena, 4096);
  float *payload = arena + 256;
  cudaMemcpyAsync(arena + 256, d, 1024, cudaMemcpyDeviceToHost, s);
  consume(arena, 4);
  // CHECK: :[[@LINE-1]]:11: warning: 'arena' is passed to 'consume' before the asynchronous
  consumeValue(arena[i]);
  // CHECK: :[[@LINE-1]]:16: warning: 'arena' is read before the asynchronous
  consumeValue(payload[0]);
  // CHECK: :[[@LINE-1]]:16: warning: 'payload' is read before the asynchronous
  cudaStreamSynchronize(s);
}
