// libtorch (the seed's own API): non_blocking device-to-host copies, host
// accesses of the pinned result, and what synchronizes the current stream.
//
// RUN: %clang_tidy_cars %s -- %torch_mock_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <iostream>
#include <map>
#include <string>
#include <vector>
#include <torch/cuda.h>
#include <torch/torch.h>

//===--- The seed: a[:] = b.to('cpu', non_blocking=True); synchronize() ----===//

void seedLoop(torch::Tensor a, const torch::Tensor &b) {
  for (int i = 0; i < 3; ++i) {
    a.copy_(b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true));
    // CHECK: :[[@LINE-1]]:13: warning: 'b.to(...)' is passed to 'copy_' before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    // CHECK: :[[@LINE-2]]:13: note: asynchronous device-to-host copy into 'b.to(...)' on the legacy default stream is issued here
    torch::cuda::synchronize();
  }
}

void seedBlocking(torch::Tensor a, const torch::Tensor &b) {
  a.copy_(b.to(torch::kCPU, torch::kBFloat16));
  a.copy_(b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/false));
}

void seedFixedBySync(torch::Tensor a, const torch::Tensor &b) {
  torch::Tensor tmp = b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true);
  torch::cuda::synchronize();
  a.copy_(tmp);
}

void seedFixedByEvent(torch::Tensor a, const torch::Tensor &b) {
  at::cuda::CUDAEvent copied;
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  copied.record();
  copied.synchronize();
  a.copy_(tmp);
}

void eventRecordedBeforeTheCopy(torch::Tensor a, const torch::Tensor &b) {
  at::cuda::CUDAEvent copied;
  copied.record();
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  copied.synchronize();
  a.copy_(tmp);
  // CHECK: :[[@LINE-1]]:11: warning: 'tmp' is passed to 'copy_' before the asynchronous
}

void eventQueryLoop(torch::Tensor a, const torch::Tensor &b) {
  at::cuda::CUDAEvent copied;
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  copied.record();
  while (!copied.query()) {
  }
  a.copy_(tmp);
}

void currentStreamSync(torch::Tensor a, const torch::Tensor &b) {
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  a.copy_(tmp);
}

void currentStreamQueryLoop(torch::Tensor a, const torch::Tensor &b) {
  auto stream = at::cuda::getCurrentCUDAStream();
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  while (!stream.query()) {
  }
  a.copy_(tmp);
}

//===--- Host accesses of the pinned result --------------------------------===//

void accesses(const torch::Tensor &b) {
  auto t = b.to(torch::kCPU, /*non_blocking=*/true);
  auto n = t.numel(); // metadata, not storage
  float x = t[0].item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 't' is read before the asynchronous
  float *p = t.data_ptr<float>();
  float y = p[1];
  // CHECK: :[[@LINE-1]]:13: warning: 'p' is read before the asynchronous
  auto both = torch::cat({t, t});
  // CHECK: :[[@LINE-1]]:26: warning: 't' is passed to 'cat' before the asynchronous
  std::cout << t;
  // CHECK: :[[@LINE-1]]:16: warning: 't' is read before the asynchronous
  t.zero_();
  // CHECK: :[[@LINE-1]]:3: warning: 't' is written before the asynchronous
  auto back = t.to(torch::kCUDA, /*non_blocking=*/true); // ordered on the stream
  torch::cuda::synchronize();
  float z = t[0].item<float>();
}

//===--- copy_(src, non_blocking=true) into a CPU tensor --------------------===//

void copyIntoPinned(const torch::Tensor &gpu) {
  auto pinned = torch::empty({64}, torch::TensorOptions().pinned_memory(true));
  pinned.copy_(gpu, /*non_blocking=*/true);
  float s = pinned.sum().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'pinned' is read before the asynchronous
}

void copyIntoPinMemory(const torch::Tensor &gpu, const torch::Tensor &host) {
  auto pinned = host.pin_memory();
  pinned.copy_(gpu, true);
  float s = pinned.sum().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'pinned' is read before the asynchronous
}

void copyIntoUnknown(torch::Tensor dst, const torch::Tensor &gpu) {
  dst.copy_(gpu, /*non_blocking=*/true);
  float s = dst.sum().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'dst' is read before the asynchronous
}

