// The fix-it in libtorch (real headers): the guard's stream variable where
// it is in scope and unchanged at the access, else torch::cuda::synchronize().
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 \
// RUN:   -isystem /usr/include/torch/csrc/api/include \
// RUN:   -isystem %inputs/torch-real-standin -isystem %cuda_path/include \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fixed.cpp
// RUN: %clang_tidy_cars --fix-notes --fix %t/fixed.cpp -- -x c++ -std=c++17 \
// RUN:   -isystem /usr/include/torch/csrc/api/include \
// RUN:   -isystem %inputs/torch-real-standin -isystem %cuda_path/include > /dev/null 2>&1
// RUN: %clang_tidy_cars %t/fixed.cpp -- -x c++ -std=c++17 \
// RUN:   -isystem /usr/include/torch/csrc/api/include \
// RUN:   -isystem %inputs/torch-real-standin -isystem %cuda_path/include \
// RUN:   | FileCheck %s --check-prefix=AFTER --allow-empty
// AFTER-NOT: warning:
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/cuda.h>
#include <torch/types.h>
float f(const torch::Tensor &b) {
  auto side = c10::cuda::getStreamFromPool();
  torch::Tensor t;
  {
    c10::cuda::CUDAStreamGuard g(side);
    t = b.to(torch::kCPU, true);
  }
  return t[0].item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: 't' is read before
  // CHECK: :[[@LINE-2]]:3: note: insert 'side.synchronize();' before the access to wait for the copy
}
float g(const torch::Tensor &b) {
  auto t = b.to(torch::kCPU, true);
  return t[0].item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: 't' is read before
  // CHECK: :[[@LINE-2]]:3: note: insert 'torch::cuda::synchronize();' before the access to wait for the copy
}
