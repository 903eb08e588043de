// copy_(gpu, /*non_blocking=*/true) into a pinned CPU tensor; the current stream is synchronized before the read.
//
// semantics.md row: libtorch, dst.copy_(src, non_blocking=true) into a pinned dst, getCurrentCUDAStream().synchronize() before the read
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: torch_copy_into_pinned.cpp
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <c10/cuda/CUDAStream.h>
#include <torch/types.h>

static void scenario() {
  auto gpu = torch::empty({rt::kElems}, torch::TensorOptions().device(torch::kCUDA));
  auto pinned = torch::empty({rt::kElems}, torch::TensorOptions().pinned_memory(true));
  int gen = rt::next_generation();
  rt::prime(pinned);
  rt::produce(gpu, gen);
  pinned.copy_(gpu, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  float v = pinned[0].item<float>(); // access: read
  rt::observe("read", v, gen);
}

RT_MAIN()
