//===--- HelperSummaries.h - What calling a helper does ---------*- C++ -*-===//
//
// One concern: helpers (and lambdas) defined in the translation unit, looked
// through by summaries instead of being inlined:
//  - eligibility (summarizable);
//  - seeds: a summary run starts with synthetic pending copies -- into each
//    pointer parameter on each stream parameter and on no particular stream,
//    on streams and buffers the caller names too (members of `this`,
//    globals, a lambda's captures), and covered by events the helper
//    synchronizes -- and asks, at the helper's exit and at each access,
//    what became of each;
//  - extraction: the HelperSummary, from the exit state and the findings;
//  - application at a call: the summary rebased to the caller's names
//    (parameter -> argument, `this` -> the object called on, an
//    init-capture -> its initializer), the syncs, records and accesses it
//    implies, and the copies it leaves in flight.
// The cache, the depth bound and the recursion into the solver for a
// helper's body are AsyncCopyAnalysis::summary's.
//
// May call: FunctionFacts, Effects, Solver (its transfers), PendingState,
// AccessPath, ExprUtils, CudaApiModel, LibraryCode (whose bodies are
// summarised), HostOrdering (the future a helper returns).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_HELPERSUMMARIES_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_HELPERSUMMARIES_H

#include "CallableRun.h"
#include "Effects.h"
#include "FunctionFacts.h"
#include "PendingState.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class Solver;

