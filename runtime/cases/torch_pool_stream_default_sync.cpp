// The copy runs on a pool stream (CUDAStreamGuard); only the default stream is synchronized before the read.
//
// semantics.md row: libtorch, copy under CUDAStreamGuard on a pool stream (non-blocking), then getCurrentCUDAStream().synchronize() of the default stream
// Expected on the GPU: the access reads stale data: pool streams are created non-blocking, the legacy default stream does not wait for them
// Expected from the check: warns at the access
//
// Twin: torch_pool_stream_default_sync_fixed.cpp
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
  at::cuda::getCurrentCUDAStream().synchronize();
  float v = tmp[0].item<float>(); // access: read
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
  rt::observe("read", v, gen);
  side.synchronize();
}

RT_MAIN()
