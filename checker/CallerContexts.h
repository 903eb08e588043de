//===--- CallerContexts.h - What a callable's callers give it -*- C++ -*-===//
//
// One concern: the provenance (pinned / pageable / device) of a buffer
// variable that the callable being analysed does not declare, read from the
// context it runs in:
//  - a parameter of a function with internal linkage (`static`, an
//    anonymous namespace) or of a lambda held in a local variable, when
//    every use of the function (the variable) in the translation unit is a
//    direct call: the provenance every call's argument has in its caller,
//    when all of them agree (`static void fetch(float *h, ...)` called
//    only with `malloc`ed buffers copies into pageable memory);
//  - a variable captured from an enclosing function (a lambda's `[&]` of a
//    local `float *h = (float *)malloc(n)`): its provenance there; for a
//    captured stream handle, whether it was created non-blocking there
//    (a sync of the legacy default stream in the lambda does not wait for
//    it: "Stream synchronization behavior" of the CUDA Runtime API).
// A function with external linkage may be called from another translation
// unit, and a function whose address is taken from anywhere: both stay
// Unknown, as does a parameter whose callers disagree, a caller that is a
// template pattern or a namespace-scope initializer, and a cycle of such
// questions (a recursive helper).
//
// The CUDA Runtime API ("API synchronization behavior") makes a
// device-to-host cudaMemcpyAsync into pageable memory return once the copy
// is done; what the check does with each provenance is Effects'.
//
// May call: FunctionFacts (a caller's facts, built here and cached),
// ExprUtils, CallableWalker. Built on first use, once per
// translation unit; owned by AsyncCopyAnalysis and read by
// FunctionFacts::provenanceOf.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_CALLERCONTEXTS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_CALLERCONTEXTS_H

#include "AccessPath.h"
#include "CudaApiModel.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

class FunctionFacts;

class CallerContexts {
public:
  CallerContexts(ASTContext &Ctx, const ApiModel &Model, bool PerThread);
  ~CallerContexts();

  /// The provenance of V as seen from Current (the callable being
  /// analysed): from V's callers when V is a parameter (of Current or of a
  /// function enclosing it), from the function that declares V when that
  /// is not Current; Unknown when the context does not settle it (see the
  /// file comment). Never fails.
  Provenance provenanceOf(const VarDecl *V, const FunctionDecl *Current);

  /// Whether V, a stream handle Current captures from the function that
  /// declares it, is created there with cudaStreamNonBlocking (as that
  /// function's own FunctionFacts::isNonBlockingStream says). False for
  /// anything else, Current's own variables included.
  bool createdNonBlocking(const VarDecl *V, const FunctionDecl *Current);
  /// Whether V, a stream handle Current captures from the function that
  /// declares it, is a stream that function creates into V and changes
  /// nowhere else (its StreamRef::Fresh there): in Current it is then a
  /// created stream (StreamRef::Created). False for anything else.
  bool createdFresh(const VarDecl *V, const FunctionDecl *Current);

  /// One direct call of an internal function (or of a lambda variable):
  /// the call, its caller (null: none analysable) and the index of the
  /// callee's first parameter among the call's arguments (1 for a lambda's
  /// operator(), whose object is argument 0).
  struct CallSite {
    const CallExpr *Call;
    const FunctionDecl *Caller;
    unsigned FirstParamArg;
  };

private:
  void build();
  Provenance parameterProvenance(const ParmVarDecl *P);
  /// The facts of FD, collected on first use (null: no analysable body).
  FunctionFacts *factsOf(const FunctionDecl *FD);

  ASTContext &Ctx;
  const ApiModel &Model;
  bool PerThread;
  bool Built = false;
  /// Per function (a lambda's call operator), its direct calls; a function
  /// absent here, or in Escapes, is used some other way.
  llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> Calls;
  llvm::DenseSet<const FunctionDecl *> Escapes;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Facts;
  llvm::DenseMap<const VarDecl *, Provenance> Cache;
  llvm::DenseSet<const VarDecl *> InProgress;
};

} // namespace clang::tidy::cuda

#endif
