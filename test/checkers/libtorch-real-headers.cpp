// libtorch against Debian's real headers (libtorch-dev 1.13, a CPU build
// whose c10/cuda headers need a one-line stand-in for a generated file), where
// installed: the seed is flagged and its fixes are silent, as with the mock.
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 \
// RUN:   -isystem /usr/include/torch/csrc/api/include \
// RUN:   -isystem %inputs/torch-real-standin -isystem %cuda_path/include \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/cuda.h>
#include <torch/torch.h>

void seed(torch::Tensor a, const torch::Tensor &b) {
  for (int i = 0; i < 3; ++i) {
    a.copy_(b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true));
    // CHECK: :[[@LINE-1]]:13: warning: 'b.to(...)' is passed to 'copy_' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    torch::cuda::synchronize();
  }
}

void seedFixedBySync(torch::Tensor a, const torch::Tensor &b) {
  auto tmp = b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true);
  torch::cuda::synchronize();
  a.copy_(tmp);
}

void seedFixedByEvent(torch::Tensor a, const torch::Tensor &b) {
  at::cuda::CUDAEvent copied;
  auto tmp = b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true);
  copied.record();
  copied.synchronize();
  a.copy_(tmp);
}

void pinnedCopyRead(const torch::Tensor &gpu) {
  auto pinned = torch::empty({64}, torch::TensorOptions().pinned_memory(true));
  pinned.copy_(gpu, /*non_blocking=*/true);
  float s = pinned.sum().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'pinned' is read before the asynchronous
  at::cuda::getCurrentCUDAStream().synchronize();
  float t = pinned.sum().item<float>();
}
