//===--- TorchModel.h - libtorch tensors and devices -------------*- C++ -*-===//
//
// What the analysis needs to know about libtorch (PyTorch's C++ API) beyond
// the rows of CudaApiModel: which types are tensors, which device a `to()`
// targets, which argument is `non_blocking`, where a tensor's storage lives
// from the expression that makes it, and which methods of tensors (and of
// the standard containers, which the same host-access rules treat alike)
// read, write, alias or only describe the storage.
//
// May call: ExprUtils (strip, bufferRoot).
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
/// std::vector<at::Tensor>: what unbind / chunk / split return, views of
/// one tensor's storage.
bool isTensorVector(QualType T);

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

/// Where a tensor's storage lives, from the expression that gives a tensor
/// variable its value (PyTorch 2.x: `_to_copy` allocates a pinned result for
/// a non-blocking copy to the CPU; factories allocate CPU memory unless
/// their options say otherwise).
struct TensorOrigin {
  enum Kind {
    None,        ///< nothing known (a dtype conversion, another call)
    SameStorage, ///< a handle copy or view of Of (a buffer root)
    Pinned,
    Device,
    Pageable,
    /// `to(<CPU>, .., non_blocking)`: pinned when NonBlocking is true,
    /// pageable otherwise.
    CpuCopy,
    /// `from_blob(p, ...)`: a tensor over the memory p points to (Of), on
    /// the CPU unless its options mention CUDA (Cuda).
    Blob,
  } K = None;
  bool Cuda = false;
  const Expr *Of = nullptr;
  const Expr *NonBlocking = nullptr;
};
TensorOrigin tensorOrigin(const Expr *Rhs);
/// `t[i]` of a tensor t (at::Tensor::operator[], a view of t's storage):
/// t; else null.
const Expr *subscriptedTensor(const Expr *E);

/// Methods of tensors and containers that describe the object without
/// touching its elements (`size`, `numel`, `dtype`, `is_pinned`, ...).
bool isMetadataMethod(llvm::StringRef Method);

/// Methods that write the elements (in-place tensor ops, `name_`, and the
/// containers' modifiers).
bool isMutatingMethod(llvm::StringRef Method);

/// Container methods that store a tensor handle (another handle to the same
/// storage, not a read of it): `outs.push_back(t)`.
bool isHandleStore(llvm::StringRef Method);

/// Tensor methods that move or copy the data to another device or memory
/// kind (`to`, `cpu`, `cuda`, `pin_memory`): their result is not computed
/// on the object's device.
bool changesDevice(llvm::StringRef Method);

} // namespace clang::tidy::cuda

#endif