/// What calling a same-TU helper does, in terms of its parameters.
struct HelperSummary {
  /// The helper's analysis passed the work budget (AsyncCopyAnalysis::
  /// summary): nothing is known of it, so a call of it is taken to
  /// synchronize everything (no warning rests on what it might not do) and
  /// the buffers passed to it are not reported. Every other field is empty.
  bool TooCostly = false;
  /// Sizes the per-parameter fields below for NP parameters, each saying
  /// "no sync, no access" (the start of an extraction or an import, and the
  /// summary a recursive call meets while its own is computed).
  void sizeForParams(unsigned NP) {
    SyncsStreamParam.assign(NP, false);
    SyncsStreamParamIfBlocking.assign(NP, false);
    SyncsEventParam.assign(NP, false);
    AccessedUnlessSynced.assign(NP, {});
    AccessSite.assign(NP, nullptr);
    AccessGuards.assign(NP, {});
  }
  bool SyncsDevice = false;           ///< on every path to its exit
  std::vector<bool> SyncsStreamParam; ///< per parameter
  /// Per parameter: synchronized on every path only through the legacy
  /// default stream (a blocking cudaMemcpy, cudaStreamSynchronize(0)),
  /// which waits for the caller's stream only where it is blocking.
  std::vector<bool> SyncsStreamParamIfBlocking;
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
    AccessPath Path;
    std::string Spelling;
  };
  std::vector<EventRef> SyncsEvents;
  /// Events recorded on every path (cudaEventRecord in the helper, the last
  /// record on each path on the same stream): `void record() {
  /// cudaEventRecord(ev_, s_); }`. The event and the stream are each a
  /// parameter (index) or named as in SyncsEvents / SyncsStreams.
  /// A record on some paths only (`if (copy) { cudaMemcpyAsync(..);
  /// cudaEventRecord(e, s); }`) is SomePaths: at the call the event covers
  /// what it covered before and a record would capture alike, and the
  /// copies the summary says it covers (PendingCopy::CoveredBy; Solver::
  /// mayRecordEvent).
  struct EventRecord {
    int EventParam = -1;
    EventRef Event;
    int StreamParam = -1;
    StreamRef Stream;
    bool SomePaths = false;
    /// The record call (StreamOrderingFacts::EventCalls); null when nested
    /// or imported.
    const Expr *Site = nullptr;
  };
  std::vector<EventRecord> RecordsEvents;
  /// Every return statement returns the future of a promise
  /// (promiseOfFuture, HostOrdering.h) that a host function enqueued on
  /// every path fulfils (`cudaLaunchHostFunc(s, fulfil, p); return
  /// p->get_future();`): at the call, the result is a signal covering what
  /// that stream has in flight, which `f.wait()` / `f.get()` of the result
  /// waits for ([futures.promise]; the first adversarial round's program
  /// 23). The stream: a parameter (index) or named as in SyncsStreams. Not
  /// exported (SummaryFiles.h): an imported summary has none.
  struct ReturnedSignal {
    int StreamParam = -1;
    StreamRef Stream;
  };
  std::optional<ReturnedSignal> ReturnsSignal;
  /// Every return statement returns whether one query succeeded (`bool
  /// ready() const { return cudaEventQuery(ev_) == cudaSuccess; }`, or `!=
  /// cudaErrorNotReady`): at the caller, a branch on the call is a branch on
  /// that query's result (Solver::querySuccessEdge), the event or stream a
  /// parameter (index) or named as in SyncsEvents / SyncsStreams. Not
  /// exported.
  struct QueryResult {
    bool OnEvent = false;
    int Param = -1;
    EventRef Event;
    StreamRef Stream;
  };
  std::optional<QueryResult> ReturnsQuerySuccess;
  /// Streams the helper makes wait, on every path, for the work another
  /// stream had in flight at the call (`cudaEventRecord(ev, signaler);
  /// cudaStreamWaitEvent(waiter, ev)`, torch's wait_stream): at the caller,
  /// the waiter's later work and host syncs follow that work (Solver::
  /// joinStreams; runtime/cases/wait_event_then_sync_other.cu). Each
  /// stream a parameter (index) or named as in SyncsStreams. Not exported.
  struct StreamJoin {
    int WaiterParam = -1;
    StreamRef Waiter;
    int SignalerParam = -1;
    StreamRef Signaler;
  };
  std::vector<StreamJoin> JoinsStreams;
  /// Streams the helper makes wait, on every path, for an event as the
  /// caller last recorded it (`void after(cudaStream_t w, cudaEvent_t e) {
  /// cudaStreamWaitEvent(w, e, 0); }`; not a record of its own first: that
  /// is a join): at the caller, cudaStreamWaitEvent of those (Solver::
  /// waitEvent). The stream a parameter (index) or named as in JoinsStreams,
  /// the event a parameter (index) or named as in SyncsEvents. Not exported.
  struct EventWait {
    int WaiterParam = -1;
    StreamRef Waiter;
    int EventParam = -1;
    EventRef Event;
    const Expr *Site = nullptr; ///< the (last) wait call on the waiter
  };
  std::vector<EventWait> WaitsEvents;
  /// Library handles (cuBLAS, cuFFT, hipFFT: isHandleStreamSetter) the
  /// helper gives a stream by a setter call that is a statement of its
  /// body's outermost block (so on every path that returns), no other
  /// setter of the handle elsewhere in the body (`void init(Ctx &c) {
  /// cublasCreate(&c.handle); cublasSetStream(c.handle, c.compute); }`).
  /// The handle and the stream: a parameter (index) or named as the caller
  /// names them too (namedByCaller). A routine on the handle after the call,
  /// in a block that holds the call, runs on that stream
  /// (EffectBuilder::handleStreamAt; the fifth round's 12). Not exported.
  struct HandleStream {
    int HandleParam = -1;
    EventRef Handle;
    int StreamParam = -1;
    StreamRef Stream;
  };
  std::vector<HandleStream> SetsHandleStreams;
  /// Every return statement returns a heap object the helper builds from
  /// its parameters, unchanged (`return std::make_unique<Fence>(s);`,
  /// `return new Fence(s);`: heapConstruction, ExprUtils.h), or, ByValue,
  /// an object of the class the helper returns (`return Token(s);`,
  /// `return {s};`: valueConstruction), or a local holding either, returned
  /// right after its declaration (so that nothing the helper does comes
  /// after the construction): the constructor, and per argument of it the
  /// parameter (index). At a call initialising a local pointer (a local
  /// object, ByValue), the constructor's summary applies on the object it
  /// holds (the first adversarial round's program 05, the fifth round's
  /// 15). What the helper does to the object after building it is not
  /// followed. Not exported (SummaryFiles.h).
  struct NewObject {
    const CXXConstructorDecl *Ctor = nullptr;
    std::vector<unsigned> ArgParams;
    bool ByValue = false;
  };
  std::optional<NewObject> ReturnsNew;
  /// Per pointer parameter: touched on the host before a sync of the
  /// given stream parameter (index), of the legacy default stream (for a
  /// copy on a blocking stream the helper does not name:
  /// SummarySeed::AnyBlockingStream), of the per-thread default stream
  /// (SummarySeed::PerThreadStream), or of no stream at all (-1).
  std::vector<std::vector<int>> AccessedUnlessSynced;
  std::vector<const Stmt *> AccessSite; ///< per parameter, first access
  /// An event the helper synchronizes on every path before each of its
  /// accesses of a buffer (`float get() { cudaEventSynchronize(ev_);
  /// return h_[0]; }`): the access is not a race at a call where the event
  /// covers the caller's copy. A parameter (index) or named as SyncsEvents.
  struct EventGuard {
    int EventParam = -1;
    EventRef Event;
  };
  std::vector<std::vector<EventGuard>> AccessGuards; ///< per parameter
  struct PendingCopy {
    unsigned DstParam;
    int StreamParam; ///< -1: the stream is Stream below
    StreamRef Stream;
    const Expr *Copy; ///< null in a summary imported from another unit
    /// Or into a buffer the caller names too (DstParam unused): an index
    /// into Named.
    int DstNamed = -1;
    /// Indices into RecordsEvents of the records made after this copy on
    /// its stream, on every path (`start() { fetch(); cudaEventRecord(ev_,
    /// s_); }`): the caller's event covers the copy.
    std::vector<unsigned> CoveredBy;
    /// Streams made to wait for the copy (cudaStreamWaitEvent of an event
    /// recorded after it) on every path, that the caller can name: a
    /// stream parameter (index; the stream unused) or a member or global
    /// (-1; as SyncsStreams). A host sync of one at the caller covers the
    /// copy (graphMemoryNodes: the copy on the helper's own stream2, joined
    /// into stream1).
    std::vector<std::pair<int, StreamRef>> JoinedInto;
    /// Or into what the helper returns (DstParam and DstNamed unused): every
    /// return statement returns the copy's destination, a buffer the
    /// caller cannot otherwise name (`return g.to(kCPU, true);`, a pinned
    /// buffer it allocated). The call's result is the destination at the
    /// caller (Effects). Pageable: the destination is (StrictMode only).
    bool Returned = false;
    bool Pageable = false;
    /// A copy of inferred direction into a parameter (CopySite::
    /// NeedsHostDestination): left in flight only where the caller's
    /// argument is host memory (pinned, pageable under StrictMode, or
    /// dereferenced on the host by the caller).
    bool NeedsHostDestination = false;
    /// On a stream parameter, met by a sync of the legacy default stream
    /// on every path: complete at a caller whose stream is blocking.
    bool UnlessBlocking = false;
    /// A summary imported from another translation unit (SummaryFiles.h):
    /// where the copy is, as `file:line:col` (Copy is null then).
    std::string CopyAt{};
  };
  std::vector<PendingCopy> CopiesLeftPending; ///< at the helper's exit
  /// Device work the helper leaves writing a buffer parameter, unordered
  /// with other streams at its exit on some path (the producer diagnostic:
  /// `produce(d, n, s)` launching a kernel that writes d on s). On a stream
  /// parameter (index), on libtorch's current stream (the caller's at the
  /// call), or on the legacy default stream.
  /// Also a stream or a buffer the caller names too, not a parameter: a
  /// member of `this` or of an object parameter, or a global (`run() {
  /// kernel<<<.., stream_>>>(d_counts_); }`, `produce(st, d)` on
  /// `st.compute`), keyed as in the helper and rebased at the call
  /// (namedAtCall); such productions are not exported.
  /// Or on the stream a math library handle parameter holds, read by the
  /// helper with the library's getter (`hipStream_t s;
  /// rocblas_get_stream(handle, &s); kernel<<<.., s>>>(d);`, the helper
  /// giving the handle no stream): at the call, the stream the argument
  /// holds there (EffectBuilder::handleStreamAt), else one the caller is
  /// handed (StreamRef::Supplied), named by the getter's call. Not exported.
  struct Production {
    unsigned BufferParam = 0;
    enum Where {
      OnStreamParam,
      CurrentStream,
      LegacyStream,
      OnNamedStream, ///< Stream
      OnHandleStream ///< of handle parameter StreamParam, read by Getter
    } On = LegacyStream;
    unsigned StreamParam = 0;
    const FunctionDecl *Getter = nullptr; ///< OnHandleStream
    StreamRef Stream; ///< OnNamedStream
    /// The buffer, when it is not parameter BufferParam: its whole region.
    std::optional<AccessPath> NamedBuffer;
    std::string NamedBufferName;
    /// A libtorch op: device work only when the argument is a CUDA tensor.
    bool Torch = false;
    /// A cudaMemcpyDefault copy into the parameter (`raft::copy_matrix`):
    /// device work only when the argument is device memory.
    bool IfDevice = false;
  };
  std::vector<Production> Produces;
  /// A lambda's device work writing a variable it captures (C++
  /// [expr.prim.lambda.capture]: the enclosing function's own variable),
  /// left unordered at its exit, on a default stream or on a stream
  /// variable it captures: at a call of the lambda, the caller's producer
  /// (the caller names both). Not exported (SummaryFiles.h: lambdas are not).
  struct CapturedProduction {
    const VarDecl *Buffer = nullptr;
    StreamRef Stream; ///< Legacy, PerThread, or Named: a captured variable
    const VarDecl *StreamVar = nullptr; ///< Named: that variable
  };
  std::vector<CapturedProduction> CapturedProduces;
  /// Device-to-host copies the helper makes of a pointer parameter's
  /// buffer, before anything in it could order earlier device work (a
  /// sync, a record, a wait, a call that may order): at the call, a copy
  /// of the argument on the stream argument (or, blocking, on the legacy
  /// default stream) for the caller's producer diagnostic
  /// (`raft::update_host(h, d, n, stream)` after a kernel on another
  /// stream).
  /// As for productions, the stream (NamedStream, Named; OnStreamParam
  /// false) and the buffer (NamedBuffer) may be ones the caller names too,
  /// not parameters; not exported then.
  struct Consumption {
    unsigned BufferParam = 0;
    bool OnStreamParam = false; ///< else the legacy default stream
    unsigned StreamParam = 0;
    bool Blocking = false;
    StreamRef NamedStream;
    std::optional<AccessPath> NamedBuffer;
    std::string NamedBufferName;
    /// A lambda's copy of a variable it captures (the enclosing function's,
    /// then BufferParam is unused), on a captured stream variable
    /// (CapturedStream; OnStreamParam is false) or the legacy default
    /// stream. Not exported.
    const VarDecl *CapturedBuffer = nullptr;
    const VarDecl *CapturedStream = nullptr;
    bool operator<(const Consumption &O) const {
      auto Named = [](const Consumption &C) {
        return std::make_pair(C.NamedStream.identity(),
                              C.NamedBuffer ? C.NamedBuffer->key()
                                            : std::string());
      };
      return std::tie(BufferParam, OnStreamParam, StreamParam, Blocking,
                      CapturedBuffer, CapturedStream) <
                 std::tie(O.BufferParam, O.OnStreamParam, O.StreamParam,
                          O.Blocking, O.CapturedBuffer, O.CapturedStream) ||
             (std::tie(BufferParam, OnStreamParam, StreamParam, Blocking,
                       CapturedBuffer, CapturedStream) ==
                  std::tie(O.BufferParam, O.OnStreamParam, O.StreamParam,
                           O.Blocking, O.CapturedBuffer, O.CapturedStream) &&
              Named(*this) < Named(O));
    }
  };
  std::vector<Consumption> Consumes;

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
    AccessPath Path;
    std::string Name;
    const VarDecl *Var = nullptr; ///< a captured variable, for provenance
    /// Seeds under which it is touched before a sync: an index into
    /// CaptureStreams (a copy on that stream), SummarySeed::
    /// AnyBlockingStream or PerThreadStream (a copy on such a stream it
    /// does not name), or -1 (on any other stream).
    std::vector<int> Unsynced;
    const Stmt *Site = nullptr; ///< the first access, for the note
    std::vector<EventGuard> Guards; ///< see AccessGuards
  };
  /// Every such buffer the helper names; touched where Unsynced is not empty.
  std::vector<NamedBuffer> Named;
};

