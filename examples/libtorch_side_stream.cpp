// The seed's second fix, and its own hazard. The copy is issued on a side
// stream from PyTorch's pool, and that stream is synchronized before the host
// consumes the result. In PyTorch:
//
//   side = torch.cuda.Stream()
//   with torch.cuda.stream(side):
//       tmp = b.to('cpu', non_blocking=True)
//   side.synchronize(); a[:] = tmp
//
// The host side is right: the host reads tmp only after the stream that ran
// the copy is synchronized (the check would warn if only the default stream
// were synchronized: pool streams are non-blocking). But nothing makes the
// side stream wait for the default stream, where the model step writes b:
// the copy can read b before the producer has finished, and the host then
// consumes stale data although every host access is after its sync. The
// check's producer diagnostic warns at the copy, with a note on modelStep's
// write of b (docs/libtorch-side-stream.md).
//
// Run with --wait-stream to add the missing ordering: an event recorded on
// the default stream after the producer, waited for by the side stream
// (side.wait_stream(torch.cuda.current_stream()) in Python).
//
// Build (against the libtorch of a PyTorch install, which has CUDA):
//   TORCH=$(python3 -c "import torch,os;print(os.path.dirname(torch.__file__))")
//   g++ -std=c++17 -O2 -o libtorch_side_stream libtorch_side_stream.cpp \
//     -isystem $TORCH/include -isystem $TORCH/include/torch/csrc/api/include \
//     -isystem /usr/local/cuda/include -L$TORCH/lib -Wl,-rpath,$TORCH/lib \
//     -Wl,--no-as-needed -ltorch -ltorch_cpu -ltorch_cuda -lc10 -lc10_cuda \
//     -Wl,--as-needed -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcudart
//   ./libtorch_side_stream
// Lint (Debian's libtorch-dev headers; the stand-in supplies the one
// generated c10/cuda header a CPU-only package lacks):
//   clang-tidy --load=<plugin> -checks='-*,cuda-async-read-before-sync' \
//     libtorch_side_stream.cpp -- -x c++ -std=c++17 \
//     -isystem /usr/include/torch/csrc/api/include \
//     -isystem test/Inputs/torch-real-standin -isystem /usr/local/cuda/include
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cstdio>
#include <cstring>
#include <torch/cuda.h>
#include <torch/torch.h>

// The seed's shapes: b, the model's bf16 output, lives on the GPU; a is a
// float32 CPU tensor (pageable: .to(kCPU, non_blocking) allocates the pinned
// temporary itself).
constexpr int64_t kRows = 13223, kCols = 134, kDepth = 4;

// One "model step" on the current stream: a few large matrix products keep
// the GPU busy for some milliseconds, then this iteration's output lands in b.
// Its values are small integers, exact in bf16.
static void modelStep(torch::Tensor &b, const torch::Tensor &w,
                      const torch::Tensor &pattern, int iteration) {
  torch::Tensor h = torch::matmul(w, w);
  for (int k = 0; k < 3; ++k)
    h = torch::matmul(h, w);
  b.copy_(pattern + iteration);
}

// What a must hold after iteration `iteration`, computed on the CPU.
static torch::Tensor expected(int iteration) {
  return (torch::arange(kRows * kCols * kDepth) % 251 + iteration)
      .to(torch::kFloat)
      .reshape({kRows, kCols, kDepth});
}

int main(int argc, char **argv) {
  auto cuda = torch::TensorOptions().device(torch::kCUDA);
  auto w = torch::randn({8192, 8192}, cuda.dtype(torch::kBFloat16)) * 0.01;
  auto pattern = (torch::arange(kRows * kCols * kDepth, cuda) % 251)
                     .to(torch::kBFloat16)
                     .reshape({kRows, kCols, kDepth});
  auto b = torch::empty({kRows, kCols, kDepth}, cuda.dtype(torch::kBFloat16));
  auto a = torch::empty({kRows, kCols, kDepth}); // float32, CPU

  const bool waitStream = argc > 1 && std::strcmp(argv[1], "--wait-stream") == 0;
  auto side = c10::cuda::getStreamFromPool();
  int mismatches = 0;
  for (int iteration = 0; iteration < 3; ++iteration) {
    modelStep(b, w, pattern, iteration); // on the default stream
    torch::Tensor tmp;
    {
      c10::cuda::CUDAStreamGuard guard(side);
      if (waitStream) {
        at::cuda::CUDAEvent produced;
        produced.record(c10::cuda::getDefaultCUDAStream());
        produced.block(side);
      }
      tmp = b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true);
    }
    side.synchronize();
    a.copy_(tmp);
    if (!torch::equal(a, expected(iteration)))
      ++mismatches;
  }
  std::printf("%s: iterations with stale data: %d of 3\n",
              waitStream ? "with wait_stream" : "without wait_stream", mismatches);
  return 0;
}