// A pageable destination: the copy completed before copy_ returned.
void copyIntoPageable(const torch::Tensor &gpu) {
  auto pageable = torch::empty({64});
  pageable.copy_(gpu, /*non_blocking=*/true);
  float s = pageable.sum().item<float>();
}

void copyIntoGpu(const torch::Tensor &src) {
  auto dev = torch::empty({64}, torch::TensorOptions().device(torch::kCUDA));
  dev.copy_(src, /*non_blocking=*/true);
  float s = dev.sum().item<float>();
}

//===--- Implicit syncs: blocking reads of GPU tensors ----------------------===//

// b is on the GPU (it is the source of a device-to-host copy), so is
// b.sum(), and item() waits for the current stream.
void itemOfGpuTensorSyncs(torch::Tensor a, const torch::Tensor &b) {
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  float loss = b.sum().item<float>();
  a.copy_(tmp);
}

// Nothing says where c lives: its item() is not taken as a sync.
void itemOfUnknownTensorIsNoSync(torch::Tensor a, const torch::Tensor &b,
                                 const torch::Tensor &c) {
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  float loss = c.sum().item<float>();
  a.copy_(tmp);
  // CHECK: :[[@LINE-1]]:11: warning: 'tmp' is passed to 'copy_' before the asynchronous
}

void blockingCpuOfSourceSyncs(torch::Tensor a, const torch::Tensor &b) {
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  auto again = b.cpu(); // b is on the GPU: copies on the current stream, waits
  a.copy_(tmp);
}

//===--- Streams: guards, setCurrentCUDAStream, pool streams ----------------===//

void guardedCopyThenDefaultSync(torch::Tensor a, const torch::Tensor &b) {
  auto side = c10::cuda::getStreamFromPool();
  torch::Tensor tmp;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  }
  at::cuda::getCurrentCUDAStream().synchronize();
  a.copy_(tmp);
  // CHECK: :[[@LINE-1]]:11: warning: 'tmp' is passed to 'copy_' before the asynchronous
  // CHECK: :[[@LINE-5]]:11: note: asynchronous device-to-host copy into 'tmp' on stream 'side' is issued here
  // CHECK: :[[@LINE-4]]:3: note: synchronizing the legacy default stream does not wait for stream 'side', which was created non-blocking
}

void guardedCopyThenSideSync(torch::Tensor a, const torch::Tensor &b) {
  auto side = c10::cuda::getStreamFromPool();
  torch::Tensor tmp;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  }
  side.synchronize();
  a.copy_(tmp);
}

void setCurrentThenSyncIt(torch::Tensor a, const torch::Tensor &b) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::setCurrentCUDAStream(side);
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  a.copy_(tmp);
}

//===--- Views, handles in containers, tensors already on the CPU ----------===//

void viewThenSync(const torch::Tensor &b) {
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  auto flat = tmp.view({-1}); // shares the storage: not a read
  torch::cuda::synchronize();
  float x = flat[0].item<float>();
}

void viewReadBeforeSync(const torch::Tensor &b) {
  auto tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  auto flat = tmp.view({-1});
  float x = flat[0].item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'flat' is read before the asynchronous
  torch::cuda::synchronize();
}

void handlesCollectedThenOneSync(const torch::Tensor &b,
                                 std::vector<torch::Tensor> &outs) {
  for (int i = 0; i < 4; ++i) {
    auto h = b.to(torch::kCPU, /*non_blocking=*/true);
    outs.push_back(h); // another handle, not a read
  }
  torch::cuda::synchronize();
}

// A CPU tensor's to(kCPU) copies nothing from the device.
void toCpuOfCpuTensor(torch::Tensor a) {
  auto cpu = torch::zeros({3});
  auto tmp = cpu.to(torch::kCPU, /*non_blocking=*/true);
  a.copy_(tmp);
}

void optionalGuardThenSideSync(torch::Tensor a, const torch::Tensor &b) {
  auto side = c10::cuda::getStreamFromPool();
  torch::Tensor tmp;
  {
    c10::cuda::OptionalCUDAStreamGuard guard{c10::Stream(side)};
    tmp = b.to(torch::kCPU, /*non_blocking=*/true);
  }
  side.synchronize();
  a.copy_(tmp);
}

