// gen.h - what the generated programs of runtime/gen/ need on top of rt.h.
//
// Holds: a runtime int the check cannot see through (gen::rt_int), a device
// buffer primed with the sentinel before the scenario's first copy
// (gen::prime_device), a delay kernel that writes nothing (gen::spin: keeps a
// copy issued on a stream other than its producer's in flight), the value a
// generation leaves in element 0 (gen::value_of), the tally of each marked
// read against the value expected in program order (gen::hits, gen::seen,
// gen::flush; gen::observe_last_write for writes), and the runner of one scenario of a batch chosen
// on the command line (GEN_MAIN).
// May call: rt.h and the CUDA runtime API. Nothing here enqueues a
// device-to-host copy, so, as rt.h, it stays invisible to
// cuda-async-read-before-sync: prime_device synchronizes, but is called
// before the scenario's first copy; spin writes no buffer.
#pragma once

#include "rt.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gen {

// An int whose value the check cannot know: read through a volatile.
inline int rt_int(int v) {
  static volatile int cell;
  cell = v;
  return cell;
}

__global__ void fill_sentinel(float *d, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
       i < n; i += std::size_t(gridDim.x) * blockDim.x)
    d[i] = rt::kSentinel;
}

__global__ void spin(long long ns) {
  unsigned long long start = rt::globaltimer();
  for (unsigned iters = 0;
       rt::globaltimer() - start < (unsigned long long)ns && iters < (1u << 28);
       ++iters) {
  }
}

// The device buffer := the sentinel, and the device idle. Called before the
// scenario's first copy, so a copy that reads it before its producer wrote
// it copies the sentinel. Also launches spin once: under lazy module loading
// a kernel's first launch may wait for earlier work (docs/semantics.md,
// harness note), which would hide a race in the first repetition.
inline void prime_device(float *d, std::size_t n) {
  fill_sentinel<<<264, 256>>>(d, n);
  spin<<<1, 1>>>(0);
  cudaDeviceSynchronize();
}

// How long gen::spin runs ahead of a copy issued on another stream than its
// producer's, to keep that copy in flight: 10 ms, a third of rt::produce's.
// Launched directly in the scenario (`gen::spin<<<1, 1, 0, s>>>(gen::kSpinNs)`),
// not through a helper: a helper handed stream 0 as its stream argument ends
// the check's producer claims (found while building this harness).
constexpr long long kSpinNs = 10LL * 1000 * 1000;

// What the pinned upload buffer (the source of host-to-device copies) holds:
// neither the sentinel nor a generation of rt::fresh.
constexpr float kUpload = 3.0f;

inline void fill_upload(float *up, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    up[i] = kUpload;
}

// What element 0 holds after the device buffer got generation g: g >= 0 the
// fresh pattern, -1 the zeros of a cudaMemset, -2 the sentinel of
// prime_device, -3 the upload buffer's value.
inline float value_of(int g) {
  return g >= 0 ? rt::fresh(0, g) : g == -1 ? 0.0f : g == -2 ? rt::kSentinel : kUpload;
}

// The tally of the marked reads. A read is followed by two plain additions,
//   gen::hits[k] += v == ex_h;  gen::seen[k] += 1;
// not by a call: a call of a function whose body calls what the check cannot
// see (rt::record's std::string and std::vector) ends the check's claims on
// device work, so rt::observe between a producer and its copy would hide the
// producer diagnostic (found while building this harness). The counts go to
// rt.h's records after the scenario's final synchronization (gen::flush).
constexpr int kSlots = 256;
inline int hits[kSlots];
inline int seen[kSlots];

// Slot k's reads, as access `id`: fresh = saw the value program order
// expected, stale = anything else (the sentinel, an older generation, a
// write that was overwritten). Resets the slot.
inline void flush(int k, const char *id) {
  if (seen[k] > 0) {
    rt::Record &r = rt::record(id);
    r.total += seen[k];
    r.fresh += hits[k];
    r.stale += seen[k] - hits[k];
  }
  hits[k] = seen[k] = 0;
}

// After the final synchronization: `id` is the marked write that was the
// last to touch the buffer in program order (null: a copy was, nothing to
// observe), `now` the element read back, `expected` the value written.
inline void observe_last_write(const char *id, float now, float expected) {
  if (id == nullptr)
    return;
  rt::Record &r = rt::record(id);
  ++r.total;
  if (now == expected)
    ++r.fresh;
  else
    ++r.stale;
}

using Scenario = void (*)();
struct Entry {
  long seed;
  Scenario fn;
};

// `prog -s SEED [-n REPS]`: runs scenario SEED of the batch (rt::main's
// runner and output); `prog -l` lists the seeds.
inline int main(int argc, char **argv, const Entry *table, int count) {
  long want = count > 0 ? table[0].seed : -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-l") == 0) {
      for (int k = 0; k < count; ++k)
        std::printf("%ld\n", table[k].seed);
      return 0;
    }
    if (std::strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      want = std::atol(argv[i + 1]);
  }
  for (int k = 0; k < count; ++k)
    if (table[k].seed == want) {
      std::printf("GEN scenario=%ld\n", want);
      return rt::main(argc, argv, table[k].fn);
    }
  std::fprintf(stderr, "gen: no scenario %ld in this program (-l lists them)\n", want);
  return 2;
}

} // namespace gen

#define GEN_MAIN(...)                                                          \
  int main(int argc, char **argv) {                                            \
    static const gen::Entry table[] = {__VA_ARGS__};                           \
    return gen::main(argc, argv, table, int(sizeof table / sizeof table[0]));  \
  }
