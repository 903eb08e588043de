//===--- HelperSummaryCalls.cpp - A helper's summary at a call --------===//
//
// Application of a HelperSummary (in-TU or imported) at a call: the
// summary rebased to the caller's names (parameter -> argument, `this` ->
// the object called on, an init-capture -> its initializer), the syncs,
// records and accesses it implies, and the copies it leaves in flight.
// Eligibility, seeds and extraction: HelperSummaries.cpp.
//
// May call: what HelperSummaries.h may call.
//
//===----------------------------------------------------------------------===//

#include "HelperSummaries.h"
#include "ExprUtils.h"
#include "Solver.h"
#include "TorchModel.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>
#include <set>

namespace clang::tidy::cuda {
namespace {

/// Whether PD is a parameter of Fn or of another declaration of it: a
/// summary names the parameters of the definition (or, imported, of the
/// first declaration), and a call may be of any of them (a prototype before
/// the definition, a header's declaration).
bool isParameterOf(const ParmVarDecl *PD, const FunctionDecl *Fn) {
  const auto *Owner =
      PD ? dyn_cast<FunctionDecl>(PD->getDeclContext()) : nullptr;
  return Owner && Fn && Owner->getCanonicalDecl() == Fn->getCanonicalDecl();
}

/// A key of a helper's (`this->s_`) as the caller names it: `obj.s_` /
/// `p->s_` at `obj.wait()` / `p->wait()`; unchanged at a call on `this`,
/// of a lambda (whose `this` is the caller's), and for globals. False
/// where the object is not known.
bool rebase(FunctionFacts &F, AccessPath &Path, std::string &Spelling,
            const CallExpr *C, bool Lambda) {
  if (Lambda || !Path.isThisMember())
    return true;
  // `o.wait()`, or an operator called as one (`++o`, `o[i]`, `o(d)`),
  // whose object is argument 0.
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    Obj = MC->getImplicitObjectArgument();
  else if (argShift(C) == 1)
    Obj = C->getArg(0);
  if (!Obj)
    return false;
  if (isThis(Obj))
    return true;
  // Through a pointer, or a smart pointer's variable (a heap object's
  // construction, EffectBuilder::addConstructorCall).
  QualType ObjT = Obj->getType().getNonReferenceType();
  bool Arrow = ObjT->isPointerType() ||
               isStdSmartPointer(ObjT->getAsCXXRecordDecl());
  Path = Path.rebasedOnObject(AccessPath::of(Obj), Arrow);
  llvm::StringRef Member = Spelling;
  Member.consume_front("this->");
  Spelling = spelling(Obj, F.Ctx) + (Arrow ? "->" : ".") + Member.str();
  return true;
}

/// Indices that are the callee's parameters (`ev_[i]`, kept only where the
/// helper never changes i: handleOutlivesCall) as the call's arguments:
/// `ev_[0]` at `markDone(0)`, in the path and in its spelling. False where
/// an argument is missing.
bool indicesAtCall(FunctionFacts &F, AccessPath &Path, std::string &Name,
                   const CallExpr *C) {
  const FunctionDecl *Fn = C->getDirectCallee();
  if (!Fn)
    return true;
  bool Missing = false;
  Path = Path.withIndices([&](const Expr *X) -> const Expr * {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(X));
    const auto *PD = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!isParameterOf(PD, Fn))
      return nullptr;
    const Expr *A = paramArg(C, PD->getFunctionScopeIndex());
    if (!A) {
      Missing = true;
      return nullptr;
    }
    std::string From = ("[" + PD->getName() + "]").str();
    if (size_t At = Name.find(From); At != std::string::npos)
      Name.replace(At, From.size(), "[" + spelling(A, F.Ctx) + "]");
    return A;
  });
  return !Missing;
}

