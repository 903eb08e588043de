#pragma once
// Mock of <torch/all.h> (subset of what it includes).
#include <torch/cuda.h>
#include <torch/types.h>
