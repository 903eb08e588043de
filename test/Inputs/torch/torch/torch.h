#pragma once
// Mock of <torch/torch.h> (torch/csrc/api/include/torch/torch.h).  The real
// one does not include the c10/cuda or ATen/cuda headers; include those
// explicitly (as real code must).
#include <torch/all.h>
