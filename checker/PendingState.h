//===--- PendingState.h - The dataflow fact: copies in flight ---*- C++ -*-===//
//
// One concern: the lattice the solver computes at each program point, and
// the transfers that need nothing but the state itself (join, forgetting a
// variable, assuming a branch condition).
//
//  - Pending: copies that may still be in flight (a may-set: pending on
//    some path), one entry per copy class (same buffer, same stream), each
//    with the last call that looked like a sync but did not cover it (for
//    the note) and the branch conditions under which it was issued.
//  - Events: per CUDA event, the copies a record on every path has captured
//    (a must-set: an event covers a copy only if recorded after it on every
//    path into the point). Waits: the same per stream that
//    cudaStreamWaitEvent made wait. Queried: per cudaStreamQuery /
//    cudaEventQuery call, the copies a cudaSuccess result would prove done.
//  - Assumed: branch literals known to hold here.
//  - Producers: device work writing a device buffer that may still run,
//    with the streams made to wait for it and the branch conditions under
//    which it was issued (the producer diagnostic: a copy of the buffer on
//    a stream that did not wait).
//
// Copies are identified by their index in the callable's copy list (see
// Effects.h). May call: nothing of the analysis (MissNote, Literal data).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_PENDINGSTATE_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_PENDINGSTATE_H

#include "AsyncCopyAnalysis.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <set>
#include <string>

namespace clang::tidy::cuda {

/// A branch condition on a variable the callable does not change between
/// the test and the use: `v == C` or `v != C` (`if (v)` is `v != 0`).
/// Conditions on such variables are correlated across branches (`if (async)
/// copy(); ... if (async) sync();`), which a purely flow-sensitive analysis
/// would merge into a false path.
struct Literal {
  const VarDecl *V;
  bool Eq;
  long long C;
  /// The member of V the condition reads (`o.sync`, `o->sync` of a
  /// parameter or local whose object is const: `const Opts &o`), or null
  /// for V itself. A write of V ends it too.
  const FieldDecl *Field = nullptr;
  /// 0: the test above (`v == C` when Eq, else `v != C`); +1: `v >= C`;
  /// -1: `v <= C` (Eq unused). An integer comparison with a constant
  /// (`if (n > 0)`), or a counting loop's body entered (`for (int i = 0; i
  /// < n; ++i)` gives `n >= 1` in the body).
  signed char Rel = 0;
  bool sameSubject(const Literal &O) const {
    return V == O.V && Field == O.Field;
  }
  bool operator<(const Literal &O) const;
  bool operator==(const Literal &O) const;
  bool contradicts(const Literal &O) const;
};
/// A conjunction of literals.
using Literals = std::set<Literal>;

/// The branch conditions under which a copy or a producer was issued, one
/// conjunction per way it got here (`if (a) copy(h); if (b) copy(h);` gives
/// {a} and {b}): it is live on paths where every literal of some conjunction
/// holds. Kept minimal (none includes another) and few (past MaxSets, just
/// {}: unconditional).
struct PathConditions {
  std::set<Literals> Sets;
  static constexpr size_t MaxSets = 8;

