// Declarations of parts/xtu_stage.cu, the second unit of the two-unit cases
// xtu_copy_left_in_flight.cu and xtu_copy_left_in_flight_fixed.cu.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

// Issues the device-to-host copy of `bytes` bytes from d into h on s and
// returns with it in flight.
void xtu_fetch(float *h, const float *d, size_t bytes, cudaStream_t s);
// Waits for all work queued on s (cudaStreamSynchronize).
void xtu_wait(cudaStream_t s);