/// Helpers whose bodies are looked through: the project's or a library's
/// code, not the toolchain's (LibraryCode.h), not templated patterns, not
/// virtual (an override may run instead; a destructor is summarized only
/// for local objects, whose type is exact).
/// The definition, or null.
const FunctionDecl *summarizable(const FunctionDecl *FD,
                                 const SourceManager &SM);

/// The parameters of Def (indices) of integral, enumeration or bool type
/// named in the condition of an `if` or a `?:` of its body, or passed as
/// they are to parameter I of a function Callee for which Forwarded says
/// so (AsyncCopyAnalysis::branchParams caches it).
std::vector<unsigned> testedParams(
    const FunctionDecl *Def,
    llvm::function_ref<bool(const FunctionDecl *Callee, unsigned I)>
        Forwarded);

/// A synthetic copy a summary run seeds at the helper's entry (read only by
/// this file's code; a CopySite points to it).
struct SummarySeed {
  /// A stream seed that is neither a parameter nor "any stream".
  static constexpr int MemberOrGlobalStream = -2;
  /// A buffer seed on a blocking stream of the caller's that the helper
  /// does not name (the legacy or per-thread default stream, a stream
  /// created without cudaStreamNonBlocking): unlike "any stream", a sync of
  /// the legacy default stream in the helper (cudaStreamSynchronize(0), a
  /// blocking cudaMemcpy) covers it, since the legacy stream waits for every
  /// blocking stream's earlier work ("Stream synchronization behavior").
  static constexpr int AnyBlockingStream = -3;
  /// A buffer seed on the per-thread default stream (cudaStreamPerThread,
  /// or stream 0 under per-thread default-stream compilation): what a
  /// caller's copy on that stream meets in the helper. Every caller names
  /// the per-thread stream alike, so the helper's syncs of it, of the
  /// device, and of what it orders after it (its events) cover the seed.
  static constexpr int PerThreadStream = -4;
  int Param = -1;       ///< into this buffer parameter (or -1)
  /// On this stream parameter (-1: any stream; or one of the constants
  /// above).
  int StreamParam = -1;
  /// Into a buffer the caller names too (Param is then -1): a lambda's
  /// capture, a member of `this`, a global. An index into
  /// HelperSummary::Named.
  int Named = -1;
  /// An event the helper synchronizes (a parameter, member, global or
  /// capture), which covers this seed at entry; cleared at exit iff the
  /// helper synchronizes that event on every path.
  AccessPath Event;      ///< its path (empty: none)
  std::string EventName; ///< as spelled in the helper
  int EventParam = -1;          ///< Event is this parameter (or -1)
  bool isEventSeed() const { return !Event.empty(); }
  /// The caller's work on a stream at the call (no buffer, no event): what
  /// a sync or record of that stream in the helper covers.
  bool isStreamSeed() const { return Param < 0 && Named < 0 && !isEventSeed(); }
};

