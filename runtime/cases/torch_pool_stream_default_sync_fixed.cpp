// The copy runs on a pool stream (CUDAStreamGuard); that stream is synchronized before the read.
//
// semantics.md row: libtorch, copy under CUDAStreamGuard on a pool stream, then synchronize() of that stream
// Expected on the GPU: the access reads the fresh data
// Expected from the check: silent
//
// Twin: torch_pool_stream_default_sync.cpp
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/types.h>

static void scenario() {
  auto b = torch::empty({rt::kElems}, torch::TensorOptions().device(torch::kCUDA));
  int gen = rt::next_generation();
  auto side = c10::cuda::getStreamFromPool();
  torch::Tensor tmp;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    rt::produce(b, gen);
    tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  }
  side.synchronize();
  float v = tmp[0].item<float>(); // access: read
  rt::observe("read", v, gen);
}

RT_MAIN()
