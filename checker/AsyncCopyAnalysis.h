//===--- AsyncCopyAnalysis.h - Host accesses racing async D2H copies -*- C++ -*-===//
//
// A forward, flow-sensitive (not path-sensitive) analysis over clang's CFG of
// one callable. It tracks which asynchronous device-to-host copies may still
// be in flight at each point and reports host accesses of their destinations.
//
// State per program point:
//  - pending copies (a may-set: pending on some path), each with the last
//    call that looked like a sync but did not cover it (for the note);
//  - per event, the copies that a record on every path has captured (a
//    must-set: an event covers a copy only if recorded after it on every
//    path into the point).
// Branch conditions on cudaStreamQuery / cudaEventQuery refine the state on
// the edge where the result is known to be cudaSuccess.
//
// Helpers defined in the same translation unit are summarised by running the
// same analysis on their bodies with synthetic pending copies on their
// parameters, to a bounded depth (see HelperSummary).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_ASYNCCOPYANALYSIS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_ASYNCCOPYANALYSIS_H

#include "CudaApiModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// How the destination was touched on the host.
enum class AccessKind {
  Read,
  Write,
  PassedToFunction, ///< passed to a host function (Callee names it)
  OtherStreamUse,   ///< handed to stream-ordered work on another stream
  /// A lambda called here touches it through a capture (Callee: the
  /// lambda's variable, or null for a lambda called where it is written).
  UsedByLambda,
  /// Captured by a lambda that is passed to Callee, which may run it: like
  /// passing the buffer itself.
  CapturedByArgument,
  /// A helper called here touches it as a member of the object it is called
  /// on (`r.first()` reading `h_`) or as a global (Callee: the helper).
  UsedByCallee,
};

/// Which stream a copy or sync refers to.
struct StreamRef {
  enum Kind {
    Legacy,    ///< 0 / nullptr / cudaStreamLegacy (legacy default stream)
    PerThread, ///< cudaStreamPerThread, or 0 in per-thread mode
    Named,     ///< a variable, member or call; identity by Key
    Unknown,   ///< matches no stream (helper summaries' "any stream")
  } K = Unknown;
  std::string Key;      ///< identity, for Named
  std::string Spelling; ///< source text, for notes
  bool NonBlocking = false; ///< created with cudaStreamNonBlocking

  bool sameStream(const StreamRef &O) const {
    return K == O.K && (K != Named || Key == O.Key) && K != Unknown;
  }
};

/// One asynchronous device-to-host copy site (or a copy a helper leaves
/// pending, reported at the call of the helper).
struct CopySite {
  const Expr *Call = nullptr;      ///< the copy (or the helper call)
  const Expr *InnerCopy = nullptr; ///< the copy inside the helper, if any
  std::string Buffer;              ///< alias class key of the destination
  std::string BufferName;          ///< destination as spelled
  StreamRef Stream;
  bool Pageable = false; ///< destination known pageable (StrictMode only)
  bool Synthetic = false; ///< a helper summary's seed, never reported
  int SeedParam = -1;     ///< Synthetic: buffer parameter (or -1)
  int SeedStreamParam = -1; ///< Synthetic: stream parameter (or -1: any)
  /// Synthetic: a buffer the caller can name too, seeded by its key here
  /// (SeedParam is then -1): a lambda's capture, a member of `this`, a
  /// global. An index into HelperSummary::Named.
  int SeedNamed = -1;
  /// Synthetic: an event the helper synchronizes (a parameter, member,
  /// global or capture), which covers this seed at entry; cleared at exit
  /// iff the helper synchronizes that event on every path.
  std::string SeedEvent, SeedEventName; ///< its key (empty: none), name
  int SeedEventParam = -1; ///< SeedEvent is this parameter (or -1)
};

/// Why the access is unsynchronized, beyond "no sync on this path".
struct MissNote {
  MissReason Reason = MissReason::None;
  const Expr *Where = nullptr; ///< the call that did not cover the copy
  std::string Detail;          ///< the stream or event it named
};

/// One host access that some path reaches from a copy without a covering
/// synchronization.
struct Finding {
  const Expr *Access = nullptr; ///< where to warn
  AccessKind Kind = AccessKind::Read;
  const NamedDecl *Callee = nullptr; ///< PassedToFunction: the function
  const Stmt *CalleeAccess = nullptr; ///< where a helper touches it
  std::string BufferName;
  const CopySite *Copy = nullptr;
  MissNote Miss;
  bool LaterIteration = false; ///< the access precedes the copy in source
};

