// The cuBLAS handle may also hold whatever stream a caller gives.
#include "context.h"

void Context::rebindBlas(cudaStream_t s) { cublasSetStream(blas_, s); }
