// One style for every finding (issue 27): libtorch messages name a buffer
// as the user wrote it -- the variable that holds the copy where there is
// one -- and an expression with no name shortly (at most 40 characters: the
// call's arguments elided, then cut at a member access with "..."); the
// producer diagnostic's note is short and names the copy's own API, never
// Python's (test/checkers/python/names.py and producers.py: the Python
// front end's side).
//
// RUN: %clang_tidy_cars %s -- %torch_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not=wait_stream \
// RUN:       --implicit-check-not=Python --implicit-check-not=cudaStreamWaitEvent

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/cuda.h>
#include <torch/torch.h>

void use(const torch::Tensor &t);

// The variable that holds the copy.
void namedDestination(const torch::Tensor &b) {
  auto temp = b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true);
  use(temp);
  // CHECK: :[[@LINE-1]]:7: warning: 'temp' is passed to 'use' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-3]]:15: note: asynchronous device-to-host copy into 'temp' on the legacy default stream is issued here
  torch::cuda::synchronize();
}

// No variable: the expression, its arguments elided (it was the 60
// characters of `b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true)`).
void temporaryDestination(torch::Tensor a, const torch::Tensor &b) {
  a.copy_(b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true));
  // CHECK: :[[@LINE-1]]:11: warning: 'b.to(...)' is passed to 'copy_' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-2]]:11: note: asynchronous device-to-host copy into 'b.to(...)' on the legacy default stream is issued here
  torch::cuda::synchronize();
}

// Still longer than 40 characters without the arguments: cut at a member
// access, with an ellipsis.
struct ModelOutputs {
  torch::Tensor logits_of_the_final_layer;
};
void longTemporary(torch::Tensor a, const ModelOutputs &outputs_of_the_model) {
  a.copy_(outputs_of_the_model.logits_of_the_final_layer.to(torch::kCPU, true));
  // CHECK: :[[@LINE-1]]:11: warning: 'outputs_of_the_model...' is passed to 'copy_' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-2]]:11: note: asynchronous device-to-host copy into 'outputs_of_the_model...' on the legacy default stream is issued here
  torch::cuda::synchronize();
}

// The producer diagnostic of a libtorch copy: its note names libtorch's
// calls, in under 120 characters.
void sideStreamCopy(torch::Tensor b, torch::Tensor a) {
  auto side = c10::cuda::getStreamFromPool();
  b.fill_(2.0);
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:12: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the legacy default stream has finished [cuda-async-read-before-sync]
  // CHECK: :[[@LINE-4]]:3: note: 'b' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:12: note: nothing makes stream 'side' wait for the write: use CUDAEvent::record + CUDAEvent::block{{$}}
  side.synchronize();
  a.copy_(t);
}
