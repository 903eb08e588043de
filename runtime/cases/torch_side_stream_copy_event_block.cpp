// The fix of torch_side_stream_copy_no_wait.cpp: an at::cuda::CUDAEvent recorded on the current
// stream after the producer, and block()ed on by the side stream before the copy (what Python's
// side.wait_stream(torch.cuda.current_stream()) does).
//
// semantics.md row: libtorch, copy under CUDAStreamGuard on a pool stream after CUDAEvent record on the default stream and block(side)
// Expected on the GPU: fresh data
// Expected from the check: silent
//
// Twin: torch_side_stream_copy_no_wait.cpp
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/types.h>

static void scenario() {
  auto b = torch::empty({rt::kElems}, torch::TensorOptions().device(torch::kCUDA));
  rt::prime_device(b);
  auto side = c10::cuda::getStreamFromPool();
  int gen = rt::next_generation();
  at::cuda::sleep(rt::kDelayCycles);
  b.fill_(rt::fresh(gen));
  at::cuda::CUDAEvent written;
  written.record(c10::cuda::getCurrentCUDAStream());
  written.block(side);
  torch::Tensor tmp;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    tmp = b.to(torch::kCPU, /*non_blocking=*/true); // copy: read
  }
  side.synchronize();
  float v = tmp[0].item<float>(); // access: read
  rt::observe("read", v, gen);
}

RT_MAIN()