/// A member or element of a parameter PD of the callee (a function's or
/// a lambda's call operator) named by a summary: the argument's at call C
/// (`p.x` of `P &p` is `q.x` of the argument q).
static bool parameterPartAtCall(FunctionFacts &F, AccessPath &Path,
                                std::string &Name, const CallExpr *C,
                                const ParmVarDecl *PD) {
  unsigned P = PD->getFunctionScopeIndex();
  // An element of a parameter's array (`evs[k]` of `cudaEvent_t
  // *evs`): of the argument's.
  bool Element = !Path.steps().empty() &&
                 Path.steps().front().K == PathStep::Index;
  if (!Element && !Path.isMemberOf(PD))
    return rebase(F, Path, Name, C, /*Lambda=*/false);
  const Expr *A = paramArg(C, P);
  if (!A)
    return false;
  if (Element) {
    llvm::StringRef NameRest = Name;
    NameRest.consume_front(PD->getName());
    Path = Path.rebasedOnArgument(AccessPath::of(A), /*Deref=*/false);
    Name = spelling(A, F.Ctx) + NameRest.str();
    return true;
  }
  // `p.x` of `P &p` is `q.x` of the argument q; `p->x` of `P *p`
  // is `ptr->x`, or `q.x` for the argument `&q`.
  llvm::StringRef NameRest = Name;
  NameRest.consume_front(PD->getName());
  const auto *U = dyn_cast<UnaryOperator>(strip(A));
  if (U && U->getOpcode() == UO_AddrOf &&
      Path.steps().front().K == PathStep::Arrow) {
    NameRest.consume_front("->");
    Path = Path.rebasedOnArgument(AccessPath::of(U->getSubExpr()),
                                  /*Deref=*/true);
    Name = spelling(U->getSubExpr(), F.Ctx) + "." + NameRest.str();
    return true;
  }
  Path = Path.rebasedOnArgument(AccessPath::of(A), /*Deref=*/false);
  Name = spelling(A, F.Ctx) + NameRest.str();
  return true;
}

/// A name of a helper's summary (a capture, a `this->` member, a global)
/// as this caller spells it: an init-capture `[p = h]` of the lambda
/// Lambda stands for its initializer (*Init is set to it), `this->` is
/// rebased to the object of the member call Call, a parameter's member or
/// element to the argument's, and an index that is a parameter to the
/// argument (indicesAtCall). False where the caller cannot name it.
bool nameAtCall(FunctionFacts &F, AccessPath &Path, std::string &Name,
                const Expr *Call, const CXXMethodDecl *Lambda,
                const Expr **Init = nullptr) {
  if (!Lambda) {
    const auto *C = dyn_cast_or_null<CallExpr>(Call);
    if (!C || !indicesAtCall(F, Path, Name, C))
      return false;
    // A call of the helper's parameters (callOfParameters): the same call
    // of the arguments here.
    if (const CallExpr *RC = Path.rootCall();
        RC && Path.steps().empty() && C->getDirectCallee()) {
      const FunctionDecl *Fn = C->getDirectCallee();
      llvm::SmallVector<AccessPath, 4> Args;
      std::string Spelled = RC->getDirectCallee()
                                ? RC->getDirectCallee()->getNameAsString()
                                : "call";
      Spelled += "(";
      for (unsigned I = 0; I < RC->getNumArgs(); ++I) {
        const Expr *A = RC->getArg(I);
        const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(A));
        const auto *PD = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
        if (isParameterOf(PD, Fn)) {
          const Expr *Arg = paramArg(C, PD->getFunctionScopeIndex());
          if (!Arg)
            return false;
          A = Arg;
        }
        Args.push_back(AccessPath::of(A));
        Spelled += (I ? ", " : "") + spelling(A, F.Ctx);
      }
      Path = AccessPath::ofCall(RC, Args);
      Name = Spelled + ")";
      return true;
    }
    // A member of an object parameter: of the argument here.
    const auto *PD = dyn_cast_or_null<ParmVarDecl>(Path.rootDecl());
    if (isParameterOf(PD, C->getDirectCallee()))
      return parameterPartAtCall(F, Path, Name, C, PD);
    return rebase(F, Path, Name, C, /*Lambda=*/false);
  }
  // A member of the lambda's parameter (`[](const Stream &x) { sync(x.s); }`
  // at `wait_on(io)`): of the argument here.
  // Only at a call of the lambda itself: an algorithm given the lambda
  // (`std::for_each(b, e, fn)`) binds the parameter to no argument of its.
  if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(Path.rootDecl());
      PD && isParameterOf(PD, Lambda)) {
    const auto *C = dyn_cast_or_null<CallExpr>(Call);
    return C && C->getDirectCallee() &&
           C->getDirectCallee()->getCanonicalDecl() ==
               Lambda->getCanonicalDecl() &&
           parameterPartAtCall(F, Path, Name, C, PD);
  }
  for (const VarDecl *V : capturedVars(Lambda)) {
    if (!V->isInitCapture() || !V->getInit() || Path != AccessPath::ofDecl(V))
      continue;
    const Expr *E = V->getInit();
    const Expr *Root = bufferRoot(E);
    Path = AccessPath::of(Root ? Root : E);
    Name = spelling(Root ? Root : E, F.Ctx);
    if (Init)
      *Init = E;
    return true;
  }
  return true; // captures and `this` are the caller's own
}

