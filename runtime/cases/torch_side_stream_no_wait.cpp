// The seed's second fix: the copy is issued on a pool stream that never waits for the default stream, where the producer runs; the pool stream is synchronized before the read.
//
// semantics.md row: libtorch, copy under CUDAStreamGuard on a pool stream without wait_stream; the producer is on the default stream
// Expected on the GPU: the access reads stale data (the sentinel): the copy itself finished, but it ran before the producer did.
//   Except in a process's first repetition: the first c10::cuda::getStreamFromPool() creates PyTorch's stream pool, and that
//   took 32 ms on the H200, as long as the pending producer (evidently it waited for the device), so the copy was issued after the
//   producer had finished. Measured: 4/5 here; 6/6 with the pool created before the producer; fresh in each of 3 runs of -n 1.
// Expected from the check: warns at the copy (the producer diagnostic, through rt::produce's summary:
//   it leaves b written on the caller's current stream)
//
// Twin: torch_pool_stream_default_sync_fixed.cpp (producer and copy on the same stream)
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
  int gen = rt::next_generation();
  rt::produce(b, gen); // on the current stream: the legacy default stream
  auto side = c10::cuda::getStreamFromPool();
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
