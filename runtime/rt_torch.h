// rt_torch.h - the runtime harness for runtime/cases/torch_*.cpp (libtorch).
//
// The libtorch counterpart of rt.h. A torch case is a complete C++ program
// built with g++ against PyTorch's own headers and libraries (no nvcc, so no
// kernel of our own). Its scenario() reads like user code: it makes its
// tensors, asks the harness to produce fresh data on the device behind a delay
// on the current stream (rt::produce), issues the non_blocking device-to-host
// copy with the torch API, and touches the destination at lines marked
// `// access: <id>`. The value seen there is handed to rt::observe on a later
// line, never the tensor, so the harness adds no access of its own.
//
// The delay is at::cuda::sleep, PyTorch's own spin kernel (what Python calls
// torch.cuda._sleep), enqueued on the current stream: the tensor is filled
// with the generation's value only after it. The values are small integers,
// exact in bfloat16, so the seed's bf16 -> float32 path can be checked exactly.
//
// Everything here must stay invisible to cuda-async-read-before-sync: no
// function in this header issues a device-to-host copy, and none synchronizes
// after one, so the check sees each case exactly as it would see a user's code.
// The output format is rt.h's: agree.py parses both the same way.
#pragma once

#include <ATen/ATen.h>
#include <ATen/cuda/Sleep.h>
#include <torch/cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace rt {

// 4 MiB of float, as in rt.h.
constexpr int64_t kElems = int64_t(1) << 20;
// at::cuda::sleep spins for SM clock cycles: 60 M cycles last 30 ms at the
// H200's top clock (1.98 GHz) and longer at any lower one.
constexpr int64_t kDelayCycles = 60LL * 1000 * 1000;
// What a destination holds before the copy lands. Exact in bf16, never fresh.
constexpr float kSentinel = -4096.0f;

// The fresh value of generation gen: a small integer, exact in bf16 and float,
// different for neighbouring generations.
inline float fresh(int gen) { return float(gen % 64 + 1); }

// A generation number that keeps growing across the repetitions, so that a
// buffer reused by PyTorch's caching host allocator never holds, from an
// earlier repetition, the value this one expects.
inline int next_generation() {
  static int gen = 0;
  return gen++;
}

// "A kernel produces d on the current stream": the delay, then the fill.
inline void produce(const at::Tensor &d, int gen = 0) {
  at::cuda::sleep(kDelayCycles);
  d.fill_(fresh(gen));
}

// Fill a host tensor with the sentinel. Called before the copy.
inline void prime(const at::Tensor &h) { h.fill_(kSentinel); }

// Fill a device tensor with the sentinel and wait for it. Called before the
// copy (and before rt::produce), so the old contents are known exactly.
inline void prime_device(const at::Tensor &d) {
  d.fill_(kSentinel);
  torch::cuda::synchronize();
}

// ---------------------------------------------------------------------------
// Bookkeeping: one record per access id, in order of first observation.
struct Record {
  std::string id;
  int stale = 0;  // saw the sentinel / the previous generation
  int fresh = 0;  // saw exactly the expected fresh value
  int other = 0;  // saw something else (a never-written pinned block, torn)
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

// A read: `v` is the value the marked access read; the device produced
// generation `gen`.
inline void observe(const char *id, float v, int gen = 0) {
  Record &r = record(id);
  ++r.total;
  if (v == fresh(gen))
    ++r.fresh;
  else if (v == kSentinel || (gen > 0 && v == fresh(gen - 1)))
    ++r.stale;
  else
    ++r.other;
}

// The runner: `case [-n REPS]` (or RT_REPS). Runs the scenario REPS times and
// prints one line per access, as rt.h does:
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
  int bad = 0;
  try {
    if (!torch::cuda::is_available()) {
      std::fprintf(stderr, "rt: no usable CUDA device\n");
      return 3;
    }
    // Create the context, load the kernels and warm the allocators up
    // outside the scenario.
    at::Tensor warm =
        at::empty({1024}, at::TensorOptions().device(at::kCUDA));
    at::cuda::sleep(0);
    warm.fill_(0.0f);
    torch::cuda::synchronize();
    for (int rep = 0; rep < reps; ++rep) {
      scenario();
      torch::cuda::synchronize();
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rt: torch error: %s\n", e.what());
    bad = 1;
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
