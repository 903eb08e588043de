//===--- Solver.cpp - The data flow over one callable's CFG -------------===//

#include "Solver.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <memory>
#include <tuple>

namespace clang::tidy::cuda {
namespace {

/// The order in which the worklist hands out blocks: reverse post-order of
/// a depth-first walk that takes a block's successors last to first, so that
/// a loop's exit comes after its body and the body converges before the
/// code after the loop runs. (PostOrderCFGView takes them first to last,
/// which puts the exit first: 1.5x the time on 10,000 sequential loops;
/// clang's weak topological order, getIntervalWTO, grows faster than
/// linearly there: 3.3x.)
class BodyFirstOrder {
public:
  explicit BodyFirstOrder(const CFG &Cfg)
      : Index(std::make_shared<std::vector<unsigned>>(Cfg.getNumBlockIDs(),
                                                      ~0u)) {
    std::vector<const CFGBlock *> Post;
    std::vector<bool> Seen(Cfg.getNumBlockIDs(), false);
    std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
    Stack.push_back({&Cfg.getEntry(), 0});
    Seen[Cfg.getEntry().getBlockID()] = true;
    while (!Stack.empty()) {
      auto &[B, Next] = Stack.back();
      if (Next < B->succ_size()) {
        // Successors of pruned edges are null.
        const CFGBlock *S = *(B->succ_begin() + (B->succ_size() - 1 - Next++));
        if (S && !Seen[S->getBlockID()]) {
          Seen[S->getBlockID()] = true;
          Stack.push_back({S, 0});
        }
        continue;
      }
      Post.push_back(B);
      Stack.pop_back();
    }
    unsigned N = 0;
    for (auto It = Post.rbegin(); It != Post.rend(); ++It)
      (*Index)[(*It)->getBlockID()] = N++;
  }
  /// The priority queue's "less": the block later in the order.
  bool operator()(const CFGBlock *A, const CFGBlock *B) const {
    return (*Index)[A->getBlockID()] > (*Index)[B->getBlockID()];
  }
  /// An edge From -> To that goes back to a block no later in the order: a
  /// loop's back edge.
  bool isBackEdge(const CFGBlock *From, const CFGBlock *To) const {
    return (*Index)[From->getBlockID()] >= (*Index)[To->getBlockID()];
  }

private:
  std::shared_ptr<std::vector<unsigned>> Index; ///< reverse post-order index
};

/// clang's dataflow worklist (each block at most once in the queue), in
/// BodyFirstOrder.
struct BodyFirstWorklist : DataflowWorklistBase<BodyFirstOrder, 20> {
  BodyFirstWorklist(const CFG &Cfg, const BodyFirstOrder &Order)
      : DataflowWorklistBase(Cfg, Order) {}
};

} // namespace

Solver::Solver(CallableRun &R, FunctionFacts &F, CallableEffects &E)
    : R(R), F(F), Effects(E), Ctx(R.context()), Model(R.model()),
      Opts(R.options()) {}

bool Solver::preferNote(const MissNote &A, const MissNote &B) const {
  // Some note beats none; of two, the call that comes first in the source
  // (then by reason and text): an order on notes, so that the note printed
  // does not depend on the order in which paths reach a join.
  if ((A.Reason == MissReason::None) != (B.Reason == MissReason::None))
    return B.Reason == MissReason::None;
  if (A.Reason == MissReason::None)
    return false;
  if (A.Where != B.Where) {
    if (!A.Where || !B.Where)
      return A.Where != nullptr;
    SourceLocation LA = A.Where->getBeginLoc(), LB = B.Where->getBeginLoc();
    if (LA != LB)
      return Ctx.getSourceManager().isBeforeInTranslationUnit(LA, LB);
  }
  return std::tie(A.Reason, A.Detail) < std::tie(B.Reason, B.Detail);
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
      if (Other == Key)
        continue;
      Coverage Cov = coverage(Key, Elements, Other,
                              OtherInfo.Elements ? &*OtherInfo.Elements
                                                 : nullptr);
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
    else if (Info == St.Events.end())
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

void Solver::recordEvent(PendingState &St, const AccessPath &Key,
                         const StreamRef &S, const Expr *Where,
                         const Expr *EventE) {
  PendingState::EventInfo Info;
  Info.Record = Where;
  Info.Stream = S;
  if (EventE)
    Info.Elements = F.elementsOf(EventE);
  for (const auto &[Id, P] : St.Pending)
    if (covers(S, Effects.Copies[Id]->Stream))
      Info.Covered.insert(Id);
  for (const auto &[WKey, Wait] : St.Waits)
    if (covers(S, Wait.Stream))
      Info.Covered.insert(Wait.Covered.begin(), Wait.Covered.end());
  // The producers it follows: on its stream (or one the check cannot tell
  // from it), on a stream it waited for, or joined by legacy-stream work.
  // (An event that captured none has no entry: the join and every reader
  // take an absent entry as an empty one.)
  std::set<ProducerKey> Captured;
  for (const auto &[PKey, P] : St.Producers)
    if (!unorderedStreams(S, P.Stream) || P.WaitedBy.count(S.identity()) ||
        (P.LegacyJoined && isBlockingStream(S)))
      Captured.insert(PKey);
  if (Captured.empty())
    St.EventProducers.erase(Key);
  else
    St.EventProducers[Key] = std::move(Captured);
  St.Events[Key] = std::move(Info);
}

void Solver::completeProducersOn(PendingState &St, const StreamRef &S,
                                 bool OrWaited) {
  for (auto It = St.Producers.begin(); It != St.Producers.end();)
    It = !unorderedStreams(S, It->second.Stream) ||
                 (OrWaited && It->second.WaitedBy.count(S.identity()))
             ? St.Producers.erase(It)
             : std::next(It);
}

void Solver::completeCapturedProducers(PendingState &St,
                                       const AccessPath &Event) {
  for (const ProducerKey &P : capturedProducers(St, Event))
    St.Producers.erase(P);
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
  P.OnCurrent = Ev.OnCurrent;
  P.Conditions.Sets = {St.Assumed};
  // A new instance: no earlier record or wait covers it.
  for (auto It = St.EventProducers.begin(); It != St.EventProducers.end();) {
    It->second.erase(Key);
    It = It->second.empty() ? St.EventProducers.erase(It) : std::next(It);
  }
}

void Solver::joinLegacy(PendingState &St) {
  // Also producers some stream waited for: that stream may be blocking (the
  // wait's identity does not say), and then ordered the producer first.
  for (auto &[Key, P] : St.Producers)
    if (isBlockingStream(P.Stream) || !P.WaitedBy.empty())
      P.LegacyJoined = true;
}

void Solver::checkProducers(const PendingState &St, const Effect &Ev) {
  if (R.SummaryMode || ProducerFindingAt.count(Ev.Anchor))
    return;
  const StreamRef &On = *Ev.OnStream;
  const PendingProducer *Racing = nullptr;
  for (const auto &[Key, P] : St.Producers) {
    if (Key.first != Ev.Buffer || !unorderedStreams(P.Stream, On) ||
        P.WaitedBy.count(On.identity()) || (P.LegacyJoined && isBlockingStream(On)))
      continue;
    // The legacy default stream waits for blocking streams, and a stream
    // that waited for the producer may be one.
    if (On.K == StreamRef::Legacy && !P.WaitedBy.empty())
      continue;
    // Of several, the latest in the file (an order on sites).
    if (!Racing || Racing->Site->getBeginLoc().getRawEncoding() <
                       P.Site->getBeginLoc().getRawEncoding())
      Racing = &P;
  }
  if (!Racing)
    return;
  ProducerFindingAt.insert(Ev.Anchor);
  Finding Fd;
  Fd.Access = cast<Expr>(Ev.Anchor);
  Fd.BufferName = spelling(Ev.Name, Ctx);
  Fd.Producer = Racing->Site;
  Fd.ProducerStream = Racing->Stream;
  Fd.CopyStream = On;
  Fd.BlockingCopy = Ev.BlockingCopy;
  Findings.push_back(std::move(Fd));
}

void Solver::note(PendingState &St, MissReason R, const Expr *Where,
                  const StreamRef *S) {
  for (auto &[Id, P] : St.Pending)
    if (!S || Effects.Copies[Id]->Stream.sameStream(*S) ||
        R == MissReason::StreamWaitEvent)
      P.Miss = {R, Where, S ? S->Spelling : ""};
}

void Solver::report(const PendingState &St, const std::string &Buffer,
                    AccessKind K, const Expr *Loc, const Expr *Name,
                    const NamedDecl *Callee, const Stmt *CalleeAccess,
                    const StreamRef *UseStream, const std::string *NameStr,
                    std::optional<long long> Element) {
  if (FindingAt.count(Loc) && !R.SummaryMode)
    return;
  for (const auto &[Id, P] : St.Pending) {
    const CopySite *C = Effects.Copies[P.Site];
    if (C->Buffer != Buffer)
      continue;
    if (Element && C->Element && *Element != *C->Element)
      continue; // another element of an array of buffers
    if (UseStream && (C->Stream.sameStream(*UseStream) ||
                      covers(*UseStream, C->Stream)))
      continue; // ordered after the copy: the same stream, or the legacy
                // default stream after a blocking one
    if (UseStream) {
      // A stream that waited (cudaStreamWaitEvent) for an event recorded
      // after the copy runs its later work after it (runtime/cases/
      // h2d_other_stream_after_wait).
      auto Wait = St.Waits.find(UseStream->identity());
      if (Wait != St.Waits.end() && Wait->second.Covered.count(Id))
        continue;
    }
    Finding F;
    F.Access = Loc;
    F.Kind = K;
    F.Callee = Callee;
    F.CalleeAccess = CalleeAccess;
    F.BufferName = Name ? spelling(Name, Ctx) : *NameStr;
    F.Copy = C;
    F.Miss = P.Miss;
    F.LaterIteration =
        C->Call && Ctx.getSourceManager().isBeforeInTranslationUnit(
                       Loc->getBeginLoc(), C->Call->getBeginLoc());
    if (R.SummaryMode) {
      if (SeedFindings.insert({Loc, C}).second) {
        for (const auto &[Other, OP] : St.Pending)
          if (const SummarySeed *Sd = Effects.Copies[OP.Site]->Seed;
              Sd && Sd->isEventSeed())
            F.PendingEventSeeds.push_back(OP.Site);
        Findings.push_back(std::move(F));
      }
      continue;
    }
    FindingAt[Loc] = Findings.size();
    Findings.push_back(std::move(F));
    return;
  }
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

void Solver::applyApi(PendingState &St, const CallExpr *C,
                      const ApiEntry &E) {
  switch (E.Role) {
  case ApiRole::DeviceSync:
    St.Pending.clear();
    St.Producers.clear();
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
    recordEvent(St, F.handleOf(arg(C, E.EventArg)), S, C,
                arg(C, E.EventArg));
    return;
  }
  case ApiRole::EventSync:
    syncEvent(St, arg(C, E.EventArg), C);
    return;
  case ApiRole::StreamQuery: {
    // What a cudaSuccess result would prove complete: the copies on the
    // stream that are in flight now (not ones issued after the query).
    StreamRef S = F.streamOf(arg(C, E.StreamArg));
    // A poll may have found the producer's stream, or a stream that waited
    // for it, idle: no claim after it.
    completeProducersOn(St, S, /*OrWaited=*/true);
    std::set<unsigned> &Done = St.Queried[C];
    Done.clear();
    for (auto &[Id, P] : St.Pending)
      if (covers(S, Effects.Copies[Id]->Stream)) {
        P.Miss = {MissReason::QueryNotChecked, C, S.Spelling};
        Done.insert(Id);
      }
    return;
  }
  case ApiRole::EventQuery: {
    completeCapturedProducers(St, F.handleOf(arg(C, E.EventArg)));
    auto Info = St.Events.find(F.handleOf(arg(C, E.EventArg)));
    std::set<unsigned> &Done = St.Queried[C];
    Done.clear();
    std::string EventName = spelling(arg(C, E.EventArg), Ctx);
    for (auto &[Id, P] : St.Pending) {
      P.Miss = {MissReason::QueryNotChecked, C, EventName};
      if (Info != St.Events.end() && Info->second.Covered.count(Id))
        Done.insert(Id);
    }
    return;
  }
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
    if (E.EventArg != NoArg)
      // S's later work waits for the producers the event follows (any the
      // check cannot tell from it); an unknown stream may be any.
      for (const ProducerKey &Key :
           capturedProducers(St, F.handleOf(arg(C, E.EventArg)))) {
        if (S.K == StreamRef::Unknown)
          St.Producers.erase(Key);
        else if (auto P = St.Producers.find(Key); P != St.Producers.end())
          P->second.WaitedBy.insert(S.identity());
      }
    if (E.EventArg != NoArg && S.K != StreamRef::Unknown) {
      // cudaStreamWaitEvent(S, e): S's later work waits for e.
      auto Info = St.Events.find(F.handleOf(arg(C, E.EventArg)));
      if (Info != St.Events.end()) {
        PendingState::EventInfo &Wait =
            St.Waits[S.identity()];
        Wait.Stream = S;
        Wait.Record = C;
        Wait.Covered.insert(Info->second.Covered.begin(),
                            Info->second.Covered.end());
      }
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
  case ApiRole::CurrentStream:
  case ApiRole::SetCurrentStream:
  case ApiRole::PoolStream:
  case ApiRole::DefaultStream:
    return;
  }
}

void Solver::issue(PendingState &St, unsigned Id) {
  // The new copy is pending on every path through here, and a sync that
  // covers it covers the earlier ones of its class: it stands for them.
  unsigned Class = Effects.ClassOf[Id];
  St.Pending[Class] = PendingCopy{MissNote{}, {{St.Assumed}}, Id};
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
             nullptr, nullptr, Ev.Element);
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
    St.forget(Ev.Var);
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
  case Effect::Barrier:
    St.Producers.clear();
    return;
  }
}

/// cudaStreamQuery(s) == cudaSuccess and friends: the successor index on
/// which the query is known to have returned cudaSuccess (or
/// "not cudaErrorNotReady", which the measured polling loops rely on).
std::optional<std::pair<const CallExpr *, unsigned>>
Solver::querySuccessEdge(const Expr *Cond) const {
  bool Negated = false;
  Cond = strip(Cond);
  while (const auto *U = dyn_cast_or_null<UnaryOperator>(Cond)) {
    if (U->getOpcode() != UO_LNot)
      break;
    Negated = !Negated;
    Cond = strip(U->getSubExpr());
  }
  if (!Cond)
    return std::nullopt;
  auto QueryOf = [&](const Expr *E) -> const CallExpr * {
    E = strip(E);
    if (const auto *B = dyn_cast<BinaryOperator>(E);
        B && B->getOpcode() == BO_Assign)
      E = strip(B->getRHS());
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const ApiEntry *A = F.lookup(C);
      if (A && isQueryRole(A->Role))
        return C;
      return nullptr;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
        auto It = F.QueryVars.find(V);
        return It == F.QueryVars.end() ? nullptr : It->second;
      }
    return nullptr;
  };
  bool SuccessOnTrue;
  const CallExpr *Q = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && B->isEqualityOp()) {
    const Expr *Other = B->getRHS();
    Q = QueryOf(B->getLHS());
    if (!Q) {
      Q = QueryOf(B->getRHS());
      Other = B->getLHS();
    }
    auto V = Q ? evalInt(Other, Ctx) : std::nullopt;
    if (!V || (*V != CudaSuccess && *V != CudaErrorNotReady))
      return std::nullopt;
    bool Eq = B->getOpcode() == BO_EQ;
    SuccessOnTrue = (*V == CudaSuccess) == Eq;
  } else {
    Q = QueryOf(Cond);
    if (!Q)
      return std::nullopt;
    // cudaStreamQuery: a truthy result is an error code; CUDAStream::query
    // returns true once complete.
    SuccessOnTrue = F.lookup(Q)->QueryReturnsBool;
  }
  if (Negated)
    SuccessOnTrue = !SuccessOnTrue;
  return std::make_pair(Q, SuccessOnTrue ? 0u : 1u);
}

