//===--- HostAccess.h - What an occurrence of a buffer does -----*- C++ -*-===//
//
// One concern: given one occurrence of a tracked buffer in the AST (a
// DeclRefExpr, MemberExpr or element expression), decide whether it reads
// or writes host memory there, passes the buffer to a host function, or
// does none of that (takes its address, copies the pointer, asks for its
// size, makes a view) -- or whether the enclosing call decides, because the
// callee is modelled (its transfer function handles the argument) or is a
// helper whose summary says what it does.
//
// The walk goes up from the occurrence through the parent map, at most 64
// steps, and never into other callables.
//
// May call: ExprUtils, TorchModel (method lists). Called by Effects.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_HOSTACCESS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_HOSTACCESS_H

#include "AsyncCopyAnalysis.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <set>

namespace clang::tidy::cuda {

/// A host access found at an occurrence.
struct HostAccess {
  AccessKind Kind;
  const Stmt *Anchor;         ///< the statement that performs it
  const Expr *Loc;            ///< the accessing expression (for the warning)
  const NamedDecl *Callee;    ///< PassedToFunction: the function (or class)
};

/// What classifyHostAccess needs to know of the callable and the model.
struct HostAccessContext {
  const ParentMap &PM;
  /// Is the callee modelled or a GPU API (then its own transfer decides)?
  llvm::function_ref<bool(const CallExpr *)> isModelledCall;
  /// Is the callee a helper whose body is summarised?
  llvm::function_ref<bool(const FunctionDecl *)> isSummarizable;
  /// `t = b.to(kCPU, true)`: assignments that bind a copy's destination.
  const std::set<const Stmt *> &BindingAssignments;
  /// `dst.copy_(gpu, ...)` from a GPU tensor: the device writes dst in
  /// stream order (after an earlier copy into dst on the same stream); the
  /// call is no host access of dst.
  const std::set<const Stmt *> &DeviceWrites;
};

/// The host access an occurrence of a tracked buffer performs, or nullopt
/// when it performs none (or the enclosing call's transfer decides).
std::optional<HostAccess> classifyHostAccess(const Expr *Node,
                                             const HostAccessContext &Ctx);

} // namespace clang::tidy::cuda

#endif
