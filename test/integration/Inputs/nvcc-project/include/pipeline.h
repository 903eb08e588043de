// Public interface of the demo pipeline.
#pragma once
#include <cuda_runtime.h>

#ifndef CARS_DEMO_CHUNK
#error "CARS_DEMO_CHUNK is defined by the build (target_compile_definitions)"
#endif

constexpr int kChunk = CARS_DEMO_CHUNK;

float sumChunkRacy(const float *device, float *pinned);
float sumChunkFixed(const float *device, float *pinned);
float hostOnlySum(const float *values, int n);
