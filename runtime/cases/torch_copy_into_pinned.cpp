// copy_(gpu, /*non_blocking=*/true) into a pinned CPU tensor, read right after.
//
// semantics.md row: libtorch, dst.copy_(src, non_blocking=true) into a pinned dst, read right after
// Expected on the GPU: the access reads stale data (the sentinel)
// Expected from the check: warns at the access
//
// Twin: torch_copy_into_pinned_fixed.cpp
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <torch/types.h>

static void scenario() {
  auto gpu = torch::empty({rt::kElems}, torch::TensorOptions().device(torch::kCUDA));
  auto pinned = torch::empty({rt::kElems}, torch::TensorOptions().pinned_memory(true));
  int gen = rt::next_generation();
  rt::prime(pinned);
  rt::produce(gpu, gen);
  pinned.copy_(gpu, /*non_blocking=*/true);
  float v = pinned[0].item<float>(); // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v, gen);
  torch::cuda::synchronize();
}

RT_MAIN()
