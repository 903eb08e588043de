//===--- AsyncCopyAnalysis.h - Host accesses racing async D2H copies -*- C++ -*-===//
//
// The analysis's public face: what the check asks (analyze one callable)
// and what it gets back (Findings: the access, the copy, why no sync
// covered it). A forward, flow-sensitive (not path-sensitive) analysis over
// clang's CFG of one callable tracks which asynchronous device-to-host
// copies may still be in flight at each point and reports host accesses of
// their destinations. Helpers defined in the same translation unit are
// summarised by running the same analysis on their bodies, to a bounded
// depth (HelperSummaries.h).
//
// The phases, each in its own file (docs/architecture.md):
//   FunctionFacts -> Effects (HostAccess, HelperSummaries) -> Solver
//   (PendingState) -> Findings; AsyncCopyAnalysis.cpp drives them and
//   caches helper summaries.
//
// May call: the phases above. Called by AsyncReadBeforeSyncCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_ASYNCCOPYANALYSIS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_ASYNCCOPYANALYSIS_H

#include "ByteRegions.h"
#include "CudaApiModel.h"
#include "StreamOrigins.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"
#include <chrono>
#include <memory>
#include <map>
#include <optional>
#include <tuple>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class CallerContexts;

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

struct HelperSummary;
struct SummarySeed;
struct StreamOrderingFacts;
class SummaryStore;
class UsrIndex;

/// One asynchronous device-to-host copy site (or a copy a helper leaves
/// pending, reported at the call of the helper).
struct CopySite {
  const Expr *Call = nullptr;      ///< the copy (or the helper call)
  const Expr *InnerCopy = nullptr; ///< the copy inside the helper, if any
  /// The copy inside a helper defined in another translation unit, as
  /// `file:line:col` (an imported summary, SummaryFiles.h; InnerCopy is
  /// null then).
  std::string InnerCopyAt;
  std::string Buffer;              ///< alias class key of the destination
  std::string BufferName;          ///< destination as spelled
  /// The destination is element Element of an array of buffers, by a
  /// constant index (`bufs[1]`): another constant element is another
  /// buffer, though both are in Buffer's alias class.
  std::optional<long long> Element;
  /// The bytes the copy writes, where constant offsets and count say them
  /// (ByteRegions.h); nullopt: the whole buffer.
  std::optional<ByteRange> Bytes;
  StreamRef Stream;
  bool Pageable = false; ///< destination known pageable (StrictMode only)
  /// A cudaMemcpyDefault (or hipMemcpyDefault) into memory of unknown kind:
  /// the direction follows from the pointers (CUDA Runtime API,
  /// cudaMemcpyKind: "the type of transfer is inferred from the pointer
  /// values"), so this is a copy to the host only where the destination is
  /// host memory. It counts where the callable itself dereferences the
  /// destination on the host (a host read or write: device memory there
  /// would fault); in a helper's summary, a destination that is a parameter
  /// is decided at each call by the argument (HelperSummaries); otherwise
  /// the copy is dropped (Effects).
  bool NeedsHostDestination = false;
  /// The variable the destination is named by, where it is one (`h` of
  /// `cudaMemcpyAsync(h, ...)` or of a helper's call `fetch(h, ...)`);
  /// null otherwise.
  const ValueDecl *DstVar = nullptr;
  /// The destination's path (AccessPath::of its buffer root), where the
  /// callable names it by an expression (a followed pointer's holders,
  /// PendingCopy::Holders, start from it); nullopt otherwise.
  std::optional<AccessPath> DstPath;
  /// DstPath with the locals that stand for an element replaced by what
  /// they are at the copy (FunctionFacts::expandAliases: `dst` as `bufs[1 -
  /// cur]`, `bufs[nxt]` as `bufs[1 - cur]`), where that differs; the
  /// element indices the solver reasons about (PendingCopy::IndicesHeld).
  std::optional<AccessPath> ElementPath;
  const AccessPath &elementPath() const {
    return ElementPath ? *ElementPath : *DstPath;
  }
  /// The copy's source, a device buffer: its alias class key (empty when
  /// the copy is a helper's or the source is untrackable) and spelling.
  std::string Source;
  std::string SourceName;
  /// A helper summary's synthetic copy (HelperSummaries.h), never
  /// reported; null for a real copy.
  const SummarySeed *Seed = nullptr;
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
  /// Summary runs: the ids of the event seeds still pending at the access
  /// (events the helper has not synchronized on every path to it).
  std::vector<unsigned> PendingEventSeeds;
  /// The producer diagnostic (Solver::checkProducers): the copy (Access,
  /// Copy) may read its source (BufferName) before this device work, on
  /// ProducerStream, has written it; nothing orders the two streams.
  const Stmt *Producer = nullptr;
  StreamRef ProducerStream;
  StreamRef CopyStream; ///< the copy's stream (Copy is null then)
  bool BlockingCopy = false; ///< a blocking copy (cudaMemcpy, `.cpu()`)
  /// What the warning claims of the two streams (claimUnordered): Certain,
  /// or unless the handed stream -- the producer's when SubjectIsProducer,
  /// else the copy's -- is a particular one.
  ClaimKind Claim = ClaimKind::Certain;
  bool SubjectIsProducer = false;
};