/// The seeds of one summary run, and what extraction needs of them.
class SummarySeeds {
public:
  /// Adds the seeds of the helper of F to Out.Copies, which must still be
  /// empty (seeds come first). May compute summaries of member functions
  /// called on `this` (through R).
  void seed(CallableRun &R, FunctionFacts &F, CallableEffects &Out);

  /// The entry state of a run: every seed pending, event seeds covered by
  /// their event.
  static void seedEntry(const CallableEffects &E, PendingState &Entry);

  /// The helper's summary, from the state at its exit and the findings of
  /// its run.
  std::unique_ptr<HelperSummary>
  extract(const CallableRun &R, FunctionFacts &F, const CallableEffects &E,
          const PendingState &Exit, const std::vector<Finding> &Findings,
          const std::vector<HelperSummary::Consumption> &Consumed) const;

  /// Bounds on the seeds of one summary: streams the caller names, buffers
  /// it names, and the streams those buffers are crossed with.
  static constexpr size_t MaxSeedStreams = 16, MaxNamedBuffers = 8,
                          MaxNamedStreams = 4;

private:
  CopySite *newSeed(CallableEffects &Out, SummarySeed S);

  std::vector<std::unique_ptr<SummarySeed>> Seeds;
  std::vector<std::unique_ptr<CopySite>> Sites;
  /// The buffers seeds' Named indexes.
  std::vector<HelperSummary::NamedBuffer> Named;
  /// Summaries of member functions called on `this`.
  std::vector<const HelperSummary *> ThisCalleeSummaries;
};