  bool operator==(const PathConditions &O) const { return Sets == O.Sets; }
  void add(const PathConditions &More);
  /// Live only where Held holds too (the literals a path assumed): each
  /// conjunction gets them.
  void within(const Literals &Held);
  /// V got a new value: literals on it no longer hold.
  void forget(const VarDecl *V);
  /// Takes the edge on which L holds; false if no conjunction stays
  /// feasible there (the copy or producer is not live on that edge).
  bool assume(const Literal &L);

private:
  void simplify();
};

/// A class of copies (same buffer, same stream) that may still be in
/// flight. Stream order completes an earlier copy of a class before a later
/// one, so every sync treats them alike and one entry stands for all.
struct PendingCopy {
  MissNote Miss; ///< the last sync-like call that did not cover it
  PathConditions Conditions; ///< under which one was issued
  unsigned Site = 0; ///< the copy site that issued it last (for notes)
  /// A summary run: on every path a sync of the legacy default stream met
  /// it on a stream parameter of unknown flags, which covers it only where
  /// the caller's stream is blocking (Solver::syncStream).
  bool LegacyCovered = false;
  /// Followed pointers (FunctionFacts::FollowedPointers) that may hold, on
  /// some path here, the pointer its destination is reached through: a
  /// host access through another followed pointer is of another buffer
  /// (`cudaMemcpyAsync(next, ..); use(cur); ...; std::swap(cur, next);`).
  /// Meaningless while AnyHolder, which a copy whose destination has no
  /// path (a summary's seed) keeps: every followed pointer may hold it.
  std::set<const VarDecl *> Holders;
  bool AnyHolder = true;
  /// The destination's path, with a followed root replaced by the value it
  /// holds (`cur->host` after `cur = a` is `a->host`); nullopt where the
  /// root's value is not known, or the class stands for copies of two.
  std::optional<AccessPath> Target;
  /// No variable that an index of the destination's path reads (`cur` of
  /// `bufs[1 - cur]`, of `slots[cur].host`) has been written since the
  /// copy, and the class stands for copies of this one site: an access
  /// whose path parts from the destination's at an index that differs
  /// (ElementIndices.h: `bufs[cur]`) is of another element.
  bool IndicesHeld = false;

  /// The entry stands for O's copies too (a join, or an earlier copy of
  /// the class still in flight): the holders of either, a target only
  /// where both name it, indices held only for one site held by both.
  void meetNames(const PendingCopy &O);

