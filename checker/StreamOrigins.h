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
// `std::exchange(o.s_, nullptr)`). A member written only as a copy of one
// other member or global (`stream_ = options.context->stream_;`, in a
// constructor's initialiser too) holds that one's stream: its origin, and
// the same stream, not another creation. Anything else -- an assignment of
// another value, a member initialiser from a parameter, the address or a
// non-const reference handed to a function that is not a creation, a use
// the walk does not classify -- makes the origin Unknown.
//
// Across translation units: each unit's origins (written()) go into its
// summary file ("streamMembers", SummaryFiles.h), and a unit that imports
// summaries joins its own with every other unit's (the Import callback):
// a member created non-blocking in `context.cc` and only read in the
// headers a test includes holds that created stream there too. Units
// disagreeing, or any of them Unknown, make it Unknown. A member or global
// no unit's summary or walk says anything of is Unknown.
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
#include "llvm/ADT/SetVector.h"
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace clang::tidy::cuda {

enum class StreamOrigin { Unknown, CreatedBlocking, CreatedNonBlocking };

/// The origin other translation units' walks gave a member or global
/// (their join), or nullopt where none said anything.
using ImportedOrigin =
    std::function<std::optional<StreamOrigin>(const ValueDecl *)>;

class StreamOrigins {
public:
  /// Per member or global written in the unit as a copy of others: those
  /// others.
  using SourceMap =
      llvm::DenseMap<const ValueDecl *,
                     llvm::SmallSetVector<const ValueDecl *, 2>>;
  StreamOrigins(ASTContext &Ctx, const ApiModel &Model,
                ImportedOrigin Imported = nullptr)
      : Ctx(Ctx), Model(Model), Imported(std::move(Imported)) {}
  /// What member or global D (a FieldDecl, or a VarDecl of static storage,
  /// a function's static local included) holds: Unknown for anything else.
  /// For one of a class whose conversion to a stream handle returns one of
  /// its members (a project's RAII stream), what that member holds. For one
  /// every write of which in the unit copies one other member or global
  /// (`stream_ = options.context->stream_;`), what that one holds; then
  /// Identity (when given) is that one, whose stream D holds too, else D.
  StreamOrigin originOf(const ValueDecl *D,
                        const ValueDecl **Identity = nullptr);
  /// What a call (`make_stream()`) returns: the stream of a function with
  /// a visible body whose every return returns one local it created a
  /// stream into and gave no other value; Unknown for anything else. Each
  /// call creates another stream.
  StreamOrigin returnedBy(const Expr *Call);
  /// This unit's own walk: each member or global it writes (or uses in a
  /// way the walk does not classify) with its origin, imports left out; in
  /// a stable order (by declaration location). For the summary file.
  std::vector<std::pair<const ValueDecl *, StreamOrigin>> written();

private:
  void build();
  StreamOrigin resolve(const ValueDecl *D, const ValueDecl **Identity,
                       unsigned Depth);
  ASTContext &Ctx;
  const ApiModel &Model;
  ImportedOrigin Imported;
  bool Built = false;
  /// Per member or global written in the unit: the creations' origin so
  /// far, or Unknown once another write was seen.
  llvm::DenseMap<const ValueDecl *, StreamOrigin> Origins;
  SourceMap Sources;
  /// returnedBy's answers per callee: asked at every assignment of a call.
  llvm::DenseMap<const FunctionDecl *, StreamOrigin> Returned;
};

} // namespace clang::tidy::cuda

#endif
