//===--- CallableSelection.h - Which callables the check analyses -*- C++ -*-===//
//
// One concern: the pre-filter. Picks, in one walk of a translation unit's
// own code, the callables (functions, member functions, lambdas' call
// operators, template instantiations) worth analysing: those with a call of
// their own to a modelled asynchronous copy or blocking transfer, or to a
// function whose body reaches a modelled copy through at most Levels calls
// (a helper or lambda that calls `fetchInto(h, d, s)` leaves its copy
// pending in its caller). Nothing else of the check runs on the other
// callables.
//
// Why not clang's CallGraph or ASTMatchers' forCallable: forCallable builds
// the parent map of the whole translation unit (31-228 MB and ~0.1 s on a
// CUDA or libtorch file, issue 13), and CallGraph walks system headers and
// skips template instantiations. This walk visits the project's own
// declarations and libraries' in system headers (raft's copy wrappers), not
// the toolchain's (LibraryCode.h): a toolchain function is never summarised
// (summarizable), so a chain through one cannot leave a copy pending.
//
// May call: CallableWalker (the walk), LibraryCode, clang's AST.
// Called by AsyncReadBeforeSyncCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_CALLABLESELECTION_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_CALLABLESELECTION_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace clang::tidy::cuda {

/// What a called function is to the pre-filter.
enum class CalleeRole {
  Other,
  AsyncCopy, ///< a modelled asynchronous copy (or a user-declared one)
  /// A modelled blocking transfer (cudaMemcpy, `.cpu()`): the producer
  /// diagnostic reads it in its callable, and in the callers of a helper
  /// that makes one (HelperSummary::Consumes), as for AsyncCopy.
  Blocking,
};

/// The callables of the translation unit of Ctx to analyse, in the order of
/// their first selecting call in the walk (the order the matchers used to
/// find them). A callable is selected when one of its own calls (not one in
/// a nested lambda, which is a callable of its own) is of a function Role
/// calls AsyncCopy or Blocking, or is of a function with a visible body
/// (any redeclaration's, outside system headers) that calls, anywhere in it
/// (nested lambdas and local classes included), an AsyncCopy function
/// directly or through such helpers, Levels calls in all at most. Templated (dependent) callables are
/// walked for what they call but never returned. Role is asked once per
/// function declaration. Levels of 0 selects only callables with a modelled
/// call of their own.
std::vector<const FunctionDecl *>
selectCallables(ASTContext &Ctx, unsigned Levels,
                llvm::function_ref<CalleeRole(const FunctionDecl *)> Role);

} // namespace clang::tidy::cuda

#endif
