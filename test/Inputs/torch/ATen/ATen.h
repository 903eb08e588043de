#pragma once
// Mock of <ATen/ATen.h>.
#include <ATen/Functions.h>
#include <ATen/TensorIndexing.h>
#include <ATen/core/Formatting.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/Stream.h>
#include <c10/core/TensorOptions.h>