/// `v`, `!v`, `v == C`, `v != C` on a local or parameter whose address
/// the callable never takes: the literal that holds on the given edge
/// (until v is written again: see Effect::Write).
std::optional<Literal> Solver::conditionLiteral(const Expr *Cond,
                                                bool OnTrue) const {
  std::optional<Literal> L = literalOf(Cond, OnTrue);
  if (L && !Correlated.contains(L->V))
    return std::nullopt;
  return L;
}

void Solver::findCorrelated(const CFG &Cfg) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<const VarDecl *, unsigned> Sites;
  for (const CFGBlock *B : Cfg) {
    const Expr *Cond = B->succ_size() == 2 ? B->getLastCondition() : nullptr;
    std::optional<Literal> L = Cond ? literalOf(Cond, true) : std::nullopt;
    if (!L || Correlated.contains(L->V))
      continue;
    if (++Sites[L->V] > 1) {
      Correlated.insert(L->V);
      continue;
    }
    // A loop around the test whose body does not hold the declaration (a
    // parameter, a local before the loop, one in its header): the test
    // meets its own earlier literal on the next iteration.
    SourceLocation Decl = SM.getExpansionLoc(L->V->getLocation());
    for (const Stmt *S = B->getTerminatorStmt(); S; S = F.PM.getParent(S)) {
      const Stmt *Body = nullptr;
      if (const auto *For = dyn_cast<ForStmt>(S))
        Body = For->getBody();
      else if (const auto *While = dyn_cast<WhileStmt>(S))
        Body = While->getBody();
      else if (const auto *Do = dyn_cast<DoStmt>(S))
        Body = Do->getBody();
      else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
        Body = Range->getBody();
      if (!Body)
        continue;
      SourceRange R = SM.getExpansionRange(Body->getSourceRange()).getAsRange();
      if (SM.isBeforeInTranslationUnit(Decl, R.getBegin()) ||
          SM.isBeforeInTranslationUnit(R.getEnd(), Decl)) {
        Correlated.insert(L->V);
        break;
      }
    }
  }
}

