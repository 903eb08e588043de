// The producer diagnostic in libtorch, against Debian's real headers: what
// makes the current stream known (the guards of c10/cuda/CUDAGuard.h and
// c10/core/StreamGuard.h), what synchronizes it (item() of a view of a CUDA
// tensor), and what is not device work at all (an in-place op on a tensor
// over host memory). Each silent case has a warned twin beside it.
//
// REQUIRES: libtorch-headers, cuda-toolkit
// RUN: %clang_tidy_cars %s -- -x c++ -std=c++17 \
// RUN:   -isystem /usr/include/torch/csrc/api/include \
// RUN:   -isystem %inputs/torch-real-standin -isystem %cuda_path/include \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <ATen/cuda/CUDAEvent.h>
#include <c10/core/StreamGuard.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/cuda.h>
#include <torch/types.h>
#include <vector>

using torch::Tensor;
static Tensor onGpu() {
  return torch::empty({16}, torch::TensorOptions().device(torch::kCUDA));
}

// The seed's second fix: the copy on a side stream does not wait for the
// fill on the default stream.
float sideStreamCopy() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  b.fill_(2.0);
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:12: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-4]]:3: note: 'b' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:12: note: nothing makes stream 'side' wait for the write: use CUDAEvent::record + CUDAEvent::block{{$}}
  side.synchronize();
  return t[0].item<float>();
}

// item() of an element synchronizes the current stream, as item() of the
// whole tensor does.
float itemOfAnElementFirst() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  b.fill_(2.0);
  float first = b[0].item<float>();
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>() + first;
}
float itemOfAViewFirst() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  b.fill_(2.0);
  auto first = b[0];
  float v = first.item<float>();
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>() + v;
}

// The fill runs on side under each of these guards.
float fillUnderAMultiStreamGuard() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAMultiStreamGuard mg({side});
    b.fill_(1.0);
  }
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
}
float fillUnderAStreamGuard() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  {
    c10::StreamGuard sg(side.unwrap());
    b.fill_(1.0);
  }
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
}
// Streams the check cannot read may include side: no claim.
float fillUnderStreamsNotKnown(const std::vector<c10::cuda::CUDAStream> &ss) {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAMultiStreamGuard mg(ss);
    b.fill_(1.0);
  }
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
}
// A copy under the multi-stream guard runs on side too, which the
// synchronization covers.
float copyUnderAMultiStreamGuard() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  Tensor t;
  {
    c10::cuda::CUDAMultiStreamGuard mg({side});
    b.fill_(1.0);
    t = b.to(torch::kCPU, /*non_blocking=*/true);
  }
  side.synchronize();
  return t[0].item<float>();
}

// Not a guard: the most vexing parse declares a function `og`, so the fill
// runs on the default stream (clang says so too: -Wvexing-parse).
float guardThatIsAFunctionDeclaration() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::OptionalCUDAStreamGuard og(c10::optional<c10::cuda::CUDAStream>(side));
    b.fill_(1.0);
  }
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:12: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the legacy default stream has finished
  // CHECK: :[[@LINE-5]]:5: note: 'b' is written on the legacy default stream here
  // CHECK: :[[@LINE-3]]:12: note: nothing makes stream 'side'
  side.synchronize();
  return t[0].item<float>();
}

// A tensor over host memory: add_ runs on the CPU, to(kCPU) copies nothing.
float hostTensorFromBlob(float *host) {
  auto side = c10::cuda::getStreamFromPool();
  auto x = torch::from_blob(host, {16});
  x.add_(1.0);
  c10::cuda::CUDAStreamGuard g(side);
  auto t = x.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
}

// A copy of the stream object is the same stream (access side).
float guardOnACopyOfTheStream() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  auto side2 = side;
  Tensor t;
  {
    c10::cuda::CUDAStreamGuard g(side2);
    t = b.to(torch::kCPU, /*non_blocking=*/true);
  }
  side.synchronize();
  return t[0].item<float>();
}
float guardOnAnotherStream() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  auto other = c10::cuda::getStreamFromPool();
  Tensor t;
  {
    c10::cuda::CUDAStreamGuard g(other);
    t = b.to(torch::kCPU, /*non_blocking=*/true);
  }
  side.synchronize();
  return t[0].item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: 't' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-5]]:9: note: asynchronous device-to-host copy into 't' on stream 'other' is issued here
  // CHECK: :[[@LINE-4]]:3: note: this synchronizes stream 'side', not stream 'other', the copy's stream
}

// The handle names another tensor by the copy: nothing wrote that one.
float handleRebound() {
  Tensor b = onGpu(), c = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  torch::cuda::synchronize();
  b.fill_(1.0);
  b = c;
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
}

// ATen calls that read a result back to the host wait for the current
// stream, where the fill ran.
float syncingCallsFirst() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  b.fill_(1.0);
  bool any = b.sum().is_nonzero();
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>() + any;
}
float blockingReadOfADerivedTensor() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  b.fill_(1.0);
  Tensor host = (b + 1).cpu();
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>() + host[0].item<float>();
}

// g.reset_stream(side): the fill runs on side, the copy's stream.
float fillAfterResetStream() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  auto other = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard g(other);
    g.reset_stream(side);
    b.fill_(1.0);
  }
  c10::cuda::CUDAStreamGuard g2(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
}
// A helper that sets the current stream: which one, no claim.
static void useStream(c10::cuda::CUDAStream s) { c10::cuda::setCurrentCUDAStream(s); }
float fillAfterAHelperSetsTheStream() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  useStream(side);
  b.fill_(1.0);
  c10::cuda::CUDAStreamGuard g(side);
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
}
// The guard's destructor restores the default stream that a
// setCurrentCUDAStream inside its scope replaced: the copy runs on the
// default stream, which the synchronization names.
float setCurrentUndoneByTheGuard() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  auto other = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard g(other);
    c10::cuda::setCurrentCUDAStream(side);
  }
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  c10::cuda::getDefaultCUDAStream().synchronize();
  return t[0].item<float>();
}
// Synchronizing another stream than the default one, where the copy runs.
float setCurrentUndoneWrongSync() {
  Tensor b = onGpu();
  auto side = c10::cuda::getStreamFromPool();
  auto other = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard g(other);
    c10::cuda::setCurrentCUDAStream(side);
  }
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  side.synchronize();
  return t[0].item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: 't' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-4]]:12: note: asynchronous device-to-host copy into 't' on the legacy default stream is issued here
  // CHECK: :[[@LINE-4]]:3: note: this synchronizes stream 'side', not the legacy default stream, the copy's stream
}
// A guard's current_stream() is the stream it set.
float syncOfTheGuardsStream() {
  Tensor b = onGpu();
  b.fill_(1.0);
  c10::cuda::CUDAStreamGuard g(c10::cuda::getDefaultCUDAStream());
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  g.current_stream().synchronize();
  return t[0].item<float>();
}
