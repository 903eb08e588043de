//===--- Exceptions.h - Calls that may throw to a handler -----*- C++ -*-===//
//
// One concern: which calls of a callable may throw an exception that a
// `catch` handler of the callable then runs with (C++ [except.throw],
// [except.handle]). clang's CFG links an explicit `throw` inside a try
// block to its handlers, but not a call (its AddEHEdges option would make
// every call a throw point, the CUDA API's C functions and the syncs
// themselves included). The Solver adds an edge from the point just
// before each call that visibly throws (throwingCall) to the try's handlers,
// so that a read in a handler reached by a throw between a copy and its
// sync is reported (a CUDA_CHECK-style helper that throws on error).
//
// May call: HelperSummaries (summarizable).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_EXCEPTIONS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_EXCEPTIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda {

/// Per definition: whether it visibly throws (see throwingCall).
using ThrowCache = llvm::DenseMap<const FunctionDecl *, bool>;

/// A call that may throw, as far as the check can see: its callee is not
/// noexcept and has a visible body (not the toolchain's or a system
/// library's) that contains a `throw` expression outside any try block of
/// that body, or such a call, followed Depth levels deep. A call of a
/// function without a visible body, of the standard library (which throws
/// only on failures such as std::bad_alloc) or through a pointer is taken
/// not to throw: an exception path is claimed only where the code spells
/// it. Constructors count as calls. Null in, false out.
bool throwingCall(const Expr *Call, ASTContext &Ctx, unsigned Depth,
                  ThrowCache &Cache);

} // namespace clang::tidy::cuda

#endif
