//===--- Effects.h - The copies and effects of one callable -----*- C++ -*-===//
//
// One concern: the per-callable list of what happens, built once before the
// data flow runs, so that no matcher or model lookup runs inside the
// solver's loop. Each Effect is anchored at a statement and applied by the
// solver at that statement's CFG element:
//  - Copy: an asynchronous device-to-host copy is issued (a CopySite: the
//    call, its destination's alias class, its stream);
//  - Access: a host access of a tracked buffer (see HostAccess.h);
//  - Api: a modelled call (a sync, record, query, stream-ordered work ...);
//  - KernelLaunch: `k<<<g, b, m, s>>>(...)`, stream-ordered work;
//  - Call: a helper with a visible body, with its summary and the copies
//    it leaves in flight at the call; also the destructor of a local
//    object, as a call on the variable (Var), applied where the variable
//    goes out of scope (the CFG's implicit destructor elements);
//  - LambdaArg: a lambda handed to a function, which may run it;
//  - Write: a local variable gets a new value (branch conditions on it no
//    longer hold); Repoint: followed local pointers get new values
//    (which pending copies each may hold: PointerValues.cpp);
//  - host-side ordering (HostOrdering.cpp): ThreadStart (a std::thread or
//    std::async starts running a function whose summary synchronizes
//    streams or the device), HostWait (the host waits for a thread, a
//    future or a promise: what the thread's function synchronized, or a
//    host function's signal, is complete);
//  - for the producer diagnostic: Produce (device work writes a device
//    buffer on a stream), Consume (a device-to-host copy reads its source
//    on a stream, pageable destinations included), LegacyWork (work on the
//    legacy default stream, which orders every blocking stream's earlier
//    work before every blocking stream's later work), Barrier (a call that
//    may order device work in ways not followed: StreamOrdering.h);
//  - StreamSync: a call that synchronizes the stream OnStream before it
//    returns (a thrust algorithm with a synchronizing policy; a
//    device-to-host copy into pageable memory, outside StrictMode).
//
// May call: FunctionFacts, CudaApiModel, TorchModel, HostAccess,
// LibraryProducers, HelperSummaries (summaries of callees, the copies they
// leave pending).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_EFFECTS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_EFFECTS_H

#include "AsyncCopyAnalysis.h"
#include "CallableRun.h"
#include "FunctionFacts.h"
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

struct Effect {
  enum Kind {
    Access,
    Copy,
    Api,
    KernelLaunch,
    Call,
    Write,
    LambdaArg,
    Produce,
    Consume,
    LegacyWork,
    Barrier,
    ThreadStart,
    HostWait,
    StreamSync,
    /// Work on OnStream, a blocking stream other than the legacy one: it
    /// waits for the legacy default stream's earlier work ("Stream
    /// synchronization behavior"), so a later host sync of OnStream covers
    /// the copies pending there (measured: docs/semantics.md, the
    /// legacy-stream and pageable-copy sections).
    BlockingWork,
    /// A call whose target the check cannot know (callsUnknownTarget): it
    /// may synchronize anything, so nothing pending is claimed past it.
    UnknownCall,
    /// Followed pointers are given new values (Repoints, all at once): the
    /// copies each may hold change (PointerValues.cpp).
    Repoint
  } K;
  explicit Effect(Kind K) : K(K) {}
  const Stmt *Anchor = nullptr;
  // Access, LambdaArg
  std::string Buffer; ///< Access: alias class key of the buffer
  AccessKind AK = AccessKind::Read;
  /// Access: the accessing expression; Call of a destructor: where it runs
  /// (the end of the object's scope), where its effects are noted.
  const Expr *Loc = nullptr;
  const Expr *Name = nullptr; ///< the tracked buffer as named there
  /// Produce / Consume of a buffer a helper's summary names (a member of the
  /// object called on: no expression here names it): its spelling, owned
  /// by CallableEffects::Spellings; Name is null then.
  const std::string *Spelled = nullptr;
  /// Access: a constant element of an array of buffers (CopySite::Element).
  std::optional<long long> Element;
  /// Access: the bytes it touches, where constant offsets say them
  /// (ByteRegions.h); nullopt: the whole buffer.
  std::optional<ByteRange> Bytes;
  /// Consume of a part of a buffer reached by pointer arithmetic from its
  /// root (`d + offset`, `&d[k]`, any offset): the whole buffer's region
  /// (as a producer writing `d` names it), which contains that part; empty
  /// otherwise. (Buffer is then the part's own region, or empty where its
  /// offset is not a constant.)
  std::string WithinBuffer;
  const NamedDecl *Callee = nullptr;
  // Copy: the copy site index
  unsigned CopyId = 0;
  // Api / KernelLaunch / Call; ThreadStart: a synthetic call of the
  // thread's function with the thread's arguments (threadCall); HostWait:
  // the call whose result (a future) is waited for (the signal is
  // AccessPath::temporary(CE), recorded there by a summary's
  // ReturnsSignal), else null
  const CallExpr *CE = nullptr;
  const ApiEntry *Entry = nullptr;
  const HelperSummary *Summary = nullptr; ///< Call: null if opaque;
                                          ///< LambdaArg: the lambda's;
                                          ///< ThreadStart: the function's
  /// Write: the variable; Call: the local object whose destructor this is
  /// (then CE is a synthetic call `var.~T()`, see destructorCall);
  /// ThreadStart: the std::thread or std::future the start initialises;
  /// HostWait: the thread or future waited for (the signal is
  /// AccessPath::ofDecl(Var)), or null when Loc names the promise a host
  /// function fulfils (the signal is AccessPath::of(Loc)).
  const VarDecl *Var = nullptr;
  /// Write: Var is a local pointer that names another buffer in each
  /// iteration of the loop it is declared in
  /// (FunctionFacts::newBufferEachIteration): copies issued through Var in
  /// an earlier iteration went into another buffer.
  bool NewBuffer = false;
  /// Write: only the elements of the array, container or pointed-to array
  /// rooted at Var may change (FunctionFacts::ElementWrites), not Var.
  bool ElementsOnly = false;
  /// Repoint: the definitions (owned by FunctionFacts::PointerDefinitions).
  const std::vector<FunctionFacts::PointerDefinition> *Repoints = nullptr;
  /// Write: the constant Var is given (`ready = true;`, `int k = 2;`), which
  /// branch conditions on Var then read on this path; nullopt otherwise.
  std::optional<long long> Value;
  /// LambdaArg: its call operator; HostWait: a condition variable's
  /// predicate, which reads the signals waited for.
  const CXXMethodDecl *Lambda = nullptr;
  /// Call: copies it leaves pending (id, index in the summary's
  /// CopiesLeftPending).
  std::vector<std::pair<unsigned, unsigned>> HelperCopies;
  /// Call, LambdaArg: the helper may order device work (StreamOrdering.h).
  bool MayOrder = false;
  /// ThreadStart: Var is a container the thread (or future) is put into;
  /// its signal, waited for by a loop joining every element, accumulates.
  bool IntoContainer = false;
  // Produce / Consume: the device buffer (alias class key in Buffer, as
  // spelled in Name); these and StreamSync: the stream (owned by
  // CallableEffects::Streams: a StreamRef in every effect would make each
  // copy of the list dearer).
  const StreamRef *OnStream = nullptr;
  bool BlockingCopy = false; ///< Consume: the call returns after the copy
  bool OnCurrent = false; ///< Produce: on libtorch's current stream
  /// Produce: into a helper's parameter of unknown kind, device work only
  /// where the caller's argument is device memory (cudaMemcpyDefault).
  bool IfDevice = false;
};

