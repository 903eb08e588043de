//===--- Solver.h - The data flow over one callable's CFG -------*- C++ -*-===//
//
// One concern: the forward, flow-sensitive (not path-sensitive) data flow
// over clang's CFG of one callable, on the PendingState lattice:
//  - the transfer of each Effect (issue a copy, sync a stream or an event,
//    record an event, a query, stream-ordered work, a host access);
//  - branch refinement: the edge on which a cudaStreamQuery /
//    cudaEventQuery result is known to be cudaSuccess, and literals on
//    stable variables (`if (async) ... if (async)`);
//  - the budgets (block visits per callable, work per analyze() call),
//    past which the callable is given up without findings;
//  - a reporting pass after convergence that turns accesses of pending
//    copies into Findings.
// A helper call's transfer is HelperSummaries' (applyHelperCall), which
// calls back the transfers below.
//
// May call: PendingState, Effects, FunctionFacts, CudaApiModel,
// HelperSummaries (application at calls, entry seeds), Exceptions (edges
// from calls that throw to their try's handlers).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_SOLVER_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_SOLVER_H

#include "CallableRun.h"
#include "Effects.h"
#include "FunctionFacts.h"
#include "HelperSummaries.h"
#include "PendingState.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace clang::tidy::cuda {

class Solver {
public:
  Solver(CallableRun &R, FunctionFacts &F, CallableEffects &E);

  /// Runs to a fixed point, then one reporting pass. Returns the state at
  /// the exit block, or nullopt when over budget or without a CFG.
  std::optional<PendingState> run();

  /// Findings of the reporting pass: one per access site; in a summary
  /// run, one per access site and seed (each seed answers its own
  /// question).
  std::vector<Finding> Findings;
  /// A summary run's consumptions (HelperSummary::Consumes), sorted,
  /// without duplicates.
  std::vector<HelperSummary::Consumption> Consumed;

  FunctionFacts &facts() { return F; }
  const CopySite &copy(unsigned Id) const { return *Effects.Copies[Id]; }
  /// The class a copy is pending under (CallableEffects::ClassOf).
  unsigned classOf(unsigned Id) const { return Effects.ClassOf[Id]; }