std::optional<Literal> Solver::literalOf(const Expr *Cond, bool OnTrue) const {
  Cond = strip(Cond);
  bool Positive = OnTrue;
  while (const auto *U = dyn_cast_or_null<UnaryOperator>(Cond)) {
    if (U->getOpcode() != UO_LNot)
      break;
    Positive = !Positive;
    Cond = strip(U->getSubExpr());
  }
  auto Stable = [&](const Expr *E) -> const VarDecl * {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(E));
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || F.AddressTaken.count(V) ||
        V->getType()->isReferenceType() ||
        !(V->getType()->isIntegralOrEnumerationType() ||
          V->getType()->isPointerType()))
      return nullptr;
    return V;
  };
  if (const VarDecl *V = Stable(Cond))
    return Literal{V, !Positive, 0}; // if (v): v != 0
  const auto *B = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!B || !B->isEqualityOp())
    return std::nullopt;
  const VarDecl *V = Stable(B->getLHS());
  const Expr *Other = B->getRHS();
  if (!V) {
    V = Stable(B->getRHS());
    Other = B->getLHS();
  }
  auto C = V ? evalInt(Other, Ctx) : std::nullopt;
  if (!C)
    return std::nullopt;
  bool Eq = (B->getOpcode() == BO_EQ) == Positive;
  return Literal{V, Eq, *C};
}

