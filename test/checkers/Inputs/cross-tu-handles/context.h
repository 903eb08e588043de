// A context that binds its math library handles to its stream (context.cu),
// and rebinds one of them to the caller's stream (rebind.cu): the units of
// cross-tu-handle-members.cu.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

struct Context {
  cudaStream_t stream_ = nullptr;
  cusolverDnHandle_t solver_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  void init();
  void rebindBlas(cudaStream_t s);
  ~Context();
};
