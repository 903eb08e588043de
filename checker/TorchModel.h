//===--- TorchModel.h - libtorch tensors and devices -------------*- C++ -*-===//
//
// What the analysis needs to know about libtorch (PyTorch's C++ API) beyond
// the rows of CudaApiModel: which types are tensors, which device a `to()`
// targets, which argument is `non_blocking`.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_TORCHMODEL_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_TORCHMODEL_H

#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cuda {

/// at::Tensor (torch::Tensor) and at::TensorBase: handles to storage, which
/// copies of the handle share.
bool isTensorType(QualType T);

/// Tensor methods whose result shares the tensor's storage (views, and
/// reshape / contiguous where they do not copy).
bool isTensorView(llvm::StringRef Method);

/// What mentions() looks for.
enum class Mention { Cpu, Cuda, Pinned };

/// Does an expression mention a device (`kCPU`, `DeviceType::CUDA`,
/// `"cuda:0"`, `.device(kCPU)`) or pinned memory (`.pinned_memory(true)`)?
/// A walk over its subexpressions, bounded in depth, not into lambdas.
bool mentions(const Stmt *S, Mention M, unsigned Depth = 0);

/// The argument a libtorch call passes for its `non_blocking` parameter
/// (found by name: Tensor::to has several overloads), or nullptr.
const Expr *nonBlockingArg(const CallExpr *C);

/// Where a Tensor::to targets the CPU / the GPU: its arguments other than
/// `non_blocking` mention the device. (`t.to(other_tensor, ...)` and
/// dtype-only conversions keep the device: neither.)
bool targetsCpu(const CallExpr *C);
bool targetsCuda(const CallExpr *C);

} // namespace clang::tidy::cuda

#endif