/// The stream of a summary's pending copy as the caller names it at call C:
/// the argument for its stream parameter, or its member or global stream
/// renamed (an unknown stream where the caller cannot name it).
StreamRef pendingCopyStream(FunctionFacts &F,
                            const HelperSummary::PendingCopy &PC,
                            const CallExpr *C,
                            const CXXMethodDecl *CalleeLambda);

/// The copies a helper's summary leaves in flight, as copy sites of the
/// caller at call C: (id in Out.Copies, index in S.CopiesLeftPending);
/// not those into what it returns (PendingCopy::Returned).
/// CalleeLambda: the callee's call operator when it is a lambda.
std::vector<std::pair<unsigned, unsigned>> copiesLeftAtCall(CallableRun &R, FunctionFacts &F,
                                       CallableEffects &Out,
                                       const HelperSummary &S,
                                       const CallExpr *C,
                                       const CXXMethodDecl *CalleeLambda);

/// The transfer of a Call effect: the helper's accesses of its arguments
/// and of names the caller shares, its syncs and records, and its copies.
void applyHelperCall(Solver &S, PendingState &St, const Effect &Ev);

/// The streams a summary synchronizes on every path, as the caller of call
/// C names them (its named streams the caller can name, and the arguments
/// for its synchronized stream parameters).
std::vector<StreamRef> syncedStreamsAtCall(FunctionFacts &F,
                                           const HelperSummary &S,
                                           const CallExpr *C);