  //--- Transfers (also applied by HelperSummaries at helper calls) --------
  /// A host sync of stream S at Where.
  void syncStream(PendingState &St, const StreamRef &S, const Expr *Where);
  /// Work on S, a blocking stream other than the legacy one, waits for the
  /// copies pending on the legacy stream: a later sync of S covers them.
  void waitForLegacy(PendingState &St, const StreamRef &S, const Expr *Where);
  /// The copies pending on the legacy default stream.
  std::set<unsigned> pendingOnLegacy(const PendingState &St) const;
  /// S is a stream parameter of the callable whose flags it cannot know.
  bool isUnknownFlagsParam(const StreamRef &S) const;
  /// cudaEventSynchronize of an event (by expression, or by key and name).
  void syncEvent(PendingState &St, const Expr *EventE, const Expr *Where);
  /// Elements: which elements of an array of events the sync names.
  void syncEvent(PendingState &St, const AccessPath &Event,
                 const std::string &EventName, const Expr *Where,
                 const ElementRange *Elements = nullptr);
  /// A device sync at C (cudaDeviceSynchronize): completes the copies
  /// issued while the device current at C was (FunctionFacts::
  /// currentDevice), or while the check cannot tell which device was.
  void syncDevice(PendingState &St, const CallExpr *C, const ApiEntry &E);
  /// cudaEventRecord(event, S) at Where: the event covers what S has in
  /// flight now, including what S waits for (cudaStreamWaitEvent). EventE:
  /// the event as written at Where, when it is this callable's expression
  /// (for the elements of an array of events it names).
  void recordEvent(PendingState &St, const AccessPath &Event,
                   const StreamRef &S, const Expr *Where,
                   const Expr *EventE = nullptr);
  /// A helper's record of the event on S on some of its paths only
  /// (HelperSummary::EventRecord::SomePaths): past Where the event covers
  /// the copies and producers both a record at Where would capture and it
  /// covered before (on the other paths it keeps its earlier record). An
  /// event not recorded before covers nothing (the helper's own copies
  /// that its record covers are added by the caller of this).
  void mayRecordEvent(PendingState &St, const AccessPath &Event,
                      const StreamRef &S, const Expr *Where,
                      const Expr *EventE = nullptr);
  /// A query C of stream S (cudaStreamQuery, or a helper that returns
  /// whether one succeeded): what its cudaSuccess edge completes
  /// (PendingState::Queried), keyed by C.
  void queryStream(PendingState &St, const CallExpr *C, const StreamRef &S);
  /// The same for a query of an event (cudaEventQuery).
  void queryEvent(PendingState &St, const CallExpr *C, const AccessPath &Event,
                  const std::string &EventName);
  /// cudaStreamWaitEvent(S, Event) at Where: S's later work (and a host
  /// sync of S) follows what the event covers, copies and producers.
  void waitEvent(PendingState &St, const StreamRef &S,
                 const AccessPath &Event, const Expr *Where);
  /// Waiter made to wait at Where for the work Signaler has in flight, as
  /// by an event recorded on Signaler and waited for by Waiter (a helper's
  /// HelperSummary::JoinsStreams).
  void joinStreams(PendingState &St, const StreamRef &Waiter,
                   const StreamRef &Signaler, const Expr *Where);
  /// A signal the host can wait for (PendingState::EventInfo::HostSignal)
  /// starts at Where: it covers what Streams (every stream, when Device)
  /// have in flight now, as an event recorded on them would. Accumulate:
  /// one more thread of a container, whose signal (waiting for them all)
  /// also covers what the earlier ones covered.
  void recordSignal(PendingState &St, const AccessPath &Signal,
                    llvm::ArrayRef<StreamRef> Streams, bool Device,
                    const Expr *Where, bool Accumulate = false);
  /// The host waited for the signal: what it covers is complete. Nothing
  /// when no signal of that key started on this path.
  void waitSignal(PendingState &St, const AccessPath &Signal);
  /// The exit edge of a loop whose condition Cond reads a host signal's
  /// object (`while (done.load() == 0) {}`), or the return of a condition
  /// variable's wait whose predicate (Cond: its body) reads it: the host
  /// saw the signal (HostOrdering.cpp).
  void pollExit(PendingState &Edge, const Stmt *Cond);
  /// A copy is issued (again): a fresh instance, which no earlier event
  /// record or query covers.
  void issue(PendingState &St, unsigned Id);
  /// Followed pointers get new values, all at once (PointerValues.cpp):
  /// each now holds the pending copies its value holds.
  void repoint(PendingState &St,
               llvm::ArrayRef<FunctionFacts::PointerDefinition> Defs);
  /// A host access of alias class Buffer: a finding for each pending copy
  /// into it (the first, outside summary runs). UseStream: the access is
  /// stream-ordered work on that stream, ordered after copies it covers.
  /// The buffer is named by Name's spelling, or by *NameStr (and its path
  /// by *NamePath, where there is one: a helper's access of a member the
  /// caller names). Element: a
  /// constant element of an array of buffers, which a copy into another
  /// constant element does not touch.
  void report(const PendingState &St, const std::string &Buffer,
              AccessKind K, const Expr *Loc, const Expr *Name,
              const NamedDecl *Callee, const Stmt *CalleeAccess = nullptr,
              const StreamRef *UseStream = nullptr,
              const std::string *NameStr = nullptr,
              std::optional<long long> Element = std::nullopt,
              const std::optional<ByteRange> &Bytes = std::nullopt,
              const AccessPath *NamePath = nullptr);
  /// An access whose buffer has path Access names another buffer than
  /// pending copy P's destination: it is reached through a followed
  /// pointer that does not hold P (PendingCopy::Holders), or parts from
  /// the destination's path at an index that differs while the copy's
  /// indices hold (PendingCopy::IndicesHeld).
  bool otherBuffer(const PendingCopy &P, const AccessPath &Access,
                   const Expr *At = nullptr) const;