  bool operator==(const PendingCopy &O) const;
};

/// Device work that writes a device buffer and that nothing has yet made
/// other streams wait for (the producer diagnostic): a kernel launch with a
/// pointer-to-non-const argument, an asynchronous copy or memset into
/// device memory, a libtorch in-place op on a CUDA tensor. One per buffer
/// class and stream: stream order completes an earlier one before a later.
struct PendingProducer {
  const Stmt *Site = nullptr; ///< the latest such work (for the note)
  StreamRef Stream;
  /// Streams made to wait for it (cudaStreamWaitEvent, CUDAEvent::block of
  /// an event recorded after it) on every path (must).
  std::set<StreamRef::Identity> WaitedBy;
  /// Work on the legacy default stream was issued after it on every path:
  /// every blocking stream's later work waits for it (must).
  bool LegacyJoined = false;
  /// The variable holding the buffer, if one: a new value ends the claim.
  const VarDecl *Var = nullptr;
  /// The buffer as the work names it (Effect::Name): in a summary run, a
  /// member the caller names too (HelperSummary::Production::NamedBuffer).
  const Expr *Root = nullptr;
  /// On libtorch's current stream (as the callable sees it).
  bool OnCurrent = false;
  /// Into a helper's parameter of unknown kind (Effect::IfDevice).
  bool IfDevice = false;
  /// Under which it was issued: `if (overlap) work(side); ... if (overlap)
  /// wait(main, side);` makes no claim on the path where neither ran.
  PathConditions Conditions;
  bool operator==(const PendingProducer &O) const {
    return Site == O.Site && WaitedBy == O.WaitedBy &&
           LegacyJoined == O.LegacyJoined && Conditions == O.Conditions;
  }
};
/// A producer's key: the buffer's alias class key, the stream.
using ProducerKey = std::pair<std::string, StreamRef::Identity>;

/// The dataflow fact at a program point (see the file comment).
struct PendingState {
  bool Reached = false;
  std::map<unsigned, PendingCopy> Pending; ///< by copy class (may)
  struct EventInfo {
    std::set<unsigned> Covered; ///< copies a record captured (must)
    const Expr *Record = nullptr;
    StreamRef Stream;
    /// The elements of an array of events the record named (a property of
    /// Record).
    std::optional<ElementRange> Elements;
    /// A record of `ev[i]` in a counted loop that names element LastElement
    /// in its last iteration, on a stream the same in every iteration
    /// (FunctionFacts::lastIterationElement): after LastLoop, this is the
    /// latest record of that element. Null when not (a property of Record;
    /// a join of two records keeps none).
    const Stmt *LastLoop = nullptr;
    long long LastElement = 0;
    /// Not a CUDA event: a signal the host waits for (HostOrdering.cpp): a
    /// thread whose function synchronizes, keyed by its std::thread or
    /// std::future variable, or a host function's, keyed by the object
    /// handed to it. A loop that polls the object waits for it.
    bool HostSignal = false;
    /// Record (a call) holds on some paths into the point only: on others
    /// the event holds an earlier record (in a summary run, the caller's:
    /// its seed entry, whose Record is null) or none. Set by the join
    /// (`if (copy) { cudaMemcpyAsync(..); cudaEventRecord(e, s); }`). A
    /// summary carries such a record as HelperSummary::EventRecord::
    /// SomePaths, not as a record on every path.
    bool SomePaths = false;
    bool operator==(const EventInfo &O) const {
      return Covered == O.Covered && Record == O.Record &&
             SomePaths == O.SomePaths;
    }
  };
  /// By the event's path.
  std::map<AccessPath, EventInfo> Events;
  /// Per cudaStreamQuery / cudaEventQuery call: the copies it would find
  /// complete if it returned cudaSuccess (must).
  std::map<const Expr *, std::set<unsigned>> Queried;
  /// Per stream (StreamRef::identity) that cudaStreamWaitEvent made wait
  /// for an event: the copies that event covers, which a later host sync of
  /// that stream covers too (must).
  std::map<StreamRef::Identity, EventInfo> Waits;
  /// Conditions known to hold here (must). At most MaxAssumedPerVar
  /// `v != C` literals per variable are kept (a long else-if chain on one
  /// variable would otherwise carry all of its constants), and none beside
  /// a `v == C`, which implies them.
  Literals Assumed;
  static constexpr size_t MaxAssumedPerVar = 8;
  /// Device work writing a buffer that may still be running (may).
  std::map<ProducerKey, PendingProducer> Producers;
  /// Per event (by path): the producers a record of it follows (recorded
  /// on their stream, or on one that waited for them, after them). Must,
  /// but vacuously true on a path where a producer is not pending: a loop
  /// that writes and records, or a path that does neither, leaves every
  /// pending producer captured.
  std::map<AccessPath, std::set<ProducerKey>> EventProducers;
  /// Per cudaStreamQuery call: the producers it would find complete if it
  /// returned cudaSuccess (must, vacuously true where a producer is not
  /// pending, as EventProducers). Completed on the success edge only: a
  /// query whose result is ignored orders nothing.
  std::map<const Expr *, std::set<ProducerKey>> QueriedProducers;
  /// Per followed pointer (FunctionFacts::FollowedPointers): the path of
  /// the pointer it was last given, the same on every path into here
  /// (must): `cur = bufs[k];` gives `bufs[k]`; `cur = next;` gives next's.
  std::map<const VarDecl *, AccessPath> PointerValues;
  /// Pairs of followed pointers that may hold the same value on some path
  /// into here (may; the lesser address first): `next = cur;` under an
  /// `if`, or the two of a swap written without a temporary.
  std::set<std::pair<const VarDecl *, const VarDecl *>> MayEqual;

  bool operator==(const PendingState &O) const;

  /// The number of entries the state holds, nested sets included: the
  /// unit of the work budget (AsyncCopyAnalysis::Work), and a measure of
  /// its memory.
  size_t size() const;

  /// Which of two notes a join keeps for a copy pending on both sides:
  /// true when A is to be preferred. Must be a strict order on notes, so
  /// that the result does not depend on the order paths are joined in.
  using NotePreference =
      llvm::function_ref<bool(const MissNote &A, const MissNote &B)>;

  /// The least upper bound: may-sets united, must-sets intersected.
  void join(const PendingState &O, NotePreference Prefer);

  /// A variable got a new value: what was known about it no longer holds
  /// (conditions on it, producers writing the buffer it held).
  void forget(const VarDecl *V);

  /// Takes the edge on which L holds; false if the edge is infeasible.
  bool assume(const Literal &L);
};

} // namespace clang::tidy::cuda

#endif