/// Runs to a fixed point, then one reporting pass. Returns the state at
/// the exit block, or nullopt when over budget or not analysable.
std::optional<PendingState> Solver::run() {
  // (A helper's producers are part of its summary.)
  if (Effects.Copies.empty() &&
      llvm::none_of(Effects.List, [&](const Effect &E) {
        return E.K == Effect::Consume ||
               (R.SummaryMode && E.K == Effect::Produce);
      }))
    return PendingState{};
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  // Destructors of local objects where they go out of scope (Effects
  // summarizes those with visible bodies).
  BO.AddImplicitDtors = !F.DestroyedVars.empty();
  std::unique_ptr<CFG> Cfg =
      CFG::buildCFG(F.FD, const_cast<Stmt *>(F.Body), &Ctx, BO);
  if (!Cfg)
    return std::nullopt;
  findCorrelated(*Cfg);

  // Effects attach to the CFG element of their anchor (or its nearest
  // ancestor that is one); a destructor's, to each element where its
  // variable is destroyed (every exit from its scope).
  llvm::DenseMap<const Stmt *, std::pair<unsigned, unsigned>> ElementOf;
  llvm::DenseMap<const VarDecl *,
                 llvm::SmallVector<std::pair<unsigned, unsigned>, 2>>
      DestroyedAt;
  for (const CFGBlock *B : *Cfg)
    for (unsigned I = 0; I < B->size(); ++I) {
      if (auto S = (*B)[I].getAs<CFGStmt>())
        ElementOf.try_emplace(S->getStmt(), B->getBlockID(), I);
      else if (auto D = (*B)[I].getAs<CFGAutomaticObjDtor>())
        DestroyedAt[D->getVarDecl()].emplace_back(B->getBlockID(), I);
    }
  std::vector<std::vector<std::vector<unsigned>>> At(Cfg->getNumBlockIDs());
  for (const CFGBlock *B : *Cfg)
    At[B->getBlockID()].resize(B->size());
  // Accesses first: arguments are evaluated before the call that
  // receives them, which may be a sync.
  for (bool Accesses : {true, false})
    for (unsigned N = 0; N < Effects.List.size(); ++N) {
      if ((Effects.List[N].K == Effect::Access) != Accesses)
        continue;
      if (Effects.List[N].K == Effect::Call && Effects.List[N].Var) {
        for (auto [Block, Index] : DestroyedAt.lookup(Effects.List[N].Var))
          At[Block][Index].push_back(N);
        continue;
      }
      const Stmt *S = Effects.List[N].Anchor;
      while (S && !ElementOf.count(S))
        S = F.PM.getParent(S);
      if (!S)
        continue; // unevaluated or unreachable
      auto [Block, Index] = ElementOf.lookup(S);
      At[Block][Index].push_back(N);
    }

  std::vector<PendingState> In(Cfg->getNumBlockIDs());
  PendingState &Entry = In[Cfg->getEntry().getBlockID()];
  auto Prefer = [&](const MissNote &A, const MissNote &B) {
    return preferNote(A, B);
  };
  Entry.Reached = true;
  SummarySeeds::seedEntry(Effects, Entry);

  // Loops that run their body once before they exit on some paths: a loop
  // that certainly runs (FunctionFacts::certainlyRuns) exits only after an
  // iteration, and a loop over a container (loopContainer) skips its body
  // only when the container is empty, when no copy was issued on a stream
  // among its elements. For these the exit edge carries the state of the
  // back edges (LoopBack) joined with the state from before the loop
  // (LoopEntry) less what such a skip cannot leave pending.
  BodyFirstOrder Order(*Cfg);
  struct LoopHead {
    bool Certain = false;
    std::optional<AccessPath> Container;
    std::optional<PendingState> Entry, Back;
  };
  std::vector<std::optional<LoopHead>> Loops(Cfg->getNumBlockIDs());
  for (const CFGBlock *B : *Cfg) {
    if (B->succ_size() != 2 || !B->getTerminatorStmt())
      continue;
    const Stmt *Loop = B->getTerminatorStmt();
    LoopHead H;
    H.Certain = F.certainlyRuns(Loop);
    H.Container = F.loopContainer(Loop);
    if (H.Certain || H.Container)
      Loops[B->getBlockID()] = std::move(H);
  }
  // Joins From into Into; true when Into changed.
  auto JoinChanged = [&](PendingState &Into, const PendingState &From) {
    PendingState Before = Into;
    Into.join(From, Prefer);
    return !(Into == Before);
  };
  auto JoinInto = [&](std::optional<PendingState> &Into,
                      const PendingState &From) {
    if (!Into) {
      Into = From;
      return true;
    }
    return JoinChanged(*Into, From);
  };

  auto RunBlock = [&](const CFGBlock &B, bool Reporting,
                      const PendingState *From = nullptr) {
    PendingState St = From ? *From : In[B.getBlockID()];
    size_t Before = St.size();
    for (unsigned I = 0; I < B.size(); ++I)
      for (unsigned Ev : At[B.getBlockID()][I])
        transfer(St, Effects.List[Ev], Reporting);
    // The work of a visit: copying and joining the state it carries (the
    // larger of the two ends: a long block may grow it), which also bounds
    // the memory of the states kept per block, plus the transfers, each
    // about as costly as the copies in flight.
    R.Owner.spendWork(1 + std::max(Before, St.size()) +
                      B.size() * (1 + St.Pending.size()));
    return St;
  };
  // A block ending in `throw` (clang's CFG makes it an element, with an
  // edge to the exit outside a try).
  auto Throws = [](const CFGBlock &B) {
    for (auto It = B.rbegin(); It != B.rend(); ++It)
      if (auto S = It->getAs<CFGStmt>())
        return isa<CXXThrowExpr>(S->getStmt());
    return false;
  };
  auto Propagate = [&](const CFGBlock &B, const PendingState &Out,
                       const PendingState *ExitOut,
                       llvm::function_ref<void(const CFGBlock *)> Enqueue) {
    std::optional<std::pair<const CallExpr *, unsigned>> Query;
    const Expr *Cond = B.succ_size() == 2 ? B.getLastCondition() : nullptr;
    if (Cond)
      Query = querySuccessEdge(Cond);
    unsigned SuccIndex = 0;
    for (const CFGBlock *Succ : B.succs()) {
      unsigned Index = SuccIndex++;
      if (!Succ)
        continue;
      // A path through abort() or a throw never returns to the caller:
      // what it leaves pending is not the helper's result.
      if (Succ == &Cfg->getExit() && (B.hasNoReturnElement() || Throws(B)))
        continue;
      bool LoopExit = Loops[B.getBlockID()] && Index == 1;
      if (LoopExit && !ExitOut)
        continue; // not reachable yet
      PendingState Edge = LoopExit ? *ExitOut : Out;
      if (Query && Query->second == Index) {
        auto Done = Edge.Queried.find(Query->first);
        if (Done != Edge.Queried.end())
          for (unsigned Id : Done->second)
            Edge.Pending.erase(Id);
      }
      if (Cond && Index < 2)
        if (auto L = conditionLiteral(Cond, /*OnTrue=*/Index == 0))
          if (!Edge.assume(*L))
            continue; // contradicts what this path already assumed
      bool Changed = false;
      if (std::optional<LoopHead> &H = Loops[Succ->getBlockID()])
        Changed = JoinInto(Order.isBackEdge(&B, Succ) ? H->Back : H->Entry,
                           Edge);
      if (JoinChanged(In[Succ->getBlockID()], Edge) || Changed)
        Enqueue(Succ);
    }
  };

  BodyFirstWorklist Worklist(*Cfg, Order);
  Worklist.enqueueBlock(&Cfg->getEntry());
  unsigned Visits =
      std::max(2000u, Opts.BlockVisitFactor * Cfg->getNumBlockIDs());
  while (const CFGBlock *B = Worklist.dequeue()) {
    if (Visits-- == 0) {
      R.Owner.visitCapReached(R.Depth); // pathological: skip
      return std::nullopt;
    }
    if (!R.Owner.withinWorkLimit())
      return std::nullopt;
    std::optional<PendingState> ExitOut;
    if (const std::optional<LoopHead> &H = Loops[B->getBlockID()]) {
      if (H->Back)
        ExitOut = RunBlock(*B, false, &*H->Back);
      if (H->Entry && !H->Certain) {
        PendingState Skip = RunBlock(*B, false, &*H->Entry);
        for (auto It = Skip.Pending.begin(); It != Skip.Pending.end();) {
          const StreamRef &On = Effects.Copies[It->first]->Stream;
          if (On.Elements && On.Elements->Array == *H->Container)
            It = Skip.Pending.erase(It);
          else
            ++It;
        }
        JoinInto(ExitOut, Skip);
      }
    }
    Propagate(*B, RunBlock(*B, false), ExitOut ? &*ExitOut : nullptr,
              [&](const CFGBlock *S) { Worklist.enqueueBlock(S); });
  }
  for (const CFGBlock *B : *Cfg)
    if (In[B->getBlockID()].Reached)
      RunBlock(*B, true);
  return In[Cfg->getExit().getBlockID()];
}

} // namespace clang::tidy::cuda
