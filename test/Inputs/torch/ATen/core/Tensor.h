#pragma once
// Mock of <ATen/core/Tensor.h>.
#include <ATen/core/TensorBody.h>
#include <ATen/TensorIndexing.h>