/// What a helper's parameters are bound to at the call being summarized
/// (a summary per binding):
///  - function-pointer parameters whose argument names a function:
///    `synchronize_impl(cudaStreamQuery, s)` runs `query(object)` as
///    cudaStreamQuery(s), `apply(myHelper, s)` runs myHelper (a call
///    through a parameter bound to nothing has an unknown target:
///    callsUnknownTarget);
///  - cudaMemcpyKind / hipMemcpyKind parameters whose argument is a
///    constant: `copy(dst, src, n, cudaMemcpyDeviceToHost, s)` of a wrapper
///    whose direction is a parameter (Paddle's GpuMemcpyAsync, TensorRT's
///    buffers.h).
struct CallBindings {
  std::vector<std::pair<const ParmVarDecl *, const FunctionDecl *>> Functions;
  std::vector<std::pair<const ParmVarDecl *, long long>> Constants;
  bool operator<(const CallBindings &O) const {
    return std::tie(Functions, Constants) < std::tie(O.Functions, O.Constants);
  }
};

struct AnalysisOptions {
  bool StrictMode = false;
  /// The producer diagnostic's claims on streams the callable is handed
  /// (claimUnordered; the check's CallerStreams option).
  bool CallerStreams = true;
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
  /// Summaries of functions defined in other translation units
  /// (SummaryFiles.h), applied at calls of functions without a body here;
  /// null: none.
  std::shared_ptr<const SummaryStore> Imported;
};

/// Where the check's time goes in one translation unit, and what it gave
/// up (printed when the CARS_PROFILE environment variable is set; read by
/// bench/real_tus.py). Times are wall-clock seconds, exclusive: a helper
/// summary's run counts under Summaries, not under the phase that asked for
/// it.
struct AnalysisProfile {
  enum Phase {
    Select,    ///< the pre-filter (CallableSelection.h)
    Facts,     ///< FunctionFacts of the callables themselves
    Effects,   ///< their effect lists (helper summaries excluded)
    Solver,    ///< their data flow and reporting pass
    Summaries, ///< every phase of helper summaries' runs
    Report,    ///< diagnostics and fix-its
    NumPhases,
    None = NumPhases,
  };
  double Seconds[NumPhases] = {};
  unsigned Callables = 0; ///< callables analysed
  unsigned GivenUp = 0;   ///< of them, skipped past a budget
  unsigned SummaryRuns = 0;

  /// Charges the time since the last switch to the current phase and makes
  /// Ph current.
  void switchTo(Phase Ph) {
    auto Now = std::chrono::steady_clock::now();
    if (Current != None)
      Seconds[Current] +=
          std::chrono::duration<double>(Now - Since).count();
    Current = Ph;
    Since = Now;
  }
  Phase Current = None;
  std::chrono::steady_clock::time_point Since;
};

/// Makes a phase current for a scope, then restores the one before.
class PhaseTimer {
public:
  PhaseTimer(AnalysisProfile &P, AnalysisProfile::Phase Ph)
      : P(P), Saved(P.Current) {
    P.switchTo(Ph);
  }
  ~PhaseTimer() { P.switchTo(Saved); }
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

private:
  AnalysisProfile &P;
  AnalysisProfile::Phase Saved;
};

