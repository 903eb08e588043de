#include "stage.h"

namespace stage {
static cudaStream_t current;

cudaStream_t currentStream() { return current; }

void streamSynchronize() { cudaStreamSynchronize(currentStream()); }

void waitFor(cudaStream_t s) { cudaStreamSynchronize(s); }

void Staging::finish() { cudaStreamSynchronize(stream_); }
} // namespace stage