  //--- The producer diagnostic ---------------------------------------------
  /// Device work writing a device buffer (Effect::Produce).
  void produce(PendingState &St, const Effect &Ev);
  /// A device-to-host copy reading Ev.Buffer on Ev.OnStream: a finding
  /// (outside summary runs) for a producer of it on a stream that is not
  /// ordered before the copy's (unorderedStreams), that the copy's stream
  /// did not wait for, and that no legacy-stream work joined with it.
  void checkProducers(const PendingState &St, const Effect &Ev);
  bool namesPartOf(const Effect &Ev, const ProducerKey &Key) const;
  /// Work on the legacy default stream: producers on blocking streams are
  /// ordered before every blocking stream's later work.
  static void joinLegacy(PendingState &St);

private:
  void note(PendingState &St, MissReason Reason, const Expr *Where,
            const StreamRef *S);
  /// The followed pointers that hold copy C's destination where it is
  /// issued, and its target (PendingCopy::Holders, Target).
  void holdersAtIssue(const PendingState &St, PendingCopy &P,
                      const CopySite &C) const;
  /// Whether followed pointer Via, if an access names its buffer through
  /// one, may hold copy P's destination (PendingCopy::Holders).
  static bool mayHold(const PendingCopy &P, const VarDecl *Via) {
    return !Via || P.AnyHolder || P.Holders.count(Via);
  }
  /// The followed pointer an access path is rooted at (`cur` of `cur[i]`,
  /// `cur->host`), or null.
  const VarDecl *followedRoot(const AccessPath &Name) const;
  /// Whether the indices of copy C's destination read local variables
  /// (at least one) and constants only, which only Write effects change
  /// (PendingCopy::IndicesHeld).
  bool stableIndices(const CopySite &C) const;
  /// A host wait on stream S (or a query of it) completes the producers
  /// that may be on S (OrWaited: or on a stream S waited for).
  void recordOn(PendingState &St, const AccessPath &Key,
                PendingState::EventInfo Info, llvm::ArrayRef<StreamRef> Streams,
                bool Device, const Expr *Where);
  void completeProducersOn(PendingState &St, const StreamRef &S,
                           bool OrWaited);
  /// A sync or query of an event completes the producers it captured.
  void completeCapturedProducers(PendingState &St, const AccessPath &Event);
  /// Producers an event (any the check cannot tell from Key) captured.
  std::set<ProducerKey> capturedProducers(const PendingState &St,
                                          const AccessPath &Key) const;
  void streamOrderedUse(const PendingState &St, const CallExpr *C,
                        const StreamRef &S);
  void applyApi(PendingState &St, const CallExpr *C, const ApiEntry &E);
  void transfer(PendingState &St, const Effect &Ev, bool Reporting);
  std::optional<std::pair<const CallExpr *, unsigned>>
  querySuccessEdge(const Expr *Cond) const;
  /// The literal a branch condition gives on one edge, if the condition
  /// tests a stable variable (whether or not it is correlated).
  std::optional<Literal> literalOf(const Expr *Cond, bool OnTrue) const;
  /// literalOf, for variables in Correlated only.
  std::optional<Literal> conditionLiteral(const Expr *Cond, bool OnTrue) const;
  /// The value of a condition on a variable of known value
  /// (FunctionFacts::knownValue): a local initialised with a constant and
  /// never changed (`bool wait = true; if (wait)`), or a parameter bound to
  /// a constant at the call being summarized (`if (kind ==
  /// Behavior::Sync)` under `kind = Sync`). The other edge is not taken.
  /// nullopt: not known.
  std::optional<bool> boundCondition(const Expr *Cond) const;
  /// Variables whose literals can meet another test of them: tested by two
  /// or more branch conditions, or by one inside a loop that the variable
  /// is declared outside of. A literal on any other variable (the
  /// `cudaError_t err = (x); if (err != cudaSuccess)` of an error-checking
  /// macro) can contradict nothing and refine nothing, so it is not kept:
  /// thousands of them made each state, and the analysis, grow with the
  /// function (issue 13).
  void findCorrelated(const CFG &Cfg);
  llvm::DenseSet<const VarDecl *> Correlated;
  /// The join's choice of note for a copy pending on both sides.
  bool preferNote(const MissNote &A, const MissNote &B) const;

  CallableRun &R;
  FunctionFacts &F;
  CallableEffects &Effects;
  ASTContext &Ctx;
  const ApiModel &Model;
  const AnalysisOptions &Opts;
  std::map<const Expr *, size_t> FindingAt; ///< one per access site
  std::set<std::pair<const Expr *, const CopySite *>> SeedFindings;
  std::set<const Stmt *> ProducerFindingAt; ///< one per copy
  void recordConsumption(const PendingState &St, const Effect &Ev);
  /// A summary run's seed producers (the caller's work) end at a sync,
  /// query or wait of an event: the caller may have recorded it after them.
  void dropCallerSeeds(PendingState &St);
  /// On the edge where a handed stream variable is null (`if (!s)`, the
  /// else of `if (s)`, `s == nullptr`), its producers are on stream 0.
  void nullStreamEdge(PendingState &Edge, const Expr *Cond, bool OnTrue) const;
};

} // namespace clang::tidy::cuda

#endif
