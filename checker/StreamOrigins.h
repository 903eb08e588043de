//===--- StreamOrigins.h - Which streams members and globals hold -*- C++ -*-===//
//
// One concern: stream provenance beyond one callable. A stream handle that
// is a class member or a global (`cudaStream_t s_;`, `cudaStream_t
// streams_[4];`, `h->stream`) is written in the constructors and helpers of
// its class, not in the callable that launches on it. When every write of
// it in the translation unit creates a stream (cudaStreamCreate*,
// cuStreamCreate*, hipStreamCreate*), it holds a created stream -- never a
// default stream, and not the value of any other stream variable -- and the
// flags of those creations say whether it is blocking ("Stream
// synchronization behavior" of the CUDA Runtime API).
//
// Writes that keep the origin: a creation into it (`cudaStreamCreate(&s_)`,
// `&h->stream`, `&streams_[i]`), a null handle (`s_ = nullptr` after a
// destroy, a null default member initialiser: no stream yet), and a copy of
// the same member of another object (a move constructor's `s_(o.s_)`,
// `std::exchange(o.s_, nullptr)`). Anything else -- an assignment of
// another value, a member initialiser from a parameter, the address or a
// non-const reference handed to a function that is not a creation, a use
// the walk does not classify -- makes the origin Unknown. A member or
// global never written in the unit (created in another translation unit)
// is Unknown too.
//
// May call: CudaApiModel (the creation rows), ExprUtils, LibraryCode,
// clang's AST. Built on first use, once per translation unit; owned by
// AsyncCopyAnalysis and read by FunctionFacts::streamOf.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_STREAMORIGINS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_STREAMORIGINS_H

#include "CudaApiModel.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda {

enum class StreamOrigin { Unknown, CreatedBlocking, CreatedNonBlocking };

class StreamOrigins {
public:
  StreamOrigins(ASTContext &Ctx, const ApiModel &Model)
      : Ctx(Ctx), Model(Model) {}
  /// What member or global D (a FieldDecl, or a VarDecl of static storage,
  /// a function's static local included) holds: Unknown for anything else. For one of a class whose conversion
  /// to a stream handle returns one of its members (a project's RAII
  /// stream), what that member holds.
  StreamOrigin originOf(const ValueDecl *D);
  /// What a call (`make_stream()`) returns: the stream of a function with
  /// a visible body whose every return returns one local it created a
  /// stream into and gave no other value; Unknown for anything else. Each
  /// call creates another stream.
  StreamOrigin returnedBy(const Expr *Call);

private:
  void build();
  ASTContext &Ctx;
  const ApiModel &Model;
  bool Built = false;
  /// Per member or global written in the unit: the creations' origin so
  /// far, or Unknown once another write was seen.
  llvm::DenseMap<const ValueDecl *, StreamOrigin> Origins;
  /// returnedBy's answers per callee: asked at every assignment of a call.
  llvm::DenseMap<const FunctionDecl *, StreamOrigin> Returned;
};

} // namespace clang::tidy::cuda

#endif
