// A blocking read of a GPU tensor (.item() of a reduction of the copy's source) between the copy and the read.
//
// semantics.md row: libtorch, .item() of a GPU tensor (it synchronizes the current stream) before the read
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: torch_copy_into_pinned.cpp (no synchronization at all)
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <torch/types.h>

static void scenario() {
  auto b = torch::empty({rt::kElems}, torch::TensorOptions().device(torch::kCUDA));
  int gen = rt::next_generation();
  rt::produce(b, gen);
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  float loss = b.sum().item<float>(); // copies to the host, waits for the current stream
  float v = tmp[0].item<float>(); // access: read
  rt::observe("read", v, gen);
  (void)loss;
}

RT_MAIN()