/// A stream of a helper's summary as this caller names it (nameAtCall).
bool streamAtCall(FunctionFacts &F, StreamRef &S, const Expr *Call,
                  const CXXMethodDecl *Lambda) {
  if (S.K != StreamRef::Named)
    return true;
  const Expr *Init = nullptr;
  if (!nameAtCall(F, S.Path, S.Spelling, Call, Lambda, &Init))
    return false;
  if (Init) {
    S = F.streamOf(Init);
  } else {
    S.Path = F.handleValue(S.Path); // `g.s_` of `Guard g(s)` is s
    S.NonBlocking = F.isNonBlockingStream(S.Path);
    F.applyOrigin(S); // a member's or global's origin holds unit-wide
    // The helper's loops are not the caller's: the elements its constant
    // or rebased index names (`v[0]` of `syncFirst(streams)`), or none.
    S.Elements = F.elementsOfPath(S.Path);
  }
  return true;
}

/// A stream of a summary as this caller names it at call C: the argument
/// for parameter Param (>= 0), or Named renamed by streamAtCall. nullopt
/// where the caller cannot name it.
std::optional<StreamRef> streamAtCall(FunctionFacts &F, int Param,
                                      StreamRef Named, const CallExpr *C,
                                      const CXXMethodDecl *Lambda) {
  if (Param >= 0) {
    const Expr *A = paramArg(C, Param);
    if (!A)
      return std::nullopt;
    return F.streamOf(A);
  }
  if (!streamAtCall(F, Named, C, Lambda))
    return std::nullopt;
  return Named;
}

/// An event of a summary as this caller names it at Call: the argument for
/// parameter Param (>= 0; *Arg is set to it), or Event named by nameAtCall.
/// nullopt where the caller cannot name it.
std::optional<AccessPath> eventAtCall(FunctionFacts &F, int Param,
                                      HelperSummary::EventRef Event,
                                      const Expr *Call,
                                      const CXXMethodDecl *Lambda,
                                      const Expr **Arg = nullptr) {
  if (Param >= 0) {
    const auto *CE = dyn_cast_or_null<CallExpr>(Call);
    const Expr *A = CE ? paramArg(CE, Param) : nullptr;
    if (!A)
      return std::nullopt;
    if (Arg)
      *Arg = A;
    return F.handleOf(A);
  }
  if (!nameAtCall(F, Event.Path, Event.Spelling, Call, Lambda))
    return std::nullopt;
  return F.handleValue(Event.Path);
}

/// Does one of a helper's guard events (synchronized before its accesses
/// of a buffer), as this caller names it at Call, cover the caller's copy
/// of class ClassId?
bool guardCovers(FunctionFacts &F, const PendingState &St,
                 const std::vector<HelperSummary::EventGuard> &Guards,
                 const Expr *Call, const CXXMethodDecl *Lambda,
                 unsigned ClassId) {
  for (const HelperSummary::EventGuard &G : Guards) {
    std::optional<AccessPath> Key =
        eventAtCall(F, G.EventParam, G.Event, Call, Lambda);
    if (!Key)
      continue;
    auto It = St.Events.find(*Key);
    if (It != St.Events.end() && It->second.Covered.count(ClassId))
      return true;
    // Or an event the check cannot tell apart from it, as a sync of it in
    // the caller would (Solver::syncEvent): the helper's wait of
    // `slot.ready` at `consume(slots[cur ^ 1])` after a record of
    // `slots[cur].ready`.
    for (const auto &[Other, Info] : St.Events)
      if (!Info.HostSignal && Info.Covered.count(ClassId) &&
          coverage(*Key, nullptr, Other,
                   Info.Elements ? &*Info.Elements : nullptr) ==
              Coverage::Covers)
        return true;
  }
  return false;
}

