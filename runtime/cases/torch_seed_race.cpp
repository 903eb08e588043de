// The seed in libtorch C++: in a loop, the pinned result of a non_blocking copy is consumed before torch::cuda::synchronize().
//
// semantics.md row: libtorch C++ on the GPU machine, the seed's loop (a.copy_(b.to(cpu, kBFloat16, non_blocking)) before torch::cuda::synchronize())
// Expected on the GPU: every iteration consumes stale data (a pinned block the copy has yet to fill)
// Expected from the check: warns at the access
//
// Twin: torch_seed_fixed_sync.cpp, torch_seed_fixed_event.cpp
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <torch/types.h>

// The seed's shapes: b is a bf16 model output on the GPU, a a float32 CPU
// tensor (pageable: .to(kCPU, non_blocking) allocates the pinned temporary).
// In PyTorch: a[:] = b.to('cpu', non_blocking=True); torch.cuda.synchronize()
static void scenario() {
  auto b = torch::empty({13223, 134, 4}, torch::TensorOptions()
                                             .device(torch::kCUDA)
                                             .dtype(torch::kBFloat16));
  auto a = torch::empty({13223, 134, 4});
  const float *pa = a.data_ptr<float>();
  for (int step = 0; step < 3; ++step) {
    int gen = rt::next_generation();
    rt::produce(b, gen);
    a.copy_(b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true)); // access: consume
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
    torch::cuda::synchronize();
    rt::observe("consume", pa[0], gen);
  }
}

RT_MAIN()