/// What calling a same-TU helper does, in terms of its parameters.
struct HelperSummary {
  bool SyncsDevice = false;           ///< on every path to its exit
  std::vector<bool> SyncsStreamParam; ///< per parameter
  /// Streams that are not parameters but members of the object the helper
  /// is called on (`this->s_`) or globals, synchronized on every path;
  /// keyed as in the helper (`this->...`), rebased at the call.
  std::vector<StreamRef> SyncsStreams;
  /// Events synchronized on every path (cudaEventSynchronize, or a helper
  /// that does), whatever was recorded into them before the call: per
  /// parameter, and those the caller names too (members, keyed as in the
  /// helper and rebased at the call, globals, captures).
  std::vector<bool> SyncsEventParam;
  struct EventRef {
    std::string Key, Spelling;
  };
  std::vector<EventRef> SyncsEvents;
  /// Events recorded on every path (cudaEventRecord in the helper, the last
  /// record on each path on the same stream): `void record() {
  /// cudaEventRecord(ev_, s_); }`. The event and the stream are each a
  /// parameter (index) or named as in SyncsEvents / SyncsStreams.
  struct EventRecord {
    int EventParam = -1;
    EventRef Event;
    int StreamParam = -1;
    StreamRef Stream;
  };
  std::vector<EventRecord> RecordsEvents;
  /// Per pointer parameter: touched on the host before a sync of the
  /// given stream parameter (index), or of no stream at all (-1).
  std::vector<std::vector<int>> AccessedUnlessSynced;
  std::vector<const Stmt *> AccessSite; ///< per parameter, first access
  struct PendingCopy {
    unsigned DstParam;
    int StreamParam; ///< -1: the stream is Stream below
    StreamRef Stream;
    const Expr *Copy;
    /// Or into a buffer the caller names too (DstParam unused): an index
    /// into Named.
    int DstNamed = -1;
  };
  std::vector<PendingCopy> CopiesLeftPending; ///< at the helper's exit

  // Buffers and streams the caller can name too, by their keys here: a
  // lambda's captures (C++ [expr.prim.lambda.capture]: a capture names the
  // enclosing function's variable; an init-capture `[p = h]` is mapped to
  // its initializer at the call), members of `this` (rebased to the object
  // called on, as SyncsStreams), globals.
  /// Streams the helper may use or synchronize that the caller names too.
  std::vector<StreamRef> CaptureStreams;
  /// How many of CaptureStreams (the first) the named buffers are seeded
  /// on; a copy on a later one is answered by the "any stream" seed.
  unsigned NamedBufferStreams = 0;
  struct NamedBuffer {
    std::string Key, Name;
    const VarDecl *Var = nullptr; ///< a captured variable, for provenance
    /// Seeds under which it is touched before a sync: an index into
    /// CaptureStreams (a copy on that stream), or -1 (on any other stream).
    std::vector<int> Unsynced;
    const Stmt *Site = nullptr; ///< the first access, for the note
  };
  /// Every such buffer the helper names; touched where Unsynced is not empty.
  std::vector<NamedBuffer> Named;
};

struct AnalysisOptions {
  bool StrictMode = false;
  bool PerThreadDefaultStream = false;
  unsigned MaxHelperDepth = 3;
  /// Cap on CFG block visits per callable (times the number of blocks,
  /// plus a floor); past it the callable is skipped without findings.
  unsigned BlockVisitFactor = 32;
  /// Cap on the work of one callable with its helper summaries (see
  /// AsyncCopyAnalysis::Work). The largest seen in real code (faiss,
  /// cuda-samples) is about 250'000; generated files with hundreds of
  /// mutually calling member functions over 100 members reach 40'000'000.
  uint64_t WorkLimit = 2'000'000;
};

/// Runs the analysis over callables of one translation unit, memoising
/// helper summaries across them.
class AsyncCopyAnalysis {
public:
  AsyncCopyAnalysis(ASTContext &Ctx, const ApiModel &Model,
                    AnalysisOptions Opts);
  ~AsyncCopyAnalysis();

  /// Findings for one callable's body, deterministic in order (by access
  /// location). Empty when the body is templated, contains errors, or
  /// exceeds the visit budget.
  std::vector<Finding> analyze(const FunctionDecl *FD);

  /// The summary of a helper, or nullptr when its body is not visible, the
  /// depth bound is reached, or it recurses. Sets *Truncated when the
  /// summary (or its absence) is due to the depth bound or recursion.
  const HelperSummary *summary(const FunctionDecl *FD, unsigned Depth,
                               bool *Truncated = nullptr);

  struct Impl;

private:
  ASTContext &Ctx;
  const ApiModel &Model;
  AnalysisOptions Opts;
  struct CachedSummary {
    std::unique_ptr<HelperSummary> S; ///< null: not analysable
    bool Truncated = false;
    unsigned Depth = 0;
  };
  llvm::DenseMap<const FunctionDecl *, CachedSummary> Summaries;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
  std::vector<std::unique_ptr<CopySite>> OwnedCopies; ///< outlive analyze()
  /// Work spent on one analyze() call, its helper summaries included (block
  /// visits weighted by the copies in flight); past WorkLimit the callable is
  /// skipped without findings, and summaries cut short are not cached.
  uint64_t Work = 0;
  bool OverBudget = false;
};

} // namespace clang::tidy::cuda

#endif