/// The seed a caller's copy on stream On meets where the helper does not
/// name On: the per-thread default stream's, a blocking stream's, or "any
/// stream" (-1).
int defaultStreamSeed(const StreamRef &On) {
  if (On.K == StreamRef::PerThread)
    return SummarySeed::PerThreadStream;
  return isBlockingStream(On) ? SummarySeed::AnyBlockingStream : -1;
}

/// Buffers the caller names too that a helper or lambda touches before
/// synchronizing them, reported at Loc: its call (PassedToFunction of a
/// member helper, UsedByLambda) or where a lambda is passed on
/// (CapturedByArgument).
void applyNamedAccesses(Solver &Sv, const PendingState &St,
                        const HelperSummary &S, const Expr *Call,
                        const CXXMethodDecl *Lambda, const Expr *Loc,
                        AccessKind Kind, const NamedDecl *Callee) {
  FunctionFacts &F = Sv.facts();
  std::vector<StreamRef> Streams = S.CaptureStreams;
  std::vector<bool> Known(Streams.size());
  for (unsigned K = 0; K < Streams.size(); ++K)
    Known[K] = streamAtCall(F, Streams[K], Call, Lambda);
  for (const HelperSummary::NamedBuffer &B : S.Named) {
    if (B.Unsynced.empty())
      continue;
    AccessPath Key = B.Path;
    std::string Name = B.Name;
    if (!nameAtCall(F, Key, Name, Call, Lambda))
      continue;
    std::string Class = F.Aliases.classKey(Key);
    for (const auto &[Id, Pend] : St.Pending) {
      const CopySite &Copy = Sv.copy(Id);
      if (Copy.Buffer != Class)
        continue;
      // The seed on the copy's stream, if the helper names it.
      int Seed = -1;
      for (unsigned K = 0; K < Streams.size(); ++K)
        if (Known[K] && Streams[K].sameStream(Copy.Stream))
          Seed = K;
      if (Seed >= static_cast<int>(S.NamedBufferStreams))
        Seed = -1; // not crossed with the buffers: any stream
      if (Seed < 0)
        Seed = defaultStreamSeed(Copy.Stream);
      if (guardCovers(F, St, B.Guards, Call, Lambda, Id))
        continue; // an event it waits for first covers the copy
      if (Sv.otherBuffer(Pend, Key))
        continue;
      if (llvm::is_contained(B.Unsynced, Seed)) {
        Sv.report(St, Class, Kind, Loc, nullptr, Callee, B.Site, nullptr,
                  &Name, std::nullopt, std::nullopt, &Key);
        break;
      }
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Application at a call
//===----------------------------------------------------------------------===//

bool namedAtCall(FunctionFacts &F, AccessPath &Path, std::string &Name,
                 const CallExpr *C) {
  return nameAtCall(F, Path, Name, C, /*Lambda=*/nullptr);
}

std::optional<StreamRef> namedStreamAtCall(FunctionFacts &F,
                                           const StreamRef &S,
                                           const CallExpr *C) {
  std::optional<StreamRef> At = streamAtCall(F, -1, S, C, /*Lambda=*/nullptr);
  // A member or global not known to be a created stream may have been
  // given any stream before the call (`hg.setStream(s); hg.run();`, `g =
  // s; produce();`), which its path does not say: not told apart.
  if (At && At->K == StreamRef::Named && !At->Created && !At->Fresh) {
    At->Rebound = true;
    At->Supplied = false; // nor claimed as a stream the caller is handed
  }
  return At;
}

StreamRef pendingCopyStream(FunctionFacts &F,
                            const HelperSummary::PendingCopy &PC,
                            const CallExpr *C,
                            const CXXMethodDecl *CalleeLambda) {
  // An argument the call lacks is the default stream's, as it always was.
  if (PC.StreamParam >= 0 && !paramArg(C, PC.StreamParam))
    return F.streamOf(nullptr);
  return streamAtCall(F, PC.StreamParam, PC.Stream, C, CalleeLambda)
      .value_or(StreamRef{}); // unknown: an object the caller cannot name
}

std::vector<std::pair<unsigned, unsigned>>
copiesLeftAtCall(CallableRun &R, FunctionFacts &F, CallableEffects &Out,
                 const HelperSummary &S, const CallExpr *C,
                 const CXXMethodDecl *CalleeLambda) {
  std::vector<std::pair<unsigned, unsigned>> Ids;
  for (unsigned N = 0; N < S.CopiesLeftPending.size(); ++N) {
    const HelperSummary::PendingCopy &PC = S.CopiesLeftPending[N];
    if (PC.Returned)
      continue; // the call's result: Effects binds it
    AccessPath Key;
    std::string Name;
    Provenance Prov;
    const ValueDecl *DstVar = nullptr;
    if (PC.DstNamed >= 0) {
      const HelperSummary::NamedBuffer &B = S.Named[PC.DstNamed];
      Key = B.Path;
      Name = B.Name;
      const Expr *Init = nullptr;
      if (!nameAtCall(F, Key, Name, C, CalleeLambda, &Init))
        continue;
      const Expr *Root = Init ? bufferRoot(Init) : nullptr;
      Prov = Root ? F.provenanceOf(Root)
                  : std::max(F.Aliases.provenance(Key),
                             B.Var ? FunctionFacts::varProvenance(B.Var)
                                   : Provenance::Unknown);
    } else {
      const Expr *Dst = paramArg(C, PC.DstParam);
      const Expr *Root = Dst ? bufferRoot(Dst) : nullptr;
      if (!Root)
        continue;
      Key = AccessPath::of(Root);
      Name = spelling(Root, F.Ctx);
      Prov = F.provenanceOf(Root);
      DstVar = namedDecl(Root);
    }
    if (Prov == Provenance::Device ||
        (Prov == Provenance::Pageable && !R.options().StrictMode))
      continue;
    StreamRef Stream = pendingCopyStream(F, PC, C, CalleeLambda);
    if (PC.UnlessBlocking && isBlockingStream(Stream))
      continue; // the helper's legacy-stream sync waited for it
    CopySite *Site = Out.newCopy(R);
    Site->Call = C;
    Site->InnerCopy = PC.Copy;
    Site->InnerCopyAt = PC.CopyAt;
    Site->Buffer = F.Aliases.classKey(Key);
    Site->Element = Key.constantLastIndex();
    Site->BufferName = Name;
    Site->Stream = Stream;
    Site->Pageable = Prov == Provenance::Pageable;
    // Of inferred direction: the argument decides (Effects, once the
    // caller's accesses are known).
    Site->NeedsHostDestination =
        PC.NeedsHostDestination && Prov == Provenance::Unknown;
    Site->DstVar = DstVar;
    Site->DstPath = Key;
    Ids.push_back({Out.Copies.size() - 1, N});
  }
  return Ids;
}

/// The caller's stream bound to stream parameter J, if the helper
/// synchronizes it: on every path, or through the legacy stream where the
/// caller's stream is blocking.
static std::optional<StreamRef> syncedParamStream(FunctionFacts &F,
                                                  const HelperSummary &S,
                                                  const CallExpr *C,
                                                  unsigned J) {
  unsigned Shift = argShift(C);
  if (J + Shift >= C->getNumArgs())
    return std::nullopt;
  StreamRef Arg = F.streamOf(C->getArg(J + Shift));
  if (S.SyncsStreamParam[J] ||
      (J < S.SyncsStreamParamIfBlocking.size() &&
       S.SyncsStreamParamIfBlocking[J] && isBlockingStream(Arg)))
    return Arg;
  return std::nullopt;
}

std::vector<StreamRef> syncedStreamsAtCall(FunctionFacts &F,
                                           const HelperSummary &S,
                                           const CallExpr *C) {
  const CXXMethodDecl *Lambda = lambdaOperator(C->getDirectCallee());
  std::vector<StreamRef> Out;
  for (StreamRef Synced : S.SyncsStreams)
    if (streamAtCall(F, Synced, C, Lambda))
      Out.push_back(Synced);
  for (unsigned J = 0; J < S.SyncsStreamParam.size(); ++J)
    if (std::optional<StreamRef> Synced = syncedParamStream(F, S, C, J))
      Out.push_back(*Synced);
  return Out;
}

void applyHelperCall(Solver &Sv, PendingState &St, const Effect &Ev) {
  FunctionFacts &F = Sv.facts();
  const CallExpr *C = Ev.CE;
  const HelperSummary *S = Ev.Summary;
  if (S && S->TooCostly) {
    St.Pending.clear();
    St.Producers.clear();
    return;
  }
  // Where its effects are noted: the call, or where a destructor runs.
  const Expr *Where = Ev.Loc ? Ev.Loc : C;
  unsigned NumArgs = C->getNumArgs();
  unsigned Shift = argShift(C);
  // A lambda is named by its variable (`read(h)`: "passed to 'read'").
  const CXXMethodDecl *Lambda = lambdaOperator(C->getDirectCallee());
  const VarDecl *LambdaVar = nullptr;
  if (Lambda) {
    // `f()` carries the closure as argument 0; `f.operator()()` as the
    // object.
    const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
    lambdaOf(MC ? MC->getImplicitObjectArgument()
                : (NumArgs ? C->getArg(0) : nullptr),
             &LambdaVar);
  }
  const NamedDecl *Callee = LambdaVar
                                ? static_cast<const NamedDecl *>(LambdaVar)
                                : C->getDirectCallee();
  for (unsigned I = Shift; I < NumArgs; ++I) {
    const Expr *A = C->getArg(I);
    const Expr *Root = bufferRoot(A);
    if (!Root)
      continue;
    std::string Class = F.Aliases.classKey(AccessPath::of(Root));
    unsigned P = I - Shift;
    if (!S || P >= S->AccessedUnlessSynced.size()) {
      Sv.report(St, Class, AccessKind::PassedToFunction, A, Root, Callee);
      continue;
    }
    // Which of the helper's seeds matches each pending copy's stream?
    for (const auto &[Id, Pend] : St.Pending) {
      const CopySite *Copy = &Sv.copy(Id);
      if (Copy->Buffer != Class)
        continue;
      int Seed = -1;
      for (unsigned J = 0; J < S->SyncsStreamParam.size(); ++J)
        if (J + Shift < NumArgs &&
            isStreamOrWrapper(C->getArg(J + Shift)->getType()) &&
            F.streamOf(C->getArg(J + Shift)).sameStream(Copy->Stream))
          Seed = J;
      bool Blocking = isBlockingStream(Copy->Stream);
      if (Seed < 0)
        Seed = defaultStreamSeed(Copy->Stream);
      if (guardCovers(F, St, S->AccessGuards[P], C, Lambda, Id))
        continue; // an event it waits for first covers the copy
      // On a stream parameter, a blocking stream is also waited for by the
      // helper's syncs of the legacy stream, which its "blocking stream"
      // seed records.
      const std::vector<int> &Unless = S->AccessedUnlessSynced[P];
      if (llvm::is_contained(Unless, Seed) &&
          (Seed < 0 || !Blocking ||
           llvm::is_contained(Unless, SummarySeed::AnyBlockingStream))) {
        Sv.report(St, Class, AccessKind::PassedToFunction, A, Root, Callee,
               S->AccessSite[P]);
        break;
      }
    }
  }
  if (!S)
    return;
  // Buffers the caller names too: a lambda's captures, members of the
  // object called on, globals.
  if (Lambda)
    applyNamedAccesses(Sv, St, *S, C, Lambda, C, AccessKind::UsedByLambda,
                       LambdaVar);
  else
    applyNamedAccesses(Sv, St, *S, C, nullptr, Where, AccessKind::UsedByCallee,
                       C->getDirectCallee());
  // Waits for the caller's events first: where the helper synchronized the
  // waiting stream after its wait, the sync then covers what the event did.
  for (const HelperSummary::EventWait &W : S->WaitsEvents) {
    std::optional<StreamRef> Waiter =
        streamAtCall(F, W.WaiterParam, W.Waiter, C, Lambda);
    std::optional<AccessPath> Event =
        eventAtCall(F, W.EventParam, W.Event, C, Lambda);
    if (Waiter && Event)
      Sv.waitEvent(St, *Waiter, *Event, Where);
    else
      St.Producers.clear(); // a wait the call cannot name may order any
  }
  for (StreamRef Synced : S->SyncsStreams)
    if (streamAtCall(F, Synced, C, Lambda))
      Sv.syncStream(St, Synced, Where);
  for (HelperSummary::EventRef Synced : S->SyncsEvents)
    if (nameAtCall(F, Synced.Path, Synced.Spelling, C, Lambda)) {
      AccessPath Key = F.handleValue(Synced.Path);
      std::optional<ElementRange> Elements = F.elementsOfPath(Key);
      Sv.syncEvent(St, Key, Synced.Spelling, Where,
                   Elements ? &*Elements : nullptr);
    }
  for (unsigned J = 0; J < S->SyncsEventParam.size(); ++J)
    if (S->SyncsEventParam[J] && J + Shift < NumArgs)
      Sv.syncEvent(St, C->getArg(J + Shift), Where);
  // The records' events as this caller names them (for CoveredBy).
  std::vector<std::optional<AccessPath>> RecordedEvents(
      S->RecordsEvents.size());
  for (unsigned N = 0; N < S->RecordsEvents.size(); ++N) {
    const HelperSummary::EventRecord &Rec = S->RecordsEvents[N];
    const Expr *EventArg = nullptr;
    std::optional<AccessPath> EventKey =
        eventAtCall(F, Rec.EventParam, Rec.Event, C, Lambda, &EventArg);
    std::optional<StreamRef> On =
        EventKey ? streamAtCall(F, Rec.StreamParam, Rec.Stream, C, Lambda)
                 : std::nullopt;
    if (!On) {
      St.Producers.clear(); // a record the call cannot name may order any
      continue;
    }
    if (Rec.SomePaths)
      Sv.mayRecordEvent(St, *EventKey, *On, Where, EventArg);
    else
      Sv.recordEvent(St, *EventKey, *On, Where, EventArg);
    RecordedEvents[N] = *EventKey;
  }
  // Whether a query succeeded, as it returns: the call is that query.
  if (const auto &Q = S->ReturnsQuerySuccess) {
    if (!Q->OnEvent) {
      if (std::optional<StreamRef> On =
              streamAtCall(F, Q->Param, Q->Stream, C, Lambda))
        Sv.queryStream(St, C, *On);
    } else if (std::optional<AccessPath> Event =
                   eventAtCall(F, Q->Param, Q->Event, C, Lambda)) {
      Sv.queryEvent(St, C, *Event, Q->Event.Spelling);
    }
  }
  // Streams it made wait for others' work in flight at the call.
  for (const HelperSummary::StreamJoin &J : S->JoinsStreams) {
    std::optional<StreamRef> Waiter =
        streamAtCall(F, J.WaiterParam, J.Waiter, C, Lambda);
    std::optional<StreamRef> Signaler =
        streamAtCall(F, J.SignalerParam, J.Signaler, C, Lambda);
    if (Waiter && Signaler)
      Sv.joinStreams(St, *Waiter, *Signaler, Where);
  }
  // The future it returns, fulfilled by a host function on a stream.
  if (const auto &RS = S->ReturnsSignal)
    if (std::optional<StreamRef> On =
            streamAtCall(F, RS->StreamParam, RS->Stream, C, Lambda))
      Sv.recordSignal(St, AccessPath::temporary(C), {*On}, /*Device=*/false,
                      Where, /*Accumulate=*/false);
  if (S->SyncsDevice) {
    St.Pending.clear();
  } else {
    for (unsigned J = 0; J < S->SyncsStreamParam.size(); ++J)
      if (std::optional<StreamRef> Synced = syncedParamStream(F, *S, C, J))
        Sv.syncStream(St, *Synced, Where);
  }
  // Copies it leaves in flight, issued after its records: a record the
  // helper made after a copy covers it.
  for (auto [Id, N] : Ev.HelperCopies) {
    Sv.issue(St, Id);
    const HelperSummary::PendingCopy &PC = S->CopiesLeftPending[N];
    for (unsigned Rec : PC.CoveredBy)
      if (const std::optional<AccessPath> &Event = RecordedEvents[Rec]) {
        auto It = St.Events.find(*Event);
        if (It != St.Events.end())
          It->second.Covered.insert(Sv.classOf(Id));
      }
    // Streams it made wait for the copy: a later host sync of one covers it.
    for (const auto &[Param, Waiting] : PC.JoinedInto) {
      std::optional<StreamRef> At = streamAtCall(F, Param, Waiting, C, Lambda);
      if (!At || At->K == StreamRef::Unknown)
        continue;
      const StreamRef &On = *At;
      PendingState::EventInfo &Wait = St.Waits[On.identity()];
      Wait.Stream = On;
      Wait.Record = Where;
      Wait.Covered.insert(Sv.classOf(Id));
    }
  }
}

void applyLambdaArg(Solver &Sv, const PendingState &St, const Effect &Ev) {
  applyNamedAccesses(Sv, St, *Ev.Summary,
                     Ev.Anchor ? dyn_cast<Expr>(Ev.Anchor) : nullptr,
                     Ev.Lambda, Ev.Loc, Ev.AK, Ev.Callee);
}

} // namespace clang::tidy::cuda
