// Context::init: the stream is created non-blocking, and both handles are
// given it.
#include "context.h"

void Context::init() {
  cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
  cusolverDnCreate(&solver_);
  cusolverDnSetStream(solver_, stream_);
  cublasCreate(&blas_);
  cublasSetStream(blas_, stream_);
}

Context::~Context() {
  if (solver_ != nullptr)
    cusolverDnDestroy(solver_);
  if (blas_ != nullptr)
    cublasDestroy(blas_);
  cudaStreamDestroy(stream_);
}