/// Everything the solver applies for one callable.
struct CallableEffects {
  /// Copy sites, indexed by copy id: helper summaries' seeds first (in a
  /// summary run), then the callable's copies in source order.
  std::vector<CopySite *> Copies;
  /// Copy id -> its class (a copy id): copies into the same buffer on the
  /// same stream, which every sync treats alike.
  std::vector<unsigned> ClassOf;
  std::vector<Effect> List;
  /// The streams of Produce / Consume effects (stable addresses).
  std::deque<StreamRef> Streams;
  /// Effect::Spelled's strings (stable addresses).
  std::deque<std::string> Spellings;
  /// A summary run's producer seeds: device work of the caller's, on a
  /// stream the helper cannot name, writing each pointer parameter's buffer
  /// (its region key, the parameter), for a lambda each pointer variable it
  /// captures, and each member of `this` or global the helper names
  /// (HelperSummary::Named: the path, spelled as in the helper); a
  /// device-to-host copy of one while it is pending is a Consumption of the
  /// summary.
  struct ProducerSeed {
    std::string Region;
    const VarDecl *Var = nullptr;
    std::optional<AccessPath> Named;
    std::string Name;
  };
  std::vector<ProducerSeed> ProducerSeeds;
  /// For each whole buffer's region (wholeRegionKey), the streams of every
  /// device work of the callable writing that buffer or a part of it, at
  /// any offset (also the parts no region key names, `d + i * chunk`): a
  /// buffer written on one stream only is not divided among streams, so
  /// that stream's work on the whole buffer may have written the part a
  /// copy reads (Solver::checkProducers, Effect::WithinBuffer).
  std::map<std::string, std::set<StreamRef::Identity>> ProducerStreams;
  /// Loops that join every thread (or wait for every future) of a
  /// container (HostOrdering.cpp), by the loop statement: on the loop's
  /// exit edge the host has waited for the container's signal.
  std::map<const Stmt *, const VarDecl *> JoinLoops;
  const Stmt *ProducerSeedSite = nullptr; ///< the helper's body

  /// Adds a copy site (owned by the run's AsyncCopyAnalysis); its id is
  /// Copies.size() - 1.
  CopySite *newCopy(CallableRun &R);
};

/// The region a Produce or Consume effect names (Effect::Buffer): the
/// buffer's alias class and the expression as written (`d`, `bufs[1]`);
/// a producer and a copy meet only on equal regions.
std::string regionKeyOf(AliasClasses &Aliases, const AccessPath &Root,
                        llvm::StringRef Spelling);
/// The region of the whole buffer Root names: a variable's by its spelling
/// (regionKeyOf), anything else's (a member, `st.d`, or an accessor of one,
/// `hist.counts()`) by the path, so that the member and its accessor, or a
/// helper's member rebased to the caller's object, name one region.
std::string wholeRegionKey(AliasClasses &Aliases, const AccessPath &Root,
                           llvm::StringRef Spelling);

/// Builds the copies and effects of the callable of Facts (after any
/// summary seeds were added to Out.Copies), and the copy classes.
void buildEffects(CallableRun &R, FunctionFacts &Facts, CallableEffects &Out);

} // namespace clang::tidy::cuda

#endif
