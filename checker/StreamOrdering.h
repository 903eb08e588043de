//===--- StreamOrdering.h - Calls that may order device work ----*- C++ -*-===//
//
// One concern: for the producer diagnostic (a device-to-host copy issued on
// a stream that nothing made wait for the device work writing its source),
// which calls the analysis does not follow may nevertheless order device
// work across streams or with the host -- and so must end every claim that
// a producer is still unordered. The diagnostic claims that two streams
// are not ordered; any call that might order them silences it:
//  - an opaque call (no visible body, not modelled) of a function outside
//    system headers (it may launch work on the legacy default stream,
//    synchronize, record or wait for events), through a function pointer, or
//    given a stream, an event or an object that may hold one (a pointer or
//    reference to a class outside std and libtorch's tensors);
//  - a GPU API function the model does not know, except those documented
//    to leave device work alone (error and attribute queries, creating or
//    destroying events and streams);
//  - a helper or lambda with a visible body that calls any of these, or a
//    modelled synchronization, query, blocking transfer or allocation, or
//    issues work on a stream other than one of its stream parameters
//    (followed to a bounded depth; deeper: orders);
//  - an event record or stream wait of a helper's own, unless the helper's
//    summary carries it on every path (EventCalls; the call then applies
//    it to producers as the caller's own record or wait would be).
//
// May call: CudaApiModel, TorchModel, ExprUtils, LibraryCode,
// HelperSummaries (summarizable). Cached per helper by AsyncCopyAnalysis.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_STREAMORDERING_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_STREAMORDERING_H

#include "CudaApiModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <set>
#include <vector>

namespace clang::tidy::cuda {

/// What a helper's body may do to the order of device work.
struct StreamOrderingFacts {
  /// It may order device work whatever its arguments are.
  bool Orders = false;
  /// Indices of stream parameters it issues device work on: work on the
  /// legacy default stream, which orders blocking streams, when the
  /// argument is (or may be) stream 0.
  std::set<unsigned> WorkOnStreamParams;
  /// Its own event records and stream waits (cudaEventRecord,
  /// cudaStreamWaitEvent; not a nested helper's), on stream parameters:
  /// they order device work, but only as the helper's summary says where
  /// it carries each of them (HelperSummary's RecordsEvents and
  /// WaitsEvents, on every path, by Site), which the call then applies to
  /// the caller's producers too (EffectBuilder::addHelperOrdering).
  std::vector<const CallExpr *> EventCalls;
  /// It may order device work where no summary of it is applied (a
  /// lambda handed to a function, a constructor or destructor met inside
  /// another helper's walk): Orders, or any record or wait.
  bool mayOrderUnsummarized() const { return Orders || !EventCalls.empty(); }
};

/// A call of an opaque function (no visible body, not in the model) that
/// may order device work (see the file comment). Callee: the call's callee
/// as FunctionFacts resolves it (null: unknown).
bool opaqueCallMayOrder(const CallExpr *C, const FunctionDecl *Callee,
                        const ASTContext &Ctx);

/// Facts per helper definition, as first computed.
using StreamOrderingCache =
    llvm::DenseMap<const FunctionDecl *, StreamOrderingFacts>;

/// The facts of a helper with a visible body (summarizable), computed by a
/// walk of its body that follows helpers it calls to Depth more levels
/// (past that, or without a body: Orders). Cached by definition: a result
/// cut short at some depth only errs towards Orders.
const StreamOrderingFacts &orderingFactsOf(const FunctionDecl *Def,
                                           const ApiModel &Model,
                                           ASTContext &Ctx, unsigned Depth,
                                           StreamOrderingCache &Cache);

} // namespace clang::tidy::cuda

#endif
