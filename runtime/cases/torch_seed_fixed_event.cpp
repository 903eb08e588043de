// The seed in libtorch C++, fixed with an event: an at::cuda::CUDAEvent recorded after the copy is synchronized before the consumer.
//
// semantics.md row: libtorch C++ on the GPU machine, the seed's loop, CUDAEvent record() after the copy, then synchronize()
// Expected on the GPU: every iteration consumes the fresh data
// Expected from the check: silent
//
// Twin: torch_seed_race.cpp
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <ATen/cuda/CUDAEvent.h>
#include <torch/types.h>

static void scenario() {
  auto b = torch::empty({13223, 134, 4}, torch::TensorOptions()
                                             .device(torch::kCUDA)
                                             .dtype(torch::kBFloat16));
  auto a = torch::empty({13223, 134, 4});
  const float *pa = a.data_ptr<float>();
  for (int step = 0; step < 3; ++step) {
    int gen = rt::next_generation();
    rt::produce(b, gen);
    at::cuda::CUDAEvent copied;
    auto tmp = b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true);
    copied.record(); // on the current stream, after the copy
    copied.synchronize();
    a.copy_(tmp); // access: consume
    rt::observe("consume", pa[0], gen);
  }
}

RT_MAIN()
