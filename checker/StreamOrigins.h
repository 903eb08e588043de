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
// Library handles: a member or global math library handle (cuBLAS,
// cuSOLVER, cuSPARSE, cuFFT and their HIP kin) runs its routines on the
// stream its setter gave it, often in another function or unit than the
// routine (a context's init binding `cusolver_handle_` to `stream_`):
// handleStream says which stream member that is, when every write of the
// handle agrees; units share it in their summary files ("handleMembers").
//
// May call: CudaApiModel (the creation rows), ExprUtils, LibraryCode,
// LibraryProducers (the handles' setters and creations), clang's AST.
// Built on first use, once per translation unit; owned by
// AsyncCopyAnalysis and read by FunctionFacts::streamOf and
// FunctionFacts::heldByHandle.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_STREAMORIGINS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_STREAMORIGINS_H

#include "CudaApiModel.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
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
/// The stream member or global other units' walks say every setter of a
/// library handle member gives it, found among Candidates (this unit's
/// stream members and globals); null where they disagree, any says
/// unknown, or it is not among Candidates; nullopt where none said
/// anything.
using ImportedHandleStream = std::function<std::optional<const ValueDecl *>(
    const ValueDecl *Handle, llvm::ArrayRef<const ValueDecl *> Candidates)>;

class StreamOrigins {
public:
  /// Per member or global written in the unit as a copy of others: those
  /// others.
  using SourceMap =
      llvm::DenseMap<const ValueDecl *,
                     llvm::SmallSetVector<const ValueDecl *, 2>>;
  /// What the walk learns of library handle members and globals.
  struct Handles {
    /// Per handle: the stream members and globals its setters give.
    SourceMap Streams;
    /// Per handle written as a copy of other handle members: those.
    SourceMap Sources;
    /// Handles given anything else, or used in a way the walk does not
    /// classify.
    llvm::DenseSet<const ValueDecl *> Unknown;
    /// Handles some setter gives a stream member of another object than
    /// the handle's (`(ctx.blas, other.compute)`, `(blas_, ctx->stream_)`).
    llvm::DenseSet<const ValueDecl *> OtherObject;
    /// The unit's stream members and globals (for imports by USR).
    std::vector<const ValueDecl *> StreamDecls;
  };
  /// Whether another unit says a setter of a handle gives it a stream of
  /// another object (handlesWritten's SameObject false).
  using ImportedHandleOther = std::function<bool(const ValueDecl *)>;
  StreamOrigins(ASTContext &Ctx, const ApiModel &Model,
                ImportedOrigin Imported = nullptr,
                ImportedHandleStream ImportedHandle = nullptr,
                ImportedHandleOther ImportedOther = nullptr)
      : Ctx(Ctx), Model(Model), Imported(std::move(Imported)),
        ImportedHandle(std::move(ImportedHandle)),
        ImportedHandleOtherObject(std::move(ImportedOther)) {}
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
  /// The stream a math library's handle member or global Handle
  /// (isLibraryHandleType: cublasHandle_t, cusolverDnHandle_t, ...) is
  /// given: the one stream member or global that every setter of it
  /// (`cusolverDnSetStream(cusolver_handle_, stream_)`, cuBLAS's
  /// "cublasSetStream ... will be used to execute all subsequent calls")
  /// in this unit and in the summaries of others gives it; for a handle
  /// written only as a copy of one other handle member
  /// (`cusolver_handle_ = context->cusolver_handle_`), that one's. Null
  /// when setters give several streams or one that is not a member or
  /// global (a parameter), when no setter is known, and when the handle is
  /// used in a way that could give it another stream: handed by value to
  /// a function not of its library, copied into a local, returned, given a
  /// value that is not another handle member. What that stream holds is
  /// originOf's. *SameObject (when given): every setter of the handle
  /// itself, in every unit, gives a stream member of the handle's own
  /// object (`cusolverDnSetStream(solver_, stream_)` in a method of the
  /// class): `a.solver_` then runs on `a.stream_`.
  const ValueDecl *handleStream(const ValueDecl *Handle,
                                bool *SameObject = nullptr);
  /// This unit's own walk of library handles, for the summary file: each
  /// handle member or global it gives a stream or uses unclassified, with
  /// the stream (null: unknown) and whether every setter here gives one of
  /// the handle's own object, imports left out; by declaration order.
  struct WrittenHandle {
    const ValueDecl *Handle;
    const ValueDecl *Stream;
    bool SameObject;
  };
  std::vector<WrittenHandle> handlesWritten();

private:
  void build();
  StreamOrigin resolve(const ValueDecl *D, const ValueDecl **Identity,
                       unsigned Depth);
  const ValueDecl *resolveHandle(const ValueDecl *D, unsigned Depth);
  ASTContext &Ctx;
  const ApiModel &Model;
  ImportedOrigin Imported;
  ImportedHandleStream ImportedHandle;
  ImportedHandleOther ImportedHandleOtherObject;
  Handles LibHandles;
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
