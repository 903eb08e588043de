// Every write of Context::stream_ and ::side_ creates a stream.
#include "context.h"

void Solver::own() { cudaStreamCreate(&stream_); }

bool Context::init() {
  return cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) ==
             cudaSuccess &&
         cudaStreamCreate(&side_) == cudaSuccess &&
         cudaStreamCreateWithFlags(&mixed_, cudaStreamNonBlocking) ==
             cudaSuccess;
}
