//===--- SyncFixIt.h - The fix-it of an unsynchronized access ---*- C++ -*-===//
//
// One concern: where a finding of the access-side diagnostic can be fixed
// unambiguously, the synchronization to insert right before the statement
// of the first unsynchronized access -- in the copy's own API family and
// spelling (cudaStreamSynchronize(s); cuStreamSynchronize(s);
// hipStreamSynchronize(s); wrapped in the error-checking macro the copy is
// wrapped in; for libtorch, `stream.synchronize();` of the guard's stream
// variable, else torch::cuda::synchronize();) -- and only where the stream
// expression still names the copy's stream there: a constant, or a
// variable in scope that nothing changes (or destroys, for a stream handle)
// between the copy and the access.
// Anything else (a member, a call, a copy issued in a helper, an access in
// a macro or in a later iteration of a loop, a device sync while another
// device is current) gets no fix-it.
//
// May call: CudaApiModel (the copy's entry), ExprUtils, clang's AST, Lexer.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_SYNCFIXIT_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_SYNCFIXIT_H

#include "AsyncCopyAnalysis.h"
#include "CudaApiModel.h"
#include "clang/Basic/Diagnostic.h"
#include <map>
#include <memory>
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class ParentMap;
class DeclRefExpr;
class VarDecl;
namespace tidy::cuda {

/// The synchronization to insert for finding F of function FD: the
/// insertion (at the start of the access's statement, followed by a line
/// break and the statement's indentation) and the inserted call as text
/// (for the note). nullopt where no fix is unambiguous.
struct SyncFix {
  FixItHint Hint;
  SourceLocation At;
  std::string Call;
};

/// Fixes for the findings of one function: the function's parent map and
/// the uses of every variable are gathered in one walk, at the first finding
/// that needs them, so that many findings (and many stream variables) cost
/// one walk.
class SyncFixer {
public:
  SyncFixer(const FunctionDecl &FD, const ApiModel &Model, ASTContext &Ctx);
  ~SyncFixer();
  std::optional<SyncFix> fixFor(const Finding &F);

  struct VarUses;

private:
  bool unchangedAndInScope(const VarDecl *V, SourceLocation Copy,
                           SourceLocation At);
  bool destroysStream(const DeclRefExpr *D) const;
  const FunctionDecl &FD;
  const ApiModel &Model;
  ASTContext &Ctx;
  std::unique_ptr<ParentMap> PM;
  /// Per variable of the body, from one walk (null until first needed).
  std::unique_ptr<llvm::DenseMap<const VarDecl *, VarUses>> Uses;
};

} // namespace tidy::cuda
} // namespace clang

#endif
