// The seed's second fix with the producer written out: b.fill_ runs on the current stream (the
// default stream), the copy under a CUDAStreamGuard on a pool stream that never waits for it.
// The host reads after side.synchronize(), which covers the copy; the copy read b too early.
//
// semantics.md row: libtorch, copy under CUDAStreamGuard on a pool stream without wait_stream; the producer is on the default stream
// Expected on the GPU: the access reads stale data (the sentinel b held before the producer)
// Expected from the check: warns at the copy (the producer diagnostic)
//
// Twin: torch_side_stream_copy_event_block.cpp (CUDAEvent record on the producer's stream, block on the side stream)
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 -isystem /usr/include/torch/csrc/api/include -isystem %inputs/torch-real-standin -isystem %cuda_path/include -I%S/.. | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include "rt_torch.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/types.h>

static void scenario() {
  auto b = torch::empty({rt::kElems}, torch::TensorOptions().device(torch::kCUDA));
  rt::prime_device(b);
  // Taken before the producer: the pool's first use waits for the device.
  auto side = c10::cuda::getStreamFromPool();
  int gen = rt::next_generation();
  at::cuda::sleep(rt::kDelayCycles); // the producer, on the current stream
  b.fill_(rt::fresh(gen));
  torch::Tensor tmp;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    tmp = b.to(torch::kCPU, /*non_blocking=*/true); // copy: read
    // CHECK: :[[@LINE-1]]:11: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the legacy default stream has finished
  }
  side.synchronize();
  float v = tmp[0].item<float>(); // access: read
  rt::observe("read", v, gen);
}

RT_MAIN()
