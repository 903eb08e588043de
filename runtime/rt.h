// rt.h - the runtime harness for runtime/cases/*.cu.
//
// A case is a complete CUDA program whose scenario() function reads like user
// code: it allocates, asks the harness to prime the host destination with a
// sentinel (rt::prime) and to produce fresh data on the device behind a delay
// kernel on the copy's stream (rt::produce), enqueues the asynchronous
// device-to-host copy, then touches the destination at lines marked
// `// access: <id>`. The value seen there is handed to rt::observe on a later
// line, never the buffer itself, so the harness adds no access of its own.
//
// Everything here must stay invisible to cuda-async-read-before-sync: no
// function in this header enqueues a copy, so the check analyses none of them.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// How many GPUs a case needs: a case of several devices defines it (to 2)
// before including this header; on a machine with fewer, it prints
// `RT skip: ...` and measures nothing (runtime/agree.py records nothing for
// it there, and keeps what a machine with them measured).
#ifndef RT_DEVICES
#define RT_DEVICES 1
#endif

namespace rt {

// 4 MiB of float, as in docs/semantics.md.
constexpr std::size_t kElems = std::size_t(1) << 20;
constexpr std::size_t kBytes = kElems * sizeof(float);
// How long the delay kernel spins before it writes the fresh pattern.
constexpr long long kDelayNs = 30LL * 1000 * 1000;
// What the host buffer holds before the copy lands. Never a fresh value.
constexpr float kSentinel = -1.0e30f;

// The fresh pattern: element i of generation gen. Exact in float, never the
// sentinel, different for neighbouring generations.
__host__ __device__ inline float fresh(std::size_t i, int gen) {
  return float(1 + (i % 4096)) + 8192.0f * float(gen % 64 + 1);
}

__device__ inline unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins for `ns` nanoseconds, then writes generation `gen` of the pattern.
__global__ void delay_then_fill(float *d, std::size_t n, long long ns,
                                int gen) {
  unsigned long long start = globaltimer();
  // The cap only guards against a timer that never advances.
  for (unsigned iters = 0;
       globaltimer() - start < (unsigned long long)ns && iters < (1u << 28);
       ++iters) {
  }
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
       i < n; i += std::size_t(gridDim.x) * blockDim.x)
    d[i] = fresh(i, gen);
}

// "A kernel produces d on stream s": the delay kernel, ahead of the copy.
inline void produce(float *d, std::size_t n, cudaStream_t s, int gen = 0) {
  delay_then_fill<<<264, 256, 0, s>>>(d, n, kDelayNs, gen);
}

// Fill the host destination with the sentinel. Called before the copy.
inline void prime(float *h, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    h[i] = kSentinel;
}

// ---------------------------------------------------------------------------
// Bookkeeping: one record per access id, in order of first observation.
struct Record {
  std::string id;
  int stale = 0;  // saw the sentinel / an older generation / lost the write
  int fresh = 0;  // saw exactly the expected fresh value
  int other = 0;  // saw something else (torn copy, garbage)
  int total = 0;
};

inline std::vector<Record> &records() {
  static std::vector<Record> r;
  return r;
}

inline Record &record(const char *id) {
  for (Record &r : records())
    if (r.id == id)
      return r;
  records().push_back(Record());
  records().back().id = id;
  return records().back();
}

// A read: `v` is the value the marked access read at element `index`; the
// device produced generation `gen`.
inline void observe(const char *id, float v, std::size_t index = 0,
                    int gen = 0) {
  Record &r = record(id);
  ++r.total;
  if (v == fresh(index, gen))
    ++r.fresh;
  else if (v == kSentinel || (gen > 0 && v == fresh(index, gen - 1)))
    ++r.stale;
  else
    ++r.other;
}

// A write: the marked access stored `written`; `now` is the element read back
// after a synchronization. "Stale" means the copy landed on top of the write.
inline void observe_write(const char *id, float now, float written,
                          std::size_t index = 0) {
  Record &r = record(id);
  ++r.total;
  if (now == written)
    ++r.fresh;
  else if (now == fresh(index, 0))
    ++r.stale;
  else
    ++r.other;
}

inline int check(const char *what) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess)
    e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "rt: CUDA error after %s: %s\n", what,
                 cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

// The runner: `case [-n REPS]` (or RT_REPS). Runs the scenario REPS times and
// prints one line per access:
//   RT access=<id> stale=<k> fresh=<f> other=<o> total=<t>
inline int main(int argc, char **argv, void (*scenario)()) {
  int reps = 5;
  if (const char *e = std::getenv("RT_REPS"))
    reps = std::atoi(e);
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "-n") == 0)
      reps = std::atoi(argv[i + 1]);
  if (reps < 1)
    reps = 1;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
    std::fprintf(stderr, "rt: no usable CUDA device\n");
    return 3;
  }
  if (devices < RT_DEVICES) {
    std::printf("RT skip: needs %d devices, this machine has %d\n",
                RT_DEVICES, devices);
    return 0;
  }
  // Create each context and warm the delay kernel up outside the scenario
  // (device 0 is current at the scenario's start).
  int bad = 0;
  for (int dev = RT_DEVICES - 1; dev >= 0 && !bad; --dev) {
    float *warm = nullptr;
    cudaSetDevice(dev);
    if (cudaMalloc(&warm, 1024 * sizeof(float)) != cudaSuccess) {
      std::fprintf(stderr, "rt: device %d is not usable\n", dev);
      return 3;
    }
    delay_then_fill<<<1, 32>>>(warm, 1024, 0, 0);
    bad = check("warm-up");
    cudaFree(warm);
  }
  for (int rep = 0; rep < reps && !bad; ++rep) {
    scenario();
    bad = check("scenario");
  }
  std::printf("RT reps=%d\n", reps);
  for (const Record &r : records())
    std::printf("RT access=%s stale=%d fresh=%d other=%d total=%d\n",
                r.id.c_str(), r.stale, r.fresh, r.other, r.total);
  std::fflush(stdout);
  return bad ? 2 : 0;
}

} // namespace rt

// Each case defines `static void scenario()` and ends with RT_MAIN().
#define RT_MAIN()                                                              \
  int main(int argc, char **argv) { return rt::main(argc, argv, scenario); }