/// Runs the analysis over callables of one translation unit, memoising
/// helper summaries across them.
class AsyncCopyAnalysis {
public:
  /// Profile: where the time is charged (owned by the caller).
  AsyncCopyAnalysis(ASTContext &Ctx, const ApiModel &Model,
                    AnalysisOptions Opts, AnalysisProfile &Profile);
  ~AsyncCopyAnalysis();

  /// Findings for one callable's body, deterministic in order (by access
  /// location). Empty when the body is templated, contains errors, or
  /// exceeds a budget (the visit cap or WorkLimit); *GaveUp is then set for
  /// a budget.
  std::vector<Finding> analyze(const FunctionDecl *FD,
                               bool *GaveUp = nullptr);

  /// The summary of a helper, or nullptr when its body is not visible, the
  /// depth bound is reached, or it recurses. Sets *Truncated when the
  /// summary (or its absence) is due to the depth bound or recursion.
  /// Bound: what the helper's parameters are bound to at the call
  /// (CallBindings); a summary per binding.
  const HelperSummary *summary(const FunctionDecl *FD, unsigned Depth,
                               bool *Truncated = nullptr,
                               const CallBindings &Bound = {});

  /// The summary of FD, defined in this translation unit, for other units
  /// (SummaryFiles.h): computed as for a call at the first helper level,
  /// with a work budget of its own, under Bound (a constant-argument
  /// variant; none: the summary for any argument). Null: not analysable.
  const HelperSummary *summaryForExport(const FunctionDecl *FD,
                                        const CallBindings &Bound = {});

  /// The parameters of Def (indices) whose value decides a branch of its
  /// body: of integral, enumeration or bool type, named in the condition
  /// of an `if` or a `?:`, or passed on to such a parameter of a callee
  /// (one summarised here, or imported with variants for it). A call's
  /// constant argument for one is bound (CallBindings::Constants), and its
  /// summary is per value. Cached (a copy: the cache grows while callers
  /// iterate).
  std::vector<unsigned> branchParams(const FunctionDecl *Def);

  /// The summary imported for FD, a function without a body in this
  /// translation unit and outside system headers (AnalysisOptions::
  /// Imported), rebuilt once per translation unit; null: none. Bound: the
  /// call's constant arguments, asked for only when the summary has
  /// constant-argument variants ("byConstant"); the variant for the first
  /// of them that has one is the one applied.
  const HelperSummary *
  importedSummary(const FunctionDecl *FD,
                  llvm::function_ref<CallBindings()> Bound = nullptr);
  /// The USRs importedSummary was asked for (with the import on), for the
  /// export: a driver re-runs this unit when one of their summaries changes.
  const std::vector<std::string> &consulted() const { return Consulted; }
  /// Whether a call of FD is applied through a summary: its body is here
  /// (summarizable) or its summary was imported.
  bool hasSummary(const FunctionDecl *FD);