//===--- Views are aliases, not reads (issue 12, class 10) -----------------===//

// unbind / chunk / split / narrow read no element: vLLM moves such view ops
// before its event sync on purpose. What is done with a view decides.
void viewsBeforeTheSync(at::Tensor g, at::cuda::CUDAEvent &ev) {
  at::Tensor host = g.to(at::kCPU, /*non_blocking=*/true);
  ev.record();
  auto parts = host.unbind(0);
  auto halves = host.chunk(2);
  at::Tensor first = host.narrow(0, 0, 1);
  ev.synchronize();
  std::cout << parts[0] << halves[1] << first;
}

void readThroughAViewBeforeTheSync(at::Tensor g, at::cuda::CUDAEvent &ev) {
  at::Tensor host = g.to(at::kCPU, /*non_blocking=*/true);
  ev.record();
  auto parts = host.split(4);
  at::Tensor s = parts[0].sum();
  // CHECK: :[[@LINE-1]]:18: warning: 'parts' is read before the asynchronous device-to-host copy
  ev.synchronize();
}

// An element of a container of tensors is a destination, not a read.
void storedInAMap(at::Tensor g, std::map<std::string, at::Tensor> &cache,
                  at::cuda::CUDAEvent &ev) {
  cache["k"] = g.to(at::kCPU, /*non_blocking=*/true);
  ev.record();
  ev.synchronize();
  std::cout << cache["k"];
}

void storedInAMapReadEarly(at::Tensor g,
                           std::map<std::string, at::Tensor> &cache) {
  cache["k"] = g.to(at::kCPU, /*non_blocking=*/true);
  std::cout << cache["k"];
  // CHECK: :[[@LINE-1]]:16: warning: 'cache' is read before the asynchronous device-to-host copy
}

// A second copy into the same pinned tensor on the same stream is ordered
// after the first by the stream, not a host write (issue 12, class 5).
void copyIntoPinnedTwice(at::Tensor g1, at::Tensor g2) {
  at::Tensor pinned =
      torch::empty({4}, torch::TensorOptions().pinned_memory(true));
  pinned.copy_(g1, /*non_blocking=*/true);
  pinned.copy_(g2, /*non_blocking=*/true);
  torch::cuda::synchronize();
  std::cout << pinned;
}

void copyIntoPinnedTwiceReadEarly(at::Tensor g1, at::Tensor g2) {
  at::Tensor pinned =
      torch::empty({4}, torch::TensorOptions().pinned_memory(true));
  pinned.copy_(g1, /*non_blocking=*/true);
  pinned.copy_(g2, /*non_blocking=*/true);
  std::cout << pinned;
  // CHECK: :[[@LINE-1]]:16: warning: 'pinned' is read before the asynchronous device-to-host copy
  torch::cuda::synchronize();
}

//===--- A helper that returns the non-blocking result ---------------------===//

torch::Tensor toCpu(const torch::Tensor &g) {
  return g.to(torch::kCPU, /*non_blocking=*/true);
}

torch::Tensor toCpuSynced(const torch::Tensor &g) {
  auto h = g.to(torch::kCPU, /*non_blocking=*/true);
  torch::cuda::synchronize();
  return h;
}

float returnedTensorRead(const torch::Tensor &g) {
  auto h = toCpu(g);
  return h.sum().item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:12: note: this call leaves an asynchronous device-to-host copy into 'h' in flight
  // CHECK: :[[@LINE-14]]:10: note: the copy is issued here
}

float returnedTensorTemporary(const torch::Tensor &g) {
  return toCpu(g).sum().item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: 'toCpu(g)' is read before
}

float returnedTensorSyncedInside(const torch::Tensor &g) {
  auto h = toCpuSynced(g);
  return h.sum().item<float>();
}

float returnedTensorSyncedAfter(const torch::Tensor &g) {
  auto h = toCpu(g);
  torch::cuda::synchronize();
  return h.sum().item<float>();
}