/// The reporting of a LambdaArg effect: the lambda's unsynchronized
/// accesses of its captures, at the call it is handed to.
void applyLambdaArg(Solver &S, const PendingState &St, const Effect &Ev);

/// Whether a helper's expression names what its caller can name too
/// (HelperSummaries.cpp): a member of `this` (through any chain of
/// members), a global, a lambda's capture, a member of an object parameter
/// (outlivesCall); also an element of such an array of handles by an index
/// the caller names (handleOutlivesCall). unchangedParam: the index of the
/// parameter of F's callable that E names, where the callable never
/// changes it; else -1.
bool outlivesCall(const Expr *E);
bool handleOutlivesCall(const Expr *E, const FunctionFacts &F);
int unchangedParam(const Expr *E, const FunctionFacts &F);
/// Whether a path of F's callable (not a lambda) names what its caller
/// names too, by the same path rebased at the call (namedAtCall): a member
/// of `this`, a member of a parameter the callable never changes, or a
/// global (not a static local).
bool namedByCaller(const AccessPath &P, const FunctionFacts &F);
/// A path (and its spelling) of a helper's summary that namedByCaller
/// accepted, as the call C names it; false where it cannot. And a stream
/// so named (nullopt where it cannot be), Rebound (told apart from no
/// other stream) unless known to be a created one.
bool namedAtCall(FunctionFacts &F, AccessPath &Path, std::string &Name,
                 const CallExpr *C);
std::optional<StreamRef> namedStreamAtCall(FunctionFacts &F,
                                           const StreamRef &S,
                                           const CallExpr *C);

/// The parts of S that say what every return statement of F's callable
/// returns (HelperReturns.cpp): ReturnsSignal, ReturnsQuerySuccess and
/// ReturnsNew, from the exit state Exit and the effects E. Returns the
/// alias class of the buffer every return statement returns, for the
/// copies left in flight into it (PendingCopy::Returned); empty: none, or
/// not one. CallerNames: whether the caller names a stream of the helper's
/// too, and the parameter it is (index, or -1).
std::string extractReturnedValues(
    FunctionFacts &F, const CallableEffects &E, const PendingState &Exit,
    HelperSummary &S,
    llvm::function_ref<bool(const StreamRef &, int &)> CallerNames);

} // namespace clang::tidy::cuda

#endif