  //--- For the analysis's phases (CallableRun) -----------------------------
  ASTContext &context() const { return Ctx; }
  const ApiModel &model() const { return Model; }
  const AnalysisOptions &options() const { return Opts; }
  AnalysisProfile &profile() const { return Profile; }
  /// FunctionFacts::SetsCurrentStreamCache, for the translation unit.
  llvm::DenseMap<const FunctionDecl *, bool> &setsCurrentStreamCache() {
    return SetsCurrentStream;
  }
  /// FunctionFacts::Origins: members' and globals' streams across the
  /// translation unit (walked on first use).
  StreamOrigins &streamOrigins();
  /// FunctionFacts::Contexts: what internal functions' and lambdas' callers
  /// pass them (walked on first use).
  CallerContexts &callerContexts();
  /// A new copy site, owned by the analysis (findings point to it).
  CopySite *newCopySite();
  /// Counts work (block visits weighted by the copies in flight).
  void spendWork(uint64_t Units) { Work += Units; }
  /// False once the work of this analyze() call passed WorkLimit; the
  /// callable is then given up.
  bool withinWorkLimit();
  /// A run hit its visit cap (Solver): the callable, if it is the one
  /// analyze() was asked for, is given up.
  void visitCapReached(unsigned Depth) {
    if (Depth == 0)
      VisitCapped = true;
  }
  /// Whether helpers may order device work (StreamOrdering.h), per
  /// definition, across the translation unit.
  llvm::DenseMap<const FunctionDecl *, StreamOrderingFacts> &
  orderingCache();
  /// Whether helpers visibly throw (Exceptions.h), per definition.
  llvm::DenseMap<const FunctionDecl *, bool> &throwCache() {
    return ThrowCache;
  }

private:
  ASTContext &Ctx;
  const ApiModel &Model;
  AnalysisOptions Opts;
  AnalysisProfile &Profile;
  struct CachedSummary {
    std::unique_ptr<HelperSummary> S; ///< null: not analysable
    bool Truncated = false;
    unsigned Depth = 0;
  };
  std::map<std::pair<const FunctionDecl *, CallBindings>, CachedSummary>
      Summaries;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
  /// Imported summaries by canonical declaration (null: none), and their
  /// constant-argument variants: as exported, and rebuilt by (parameter,
  /// value).
  struct ImportedEntry {
    const llvm::json::Object *Json = nullptr;
    std::unique_ptr<HelperSummary> Any;
    const llvm::json::Array *Variants = nullptr; ///< "byConstant", if any
    std::map<std::pair<unsigned, long long>, std::unique_ptr<HelperSummary>>
        ByConstant;
  };
  llvm::DenseMap<const FunctionDecl *, ImportedEntry> ImportedSummaries;
  /// FD's entry, loaded on first use; null for a function with a body
  /// here, in a system header, or with no import at all.
  ImportedEntry *importedEntry(const FunctionDecl *FD);
  llvm::DenseMap<const FunctionDecl *, std::vector<unsigned>> BranchParams;
  std::unique_ptr<UsrIndex> Usrs;
  /// USRs of the functions without a body whose imported summary the
  /// analysis asked for (found or not): the summary file's "consults".
  std::vector<std::string> Consulted;
  std::vector<std::unique_ptr<CopySite>> OwnedCopies; ///< outlive analyze()
  /// Work spent on one analyze() call, the helper summaries it computed
  /// included (block visits weighted by the state carried); past WorkLimit
  /// the callable is skipped without findings. A helper summary has a
  /// budget of its own: past it, the summary is cached as TooCostly (so no
  /// later call pays for it again) and the caller goes on.
  uint64_t Work = 0;
  /// Work of summaries given up in this analyze() call; past WorkLimit, no
  /// further summary is tried (each is taken as TooCostly).
  uint64_t Wasted = 0;
  HelperSummary *tooCostly();
  std::unique_ptr<HelperSummary> TooCostlySummary;
  /// What a recursive call of Def meets while Def's summary is computed:
  /// a summary that does nothing (see summary()).
  const HelperSummary *recursionSummary(const FunctionDecl *Def);
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<HelperSummary>>
      RecursionSummaries;
  llvm::DenseMap<const FunctionDecl *, bool> SetsCurrentStream;
  std::unique_ptr<StreamOrigins> Origins;
  /// Imported stream members' origins by declaration, each asked once (and
  /// listed once among the consults).
  llvm::DenseMap<const ValueDecl *, std::optional<StreamOrigin>>
      ImportedOrigins;
  /// What the imported summaries say of a library handle member
  /// (SummaryStore::handleMemberStream, handleMemberOtherObject): the USR
  /// of its stream (nullopt: nothing said; empty: unknown), and whether a
  /// setter gives it another object's stream. Asked once per handle (and
  /// listed once among the consults).
  struct ImportedHandle {
    std::optional<std::string> Stream;
    bool OtherObject = false;
  };
  const ImportedHandle &importedHandle(const ValueDecl *H);
  llvm::DenseMap<const ValueDecl *, ImportedHandle> ImportedHandles;
  /// The unit's stream members and globals by USR, built on first need.
  llvm::StringMap<const ValueDecl *> StreamDeclsByUSR;
  std::unique_ptr<CallerContexts> Contexts;
  bool OverBudget = false;
  bool VisitCapped = false;
  std::unique_ptr<llvm::DenseMap<const FunctionDecl *, StreamOrderingFacts>>
      OrderingCache;
  llvm::DenseMap<const FunctionDecl *, bool> ThrowCache;
};

} // namespace clang::tidy::cuda

#endif
