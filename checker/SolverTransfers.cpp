//===--- SolverTransfers.cpp - What each effect does to the state -------===//
//
// The Solver's transfers: host syncs of streams and events, event records,
// queries, the producers of device work and what completes or orders
// them, stream-ordered work using pointers, each modelled API role
// (applyApi), a copy issued, and the dispatch of each Effect (transfer).
// HelperSummaries applies them too, at helper calls.
//
//===----------------------------------------------------------------------===//

#include "Solver.h"
#include "ElementIndices.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "HostOrdering.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>
#include <iterator>

namespace clang::tidy::cuda {

bool Solver::isUnknownFlagsParam(const StreamRef &S) const {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(S.Path.rootDecl());
  return S.K == StreamRef::Named && !S.NonBlocking && !S.Created &&
         !S.Rebound && S.Path.steps().empty() && P &&
         P->getDeclContext() == F.FD;
}

void Solver::syncStream(PendingState &St, const StreamRef &S,
                        const Expr *Where) {
  // Producers complete when the sync may be of their stream, or of one that
  // waited for them.
  completeProducersOn(St, S, /*OrWaited=*/true);
  // The stream waited (cudaStreamWaitEvent) for events covering copies.
  for (const auto &[Key, Wait] : St.Waits)
    if (covers(S, Wait.Stream))
      for (unsigned Id : Wait.Covered)
        St.Pending.erase(Id);
  for (auto It = St.Pending.begin(); It != St.Pending.end();) {
    const CopySite &C = *Effects.Copies[It->first];
    if (covers(S, C.Stream)) {
      // In a summary, a stream parameter of unknown flags is the caller's
      // stream, which may be non-blocking: the legacy stream's sync covers
      // the copy only at callers whose stream is blocking.
      if (R.SummaryMode && S.K == StreamRef::Legacy &&
          isUnknownFlagsParam(C.Stream)) {
        It->second.LegacyCovered = true;
        ++It;
        continue;
      }
      It = St.Pending.erase(It);
      continue;
    }
    MissReason Why = missFor(S, C.Stream, F.PerThread);
    It->second.Miss = {Why, Where, missDetail(S, C.Stream, Why)};
    ++It;
  }
}

void Solver::syncEvent(PendingState &St, const Expr *EventE,
                       const Expr *Where) {
  std::optional<ElementRange> Elements = F.elementsOf(EventE);
  syncEvent(St, F.handleOf(EventE), spelling(EventE, Ctx), Where,
            Elements ? &*Elements : nullptr);
}
void Solver::syncEvent(PendingState &St, const AccessPath &Key,
                       const std::string &EventName, const Expr *Where,
                       const ElementRange *Elements) {
  completeCapturedProducers(St, Key);
  // The records this sync may wait for: of the same event, or of one the
  // check cannot tell apart from it (ev[j] after records of ev[i]).
  auto Info = St.Events.find(Key);
  // The others are compared (lazily: most syncs find their own record).
  std::vector<const PendingState::EventInfo *> Maybe;
  const PendingState::EventInfo *Some = nullptr; // some elements only
  bool Compared = false;
  auto CompareOthers = [&] {
    Compared = true;
    for (const auto &[Other, OtherInfo] : St.Events) {
      if (Other == Key || OtherInfo.HostSignal)
        continue;
      Coverage Cov = coverage(Key, Elements, Other,
                              OtherInfo.Elements ? &*OtherInfo.Elements
                                                 : nullptr);
      // After the loop that recorded `ev[i]` last, element LastElement's
      // latest record is that one (g1 of docs/real-code.md).
      if (Cov == Coverage::MissesSome && OtherInfo.LastLoop && Elements &&
          Elements->Known && Elements->Hi - Elements->Lo == 1 &&
          Elements->Lo == OtherInfo.LastElement && Where &&
          !F.within(Where, OtherInfo.LastLoop))
        Cov = Coverage::Covers;
      if (Cov == Coverage::Covers)
        Maybe.push_back(&OtherInfo);
      else if (Cov == Coverage::MissesSome && !Some)
        Some = &OtherInfo;
    }
  };
  for (auto It = St.Pending.begin(); It != St.Pending.end();) {
    const CopySite &C = *Effects.Copies[It->first];
    bool Covered =
        Info != St.Events.end() && Info->second.Covered.count(It->first);
    if (!Covered && !Compared)
      CompareOthers();
    Covered = Covered ||
              llvm::any_of(Maybe, [&](const PendingState::EventInfo *I) {
                return I->Covered.count(It->first) != 0;
              });
    if (Covered) {
      It = St.Pending.erase(It);
      continue;
    }
    if (Info == St.Events.end() && Some && Some->Covered.count(It->first) &&
        Elements && Some->Elements)
      It->second.Miss = {MissReason::SomeElements, Where,
                         missDetail(EventName, *Elements, *Some->Elements,
                                    "event")};
    else if (Info == St.Events.end() || Info->second.SomePaths)
      It->second.Miss = {MissReason::EventNotRecorded, Where, EventName};
    else if (covers(Info->second.Stream, C.Stream))
      It->second.Miss = {MissReason::EventBeforeCopy, Info->second.Record,
                         EventName};
    else
      It->second.Miss = {MissReason::EventOtherStream, Info->second.Record,
                    Info->second.Stream.Spelling};
    ++It;
  }
}

static bool completedBy(const StreamRef &S, PendingProducer &P, bool OrWaited);

void Solver::queryStream(PendingState &St, const CallExpr *C,
                         const StreamRef &S) {
  // What a cudaSuccess result would prove complete: the copies on the
  // stream that are in flight now (not ones issued after the query).
  // The producers on the stream, or on one that waited for them: a
  // cudaSuccess result proves them complete (the success edge completes
  // them, Solver::run); an ignored result proves nothing.
  std::set<ProducerKey> Found;
  for (auto &[Key, P] : St.Producers)
    if (completedBy(S, P, /*OrWaited=*/true))
      Found.insert(Key);
  if (Found.empty())
    St.QueriedProducers.erase(C); // (as a join leaves it: no key)
  else
    St.QueriedProducers[C] = std::move(Found);
  std::set<unsigned> &Done = St.Queried[C];
  Done.clear();
  for (auto &[Id, P] : St.Pending)
    if (covers(S, Effects.Copies[Id]->Stream)) {
      P.Miss = {MissReason::QueryNotChecked, C, S.Spelling};
      Done.insert(Id);
    }
}

void Solver::queryEvent(PendingState &St, const CallExpr *C,
                        const AccessPath &Event,
                        const std::string &EventName) {
  completeCapturedProducers(St, Event);
  auto Info = St.Events.find(Event);
  std::set<unsigned> &Done = St.Queried[C];
  Done.clear();
  for (auto &[Id, P] : St.Pending) {
    P.Miss = {MissReason::QueryNotChecked, C, EventName};
    if (Info != St.Events.end() && Info->second.Covered.count(Id))
      Done.insert(Id);
  }
}

void Solver::waitEvent(PendingState &St, const StreamRef &S,
                       const AccessPath &Event, const Expr *Where) {
  // S's later work waits for the producers the event follows (any the
  // check cannot tell from it); an unknown stream may be any.
  for (const ProducerKey &Key : capturedProducers(St, Event)) {
    if (S.K == StreamRef::Unknown)
      St.Producers.erase(Key);
    else if (auto P = St.Producers.find(Key); P != St.Producers.end())
      P->second.WaitedBy.insert(S.identity());
  }
  if (S.K == StreamRef::Unknown)
    return;
  // cudaStreamWaitEvent(S, e): S's later work waits for e.
  auto Info = St.Events.find(Event);
  if (Info == St.Events.end())
    return;
  PendingState::EventInfo &Wait = St.Waits[S.identity()];
  Wait.Stream = S;
  Wait.Record = Where;
  Wait.Covered.insert(Info->second.Covered.begin(),
                      Info->second.Covered.end());
}

void Solver::joinStreams(PendingState &St, const StreamRef &Waiter,
                         const StreamRef &Signaler, const Expr *Where) {
  // As an event recorded on Signaler and waited for by Waiter, at Where.
  // The key is the call's temporary, where the signal a helper returns is
  // kept (HelperSummary::ReturnsSignal, waited for through the variable
  // the result initialises). applyHelperCall applies the joins before that
  // record, so this call's signal is never erased; one kept from an earlier
  // run of the same call is, but that run's record replaces it (only where
  // the returned signal's stream cannot be named is the earlier one lost:
  // a false warning at worst).
  AccessPath Event = AccessPath::temporary(Where);
  recordEvent(St, Event, Signaler, Where);
  waitEvent(St, Waiter, Event, Where);
  St.Events.erase(Event);
  St.EventProducers.erase(Event);
}

void Solver::recordEvent(PendingState &St, const AccessPath &Key,
                         const StreamRef &S, const Expr *Where,
                         const Expr *EventE) {
  PendingState::EventInfo Info;
  Info.Stream = S;
  Info.Elements = EventE ? F.elementsOf(EventE) : F.elementsOfPath(Key);
  recordOn(St, Key, std::move(Info), {&S, 1}, /*Device=*/false, Where);
  // The record is work enqueued on S: on a blocking stream it waits for the
  // legacy default stream's earlier work (Runtime API, "Stream
  // synchronization behavior"; measured through generated programs,
  // runtime/cases/record_blocking_after_legacy_copy.cu), so it covers
  // copies issued there before it.
  if (S.K != StreamRef::Legacy && isBlockingStream(S))
    if (std::set<unsigned> Legacy = pendingOnLegacy(St); !Legacy.empty())
      St.Events[Key].Covered.insert(Legacy.begin(), Legacy.end());
}

void Solver::mayRecordEvent(PendingState &St, const AccessPath &Key,
                            const StreamRef &S, const Expr *Where,
                            const Expr *EventE) {
  // What a record on every path would capture, met with what the event
  // held before (must-sets: the paths that skip the record keep the old).
  // Recorded in a copy of the state, not under a temporary key as
  // joinStreams does: the call's temporary may hold the signal it returned
  // in an earlier iteration (ReturnsSignal). Only calls of helpers with a
  // record on some paths pay for the copy.
  PendingState Recorded = St;
  recordEvent(Recorded, Key, S, Where, EventE);
  PendingState::EventInfo Info = std::move(Recorded.Events[Key]);
  Info.SomePaths = true;
  auto Old = St.Events.find(Key);
  std::set<unsigned> Covered;
  std::set<ProducerKey> Producers;
  if (Old != St.Events.end()) {
    std::set_intersection(Old->second.Covered.begin(),
                          Old->second.Covered.end(), Info.Covered.begin(),
                          Info.Covered.end(),
                          std::inserter(Covered, Covered.begin()));
    auto OldP = St.EventProducers.find(Key);
    auto NewP = Recorded.EventProducers.find(Key);
    if (OldP != St.EventProducers.end() &&
        NewP != Recorded.EventProducers.end())
      std::set_intersection(OldP->second.begin(), OldP->second.end(),
                            NewP->second.begin(), NewP->second.end(),
                            std::inserter(Producers, Producers.begin()));
    Info.Elements = Old->second.Elements;
  }
  Info.Covered = std::move(Covered);
  Info.LastLoop = nullptr;
  St.Events[Key] = std::move(Info);
  if (Producers.empty())
    St.EventProducers.erase(Key);
  else
    St.EventProducers[Key] = std::move(Producers);
}

std::set<unsigned> Solver::pendingOnLegacy(const PendingState &St) const {
  std::set<unsigned> Ids;
  for (const auto &[Id, P] : St.Pending)
    if (Effects.Copies[Id]->Stream.K == StreamRef::Legacy)
      Ids.insert(Id);
  return Ids;
}

void Solver::waitForLegacy(PendingState &St, const StreamRef &S,
                           const Expr *Where) {
  // In a summary, a stream parameter may be the caller's non-blocking
  // stream (see syncStream).
  if (R.SummaryMode && isUnknownFlagsParam(S))
    return;
  std::set<unsigned> Legacy = pendingOnLegacy(St);
  if (Legacy.empty())
    return;
  PendingState::EventInfo &Wait = St.Waits[S.identity()];
  Wait.Stream = S;
  Wait.Record = Where;
  Wait.Covered.insert(Legacy.begin(), Legacy.end());
}

void Solver::recordSignal(PendingState &St, const AccessPath &Key,
                          llvm::ArrayRef<StreamRef> Streams, bool Device,
                          const Expr *Where, bool Accumulate) {
  PendingState::EventInfo Info;
  Info.HostSignal = true;
  if (Streams.size() == 1)
    Info.Stream = Streams.front();
  std::set<unsigned> Earlier;
  std::set<ProducerKey> EarlierProducers;
  if (auto Old = St.Events.find(Key);
      Accumulate && Old != St.Events.end() && Old->second.HostSignal) {
    // (A copy issued since left every Covered: Solver::issue.)
    Earlier = Old->second.Covered;
    if (auto P = St.EventProducers.find(Key); P != St.EventProducers.end())
      EarlierProducers = P->second;
  }
  recordOn(St, Key, std::move(Info), Streams, Device, Where);
  St.Events[Key].Covered.insert(Earlier.begin(), Earlier.end());
  if (!EarlierProducers.empty())
    St.EventProducers[Key].insert(EarlierProducers.begin(),
                                  EarlierProducers.end());
}

void Solver::recordOn(PendingState &St, const AccessPath &Key,
                      PendingState::EventInfo Info,
                      llvm::ArrayRef<StreamRef> Streams, bool Device,
                      const Expr *Where) {
  Info.Record = Where;
  auto Any = [&](auto Pred) { return Device || llvm::any_of(Streams, Pred); };
  // (Work streams named outside the lambdas: C++17 lambdas cannot capture
  // structured bindings.)
  for (const auto &[Id, P] : St.Pending) {
    const StreamRef &Work = Effects.Copies[Id]->Stream;
    if (Any([&](const StreamRef &S) { return covers(S, Work); }))
      Info.Covered.insert(Id);
  }
  for (const auto &[WKey, Wait] : St.Waits) {
    const PendingState::EventInfo &W = Wait;
    if (Any([&](const StreamRef &S) { return covers(S, W.Stream); }))
      Info.Covered.insert(W.Covered.begin(), W.Covered.end());
  }
  // The producers it follows: on its stream (or one the check cannot tell
  // from it), on a stream it waited for, or joined by legacy-stream work.
  // (An event that captured none has no entry: the join and every reader
  // take an absent entry as an empty one.)
  std::set<ProducerKey> Captured;
  for (const auto &[PKey, P] : St.Producers) {
    const PendingProducer &Work = P;
    if (Any([&](const StreamRef &S) {
          return !unorderedStreams(S, Work.Stream) ||
                 Work.WaitedBy.count(S.identity()) ||
                 (Work.LegacyJoined && isBlockingStream(S));
        }))
      Captured.insert(PKey);
  }
  if (Captured.empty())
    St.EventProducers.erase(Key);
  else
    St.EventProducers[Key] = std::move(Captured);
  St.Events[Key] = std::move(Info);
}

void Solver::waitSignal(PendingState &St, const AccessPath &Key) {
  auto Info = St.Events.find(Key);
  if (Info == St.Events.end() || !Info->second.HostSignal)
    return;
  completeCapturedProducers(St, Key);
  for (unsigned Id : Info->second.Covered)
    St.Pending.erase(Id);
}

/// What a host sync of S (or a query of S that returned cudaSuccess) tells
/// of producer P: it is complete (true), or not (false); a sync of the
/// legacy default stream completes a handed stream's work only if that
/// stream is blocking (or is the legacy one), as legacy work joining it,
/// which it marks on P (checkProducers says when that matters).
static bool completedBy(const StreamRef &S, PendingProducer &P, bool OrWaited) {
  bool Waited = OrWaited && P.WaitedBy.count(S.identity());
  if (S.K == StreamRef::Legacy && P.Stream.Supplied && !Waited) {
    P.LegacyJoined = true;
    return false;
  }
  return !unorderedStreams(S, P.Stream) || Waited;
}

void Solver::completeProducersOn(PendingState &St, const StreamRef &S,
                                 bool OrWaited) {
  for (auto It = St.Producers.begin(); It != St.Producers.end();)
    It = completedBy(S, It->second, OrWaited) ? St.Producers.erase(It)
                                              : std::next(It);
}

void Solver::completeCapturedProducers(PendingState &St,
                                       const AccessPath &Event) {
  for (const ProducerKey &P : capturedProducers(St, Event))
    St.Producers.erase(P);
  dropCallerSeeds(St);
}

void Solver::dropCallerSeeds(PendingState &St) {
  if (!R.SummaryMode)
    return;
  for (auto It = St.Producers.begin(); It != St.Producers.end();)
    It = It->second.Stream.K == StreamRef::Unknown ? St.Producers.erase(It)
                                                   : std::next(It);
}

std::set<ProducerKey> Solver::capturedProducers(const PendingState &St,
                                                const AccessPath &Key) const {
  std::set<ProducerKey> Out;
  for (const auto &[Other, Keys] : St.EventProducers)
    if (relate(Key, Other) != PathRelation::Distinct)
      Out.insert(Keys.begin(), Keys.end());
  return Out;
}

void Solver::produce(PendingState &St, const Effect &Ev) {
  ProducerKey Key{Ev.Buffer, Ev.OnStream->identity()};
  PendingProducer &P = St.Producers[Key];
  P = PendingProducer{};
  P.Site = Ev.Anchor;
  P.Stream = *Ev.OnStream;
  P.Var = Ev.Var;
  P.Root = Ev.Name;
  P.OnCurrent = Ev.OnCurrent;
  P.IfDevice = Ev.IfDevice;
  P.Conditions.Sets = {St.Assumed};
  // A new instance: no earlier record, wait or query covers it.
  for (auto It = St.EventProducers.begin(); It != St.EventProducers.end();) {
    It->second.erase(Key);
    It = It->second.empty() ? St.EventProducers.erase(It) : std::next(It);
  }
  for (auto It = St.QueriedProducers.begin(); It != St.QueriedProducers.end();) {
    It->second.erase(Key);
    It = It->second.empty() ? St.QueriedProducers.erase(It) : std::next(It);
  }
}

void Solver::joinLegacy(PendingState &St) {
  // Also producers some stream waited for: that stream may be blocking (the
  // wait's identity does not say), and then ordered the producer first.
  for (auto &[Key, P] : St.Producers)
    if (isBlockingStream(P.Stream) || !P.WaitedBy.empty())
      P.LegacyJoined = true;
}

void Solver::note(PendingState &St, MissReason R, const Expr *Where,
                  const StreamRef *S) {
  for (auto &[Id, P] : St.Pending)
    if (!S || Effects.Copies[Id]->Stream.sameStream(*S) ||
        R == MissReason::StreamWaitEvent)
      P.Miss = {R, Where, S ? S->Spelling : ""};
}

/// Stream-ordered work using pointers: a race only when on another stream.
void Solver::streamOrderedUse(const PendingState &St, const CallExpr *C,
                              const StreamRef &S) {
  for (const Expr *A : C->arguments()) {
    if (!A->getType()->isPointerType() && !A->getType()->isArrayType())
      continue;
    if (const Expr *Root = bufferRoot(A))
      report(St, F.Aliases.classKey(AccessPath::of(Root)),
             AccessKind::OtherStreamUse, A, Root, nullptr, nullptr, &S,
             nullptr, AccessPath::of(Root).constantLastIndex());
  }
}

void Solver::syncDevice(PendingState &St, const CallExpr *C,
                        const ApiEntry &E) {
  St.Producers.clear();
  // The current device's work (cudaDeviceSynchronize: "Blocks until the
  // device has completed all preceding requested tasks"); with an argument
  // (torch::cuda::synchronize(k)) not followed, nor a project's own device
  // sync (DeviceSyncFunctions), which may wait for every device.
  std::optional<FunctionFacts::DeviceSet> Sync;
  if (E.Family != ApiFamily::User &&
      llvm::all_of(C->arguments(),
                   [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
    Sync = F.currentDevice(C);
  for (auto It = St.Pending.begin(); It != St.Pending.end();) {
    const Expr *Copy = Effects.Copies[It->second.Site]->Call;
    std::optional<FunctionFacts::DeviceSet> On =
        Sync && Copy ? F.currentDevice(Copy) : std::nullopt;
    if (!On || Sync->covers(*On)) {
      It = St.Pending.erase(It);
      continue;
    }
    It->second.Miss = {MissReason::OtherDevice, C,
                       Sync->describe() + "; the copy was issued while " +
                           (On->Bound || On->Hi - On->Lo > 1
                                ? "any of " + On->describe()
                                : On->describe()) +
                           " was current"};
    ++It;
  }
}

void Solver::applyApi(PendingState &St, const CallExpr *C,
                      const ApiEntry &E) {
  switch (E.Role) {
  case ApiRole::DeviceSync:
    syncDevice(St, C, E);
    return;
  case ApiRole::FreeSync:
    St.Producers.clear(); // may synchronize: no claim across it
    if (!Opts.StrictMode)
      St.Pending.clear();
    else
      note(St, MissReason::StrictFree, C, nullptr);
    return;
  case ApiRole::StreamSync:
    syncStream(St, F.streamOf(arg(C, E.StreamArg)), C);
    return;
  case ApiRole::BlockingTransfer: {
    auto Kind = F.copyKind(C, E);
    if (Kind && *Kind == MemcpyDeviceToDevice)
      return; // "no host-side synchronization is performed"
    syncStream(St, F.streamOf(nullptr), C);
    return;
  }
  case ApiRole::BlockingMemset: {
    const Expr *Root = bufferRoot(arg(C, E.DstArg));
    if (Root && F.provenanceOf(Root) == Provenance::Pinned)
      syncStream(St, F.streamOf(nullptr), C);
    else
      note(St, E.Miss, C, nullptr);
    return;
  }
  case ApiRole::EventRecord: {
    StreamRef S = E.OmittedStreamIsCurrent && !arg(C, E.StreamArg)
                      ? F.currentStreamAt(C->getBeginLoc())
                      : F.streamOf(arg(C, E.StreamArg));
    AccessPath Key = F.handleOf(arg(C, E.EventArg));
    recordEvent(St, Key, S, C, arg(C, E.EventArg));
    if (E.OmittedStreamIsCurrent && !arg(C, E.StreamArg))
      return; // the current stream may change from one iteration to the next
    if (auto Last = F.lastIterationElement(arg(C, E.EventArg),
                                           arg(C, E.StreamArg), C)) {
      PendingState::EventInfo &Info = St.Events[Key];
      std::tie(Info.LastLoop, Info.LastElement) = *Last;
    }
    return;
  }
  case ApiRole::EventSync:
    syncEvent(St, arg(C, E.EventArg), C);
    return;
  case ApiRole::StreamQuery:
    queryStream(St, C, F.streamOf(arg(C, E.StreamArg)));
    return;
  case ApiRole::EventQuery:
    queryEvent(St, C, F.handleOf(arg(C, E.EventArg)),
               spelling(arg(C, E.EventArg), Ctx));
    return;
  case ApiRole::StreamOrdered:
  case ApiRole::AsyncCopy: {
    StreamRef S = F.streamOf(arg(C, E.StreamArg));
    streamOrderedUse(St, C, S);
    if (E.Miss != MissReason::None)
      note(St, E.Miss, C, &S);
    return;
  }
  case ApiRole::NotASync: {
    StreamRef S = F.streamOf(arg(C, E.StreamArg));
    note(St, E.Miss, C, &S);
    if (E.EventArg != NoArg) {
      dropCallerSeeds(St); // the caller may have recorded the event
      waitEvent(St, S, F.handleOf(arg(C, E.EventArg)), C);
    }
    return;
  }
  case ApiRole::TorchCopy:
  case ApiRole::TorchBlockingRead:
    // Only created for blocking reads of GPU tensors: the copy runs on the
    // current stream and the call returns after it.
    syncStream(St, F.currentStreamAt(C->getBeginLoc()), C);
    return;
  case ApiRole::AsyncBatchCopy:
  case ApiRole::PinnedAlloc:
  case ApiRole::DeviceAlloc:
  case ApiRole::StreamCreate:
  case ApiRole::CaptureBegin: // FunctionFacts::capturing decides
  case ApiRole::CaptureEnd:
  case ApiRole::GraphInstantiate:
  case ApiRole::GraphLaunch: // its copies: EffectBuilder::relaunchCaptured
  case ApiRole::CurrentStream:
  case ApiRole::SetCurrentStream:
  case ApiRole::PoolStream:
  case ApiRole::DefaultStream:
    return;
  }
}

bool Solver::stableIndices(const CopySite &C) const {
  if (C.Seed || !C.DstPath)
    return false;
  std::set<const VarDecl *> Vars;
  if (!pathIndexVariables(C.elementPath(), Vars, Ctx))
    return false;
  // Constant indices alone: CopySite::Element; a string key (`m["loss"]`)
  // is none. A variable that may change where no Write effect says so: not
  // held.
  return (!Vars.empty() || hasStringKey(C.elementPath())) &&
         llvm::all_of(Vars, [&](const VarDecl *V) {
    return V->hasLocalStorage() && !F.AddressTaken.count(V);
  });
}

void Solver::issue(PendingState &St, unsigned Id) {
  // The new copy is pending on every path through here, and a sync that
  // covers it covers the earlier ones of its class: it stands for them.
  unsigned Class = Effects.ClassOf[Id];
  PendingCopy Issued;
  Issued.Conditions.Sets = {St.Assumed};
  Issued.Site = Id;
  holdersAtIssue(St, Issued, *Effects.Copies[Id]);
  Issued.IndicesHeld = stableIndices(*Effects.Copies[Id]);
  // Earlier copies of the class may be in flight through other pointers.
  if (auto Earlier = St.Pending.find(Class); Earlier != St.Pending.end())
    Issued.meetNames(Earlier->second);
  St.Pending[Class] = std::move(Issued);
  for (auto &[Event, Info] : St.Events)
    Info.Covered.erase(Class);
  for (auto &[Stream, Info] : St.Waits)
    Info.Covered.erase(Class);
  for (auto &[Query, Done] : St.Queried)
    Done.erase(Class);
}

void Solver::transfer(PendingState &St, const Effect &Ev, bool Reporting) {
  switch (Ev.K) {
  case Effect::Access:
    if (Reporting)
      report(St, Ev.Buffer, Ev.AK, Ev.Loc, Ev.Name, Ev.Callee, nullptr,
             nullptr, nullptr, Ev.Element, Ev.Bytes);
    return;
  case Effect::Copy:
    issue(St, Ev.CopyId);
    return;
  case Effect::Api:
    // A blocking memset is stream-ordered work on its target first.
    if (Reporting && Ev.Entry->Role == ApiRole::BlockingMemset) {
      StreamRef S = F.streamOf(nullptr);
      streamOrderedUse(St, Ev.CE, S);
    }
    if (Reporting || Ev.Entry->Role != ApiRole::StreamOrdered)
      applyApi(St, Ev.CE, *Ev.Entry);
    // A host function: its argument is a signal the host may wait for.
    if (Ev.Entry->UserDataArg != NoArg)
      if (std::optional<AccessPath> Signal =
              hostSignalOf(arg(Ev.CE, Ev.Entry->UserDataArg))) {
        StreamRef S = F.streamOf(arg(Ev.CE, Ev.Entry->StreamArg));
        recordSignal(St, *Signal, {S}, /*Device=*/false, Ev.CE);
      }
    return;
  case Effect::KernelLaunch: {
    const auto *K = cast<CUDAKernelCallExpr>(Ev.CE);
    const CallExpr *Config = K->getConfig();
    StreamRef S = F.streamOf(Config ? arg(Config, 3) : nullptr);
    if (Reporting)
      streamOrderedUse(St, Ev.CE, S);
    return;
  }
  case Effect::Call:
    if (Ev.MayOrder)
      St.Producers.clear();
    applyHelperCall(*this, St, Ev);
    return;
  case Effect::LambdaArg:
    if (Ev.MayOrder)
      St.Producers.clear();
    if (Reporting)
      applyLambdaArg(*this, St, Ev);
    return;
  case Effect::Write:
    // `cur = 1 - cur;`, `++ring;`, `bufs[0] = a;`: a copy's index may name
    // another element now.
    for (auto &[Class, P] : St.Pending)
      if (P.IndicesHeld) {
        const AccessPath &Dst = Effects.Copies[P.Site]->elementPath();
        std::set<const VarDecl *> Read;
        if (!Ev.ElementsOnly)
          pathIndexVariables(Dst, Read, Ctx);
        if (Dst.rootDecl() == Ev.Var || Read.count(Ev.Var))
          P.IndicesHeld = false;
      }
    if (Ev.ElementsOnly)
      return;
    St.forget(Ev.Var);
    // A constant written here holds on this path until the next write
    // (`ready = true;` ... `if (!ready) sync(s);`).
    if (Ev.Value && Correlated.contains(Ev.Var))
      St.assume(Literal{Ev.Var, /*Eq=*/true, *Ev.Value});
    if (Ev.NewBuffer) // copies made through the variable went elsewhere
      for (auto It = St.Pending.begin(); It != St.Pending.end();)
        It = Effects.Copies[It->second.Site]->DstVar == Ev.Var
                 ? St.Pending.erase(It)
                 : std::next(It);
    return;
  case Effect::Produce:
    produce(St, Ev);
    return;
  case Effect::Consume:
    if (Reporting)
      checkProducers(St, Ev);
    return;
  case Effect::LegacyWork:
    joinLegacy(St);
    return;
  case Effect::BlockingWork:
    waitForLegacy(St, *Ev.OnStream, cast<Expr>(Ev.Anchor));
    return;
  case Effect::Barrier:
    St.Producers.clear();
    return;
  case Effect::UnknownCall: // as cudaDeviceSynchronize: no claim across it
    St.Pending.clear();
    St.Producers.clear();
    return;
  case Effect::Repoint:
    repoint(St, *Ev.Repoints);
    return;
  case Effect::ThreadStart:
    applyThreadStart(*this, St, Ev);
    return;
  case Effect::HostWait:
    applyHostWait(*this, St, Ev);
    return;
  case Effect::StreamSync:
    syncStream(St, *Ev.OnStream, cast<Expr>(Ev.Anchor));
    return;
  }
}

} // namespace clang::tidy::cuda
