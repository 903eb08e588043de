//===--- HelperSummaries.cpp - What calling a helper does ---------------===//
//
// Eligibility and extraction of a helper's summary (HelperSummaries.h).
// Seeds: HelperSummarySeeds.cpp. Application at a call:
// HelperSummaryCalls.cpp.
//
// May call: what HelperSummaries.h may call.
//
//===----------------------------------------------------------------------===//

#include "HelperSummaries.h"
#include "ExprUtils.h"
#include "HostOrdering.h"
#include "LibraryCode.h"
#include "LibraryProducers.h"
#include "Solver.h"
#include "TorchModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <algorithm>
#include <set>

namespace clang::tidy::cuda {
namespace {

/// A lambda's producer P (region key Region) writing a whole captured
/// variable on a default stream or a captured stream variable: what its
/// caller can name. nullopt otherwise.
std::optional<HelperSummary::CapturedProduction>
capturedProduction(const FunctionDecl *Def, llvm::StringRef Region,
                   const PendingProducer &P) {
  const VarDecl *Buf = capturedVariable(Def, P.Var);
  if (!Buf || !Region.ends_with(("@" + Buf->getName()).str()))
    return std::nullopt; // a part of it (`d + n`, `d[1]`): not followed
  HelperSummary::CapturedProduction Pr;
  Pr.Buffer = Buf;
  Pr.Stream = P.Stream;
  if (P.Stream.K == StreamRef::Named) {
    Pr.StreamVar = P.Stream.Path.steps().empty()
                       ? capturedVariable(Def, P.Stream.Path.rootDecl())
                       : nullptr;
    if (!Pr.StreamVar || P.Stream.Path.rootKind() != AccessPath::RootKind::Decl)
      return std::nullopt;
  } else if (P.Stream.K != StreamRef::Legacy &&
             P.Stream.K != StreamRef::PerThread) {
    return std::nullopt;
  }
  return Pr;
}

} // namespace

/// A member of `this` (through any chain of members), a global, or, in a
/// lambda, a captured variable: what the caller can name too.
/// Also a member of an object parameter (`p.s_` of `P &p`), which the
/// caller names through its argument.
bool outlivesCall(const Expr *E) {
  E = strip(E);
  // A local reference stands for what it is bound to (`auto &s = s_;`).
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      if (const Expr *Object = referentOf(V))
        return outlivesCall(Object);
  // A trivial accessor names a member of its object (`stream()`).
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
      MC && trivialAccessorResult(MC))
    return outlivesCall(MC->getImplicitObjectArgument());
  // An accessor of a static variable, called alike by the caller.
  if (const auto *C = dyn_cast_or_null<CallExpr>(E);
      C && C->getNumArgs() == 0 && staticReturned(C))
    return true;
  bool Member = false;
  while (const auto *M = dyn_cast_or_null<MemberExpr>(E)) {
    E = strip(M->getBase());
    // `ctx->stream` of a std::shared_ptr / std::unique_ptr: a member of the
    // object it holds, which the caller reaches through its own pointer.
    if (const Expr *Held = smartPointerHeld(E))
      E = strip(Held);
    Member = true;
  }
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E); D && Member)
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      if (const Expr *Object = referentOf(V)) // `d.s_`, `D &d = *this`
        return outlivesCall(Object);
  if (isThis(E))
    return true;
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return V && ((V->hasGlobalStorage() && !V->isStaticLocal()) ||
               D->refersToEnclosingVariableOrCapture() ||
               (Member && isa<ParmVarDecl>(V)));
}

/// The index of the parameter of F's callable (not an enclosing
/// function's, which a lambda may name) that E names, where the callable
/// never changes it; else -1.
int unchangedParam(const Expr *E, const FunctionFacts &F) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? strip(E) : nullptr);
  const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  return P && P->getDeclContext() == F.FD && !F.MutatedVars.count(P)
             ? static_cast<int>(P->getFunctionScopeIndex())
             : -1;
}

/// Also an element of an array or sequence of handles the caller names
/// (`ev_[i]`, `evs_[2]`, `evs[k]` of a pointer parameter) by an index the
/// caller names at the call: a constant, or a parameter the helper never
/// changes. nameAtCall (HelperSummaryCalls.cpp) rebases the parameters to
/// the call's arguments: `markDone(0)` records `ev_[0]`.
bool handleOutlivesCall(const Expr *E, const FunctionFacts &F) {
  if (outlivesCall(E))
    return true;
  E = strip(E);
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E)) {
    Base = A->getBase();
    Index = A->getIdx();
  } else if (const CXXOperatorCallExpr *Op = sequenceElement(E)) {
    Base = Op->getArg(0);
    Index = Op->getArg(1);
  }
  if (!Base)
    return false;
  // Any function's parameter: in a lambda, the enclosing function's, which
  // its caller names alike.
  auto UnchangedParam = [&](const Expr *X) {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(X));
    const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    return P && !F.MutatedVars.count(P);
  };
  if (!integerConstant(strip(Index)) && !UnchangedParam(Index))
    return false;
  return outlivesCall(Base) || UnchangedParam(Base);
}

bool namedByCaller(const AccessPath &P, const FunctionFacts &F) {
  // A member of a parameter: the caller's argument's, for a lambda's call
  // operator too (`[](const Stream &x) { sync(x.s); }` at `wait_on(io)`).
  if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(P.rootDecl()))
    return PD->getDeclContext() == F.FD && P.isMemberOf(PD) &&
           !F.MutatedVars.count(PD);
  if (lambdaOperator(F.FD))
    return false; // a lambda's captures: CapturedProduces
  if (P.isThisMember())
    return true;
  const auto *V = dyn_cast_or_null<VarDecl>(P.rootDecl());
  return V && V->hasGlobalStorage() && !V->isStaticLocal();
}

/// HelperSummary::SetsHandleStreams of F's callable.
static std::vector<HelperSummary::HandleStream>
handleStreamsSet(FunctionFacts &F) {
  std::vector<HelperSummary::HandleStream> Out;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F.Body);
  if (!Body || lambdaOperator(F.FD))
    return Out;
  llvm::SmallPtrSet<const Stmt *, 8> TopLevel;
  for (const Stmt *St : Body->body())
    if (const auto *E = dyn_cast<Expr>(St))
      TopLevel.insert(strip(E));
  // A return before a setter: a path that skips it.
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Body, Returns);
  const SourceManager &SM = F.Ctx.getSourceManager();
  auto ReturnBefore = [&](const CallExpr *K) {
    return llvm::any_of(Returns, [&](const ReturnStmt *R) {
      return SM.isBeforeInTranslationUnit(R->getBeginLoc(), K->getBeginLoc());
    });
  };
  for (const CallExpr *K : F.Calls) {
    if (!isHandleStreamSetter(K->getDirectCallee()) || K->getNumArgs() != 2)
      continue;
    AccessPath Handle = AccessPath::of(K->getArg(0));
    // Any setter of it under a branch or loop: which stream it ends with
    // is not followed.
    auto Same = [&](const HelperSummary::HandleStream &H) {
      return H.Handle.Path == Handle;
    };
    if (!TopLevel.count(K) || ReturnBefore(K)) {
      llvm::erase_if(Out, Same);
      continue;
    }
    HelperSummary::HandleStream H;
    H.HandleParam = unchangedParam(K->getArg(0), F);
    H.Handle = {Handle, spelling(K->getArg(0), F.Ctx)};
    H.StreamParam = unchangedParam(K->getArg(1), F);
    H.Stream = F.streamOf(K->getArg(1));
    bool Named =
        (H.HandleParam >= 0 || namedByCaller(Handle, F)) &&
        (H.StreamParam >= 0 || H.Stream.K == StreamRef::Legacy ||
         H.Stream.K == StreamRef::PerThread ||
         (H.Stream.K == StreamRef::Named &&
          namedByCaller(H.Stream.Path, F)));
    llvm::erase_if(Out, Same); // the last setter of the handle
    if (Named)
      Out.push_back(std::move(H));
  }
  return Out;
}

const FunctionDecl *summarizable(const FunctionDecl *FD,
                                 const SourceManager &SM) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isTemplated() ||
      Def->isInvalidDecl() || isToolchainCode(Def, SM))
    return nullptr;
  // A destructor is summarized for local objects (Effects), whose dynamic
  // type is their declared type: a virtual one is the one that runs.
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def);
      M && M->isVirtual() && !isa<CXXDestructorDecl>(M))
    return nullptr;
  return Def;
}

std::vector<unsigned> testedParams(
    const FunctionDecl *Def,
    llvm::function_ref<bool(const FunctionDecl *Callee, unsigned I)>
        Forwarded) {
  auto ParamOf = [](const Expr *E) -> const ParmVarDecl * {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts()
                                                    : nullptr);
    const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    return P && P->getType()->isIntegralOrEnumerationType() ? P : nullptr;
  };
  struct Walk : RecursiveASTVisitor<Walk> {
    decltype(ParamOf) &Param;
    llvm::function_ref<bool(const FunctionDecl *, unsigned)> Forwarded;
    std::set<unsigned> Found;
    Walk(decltype(ParamOf) &Param,
         llvm::function_ref<bool(const FunctionDecl *, unsigned)> Forwarded)
        : Param(Param), Forwarded(Forwarded) {}
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *Callee = C->getDirectCallee();
      for (unsigned I = 0; Callee && I < Callee->getNumParams(); ++I)
        if (const ParmVarDecl *P = Param(paramArg(C, I)))
          if (Forwarded(Callee, I))
            Found.insert(P->getFunctionScopeIndex());
      return true;
    }
    void names(const Expr *Cond) {
      struct Refs : RecursiveASTVisitor<Refs> {
        Walk &W;
        explicit Refs(Walk &W) : W(W) {}
        bool VisitDeclRefExpr(DeclRefExpr *D) {
          if (const ParmVarDecl *P = W.Param(D))
            W.Found.insert(P->getFunctionScopeIndex());
          return true;
        }
      } R(*this);
      R.TraverseStmt(const_cast<Expr *>(Cond));
    }
    bool VisitIfStmt(IfStmt *S) {
      names(S->getCond());
      return true;
    }
    bool VisitConditionalOperator(ConditionalOperator *C) {
      names(C->getCond());
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } W(ParamOf, Forwarded);
  if (Def && Def->getBody())
    W.TraverseStmt(Def->getBody());
  return std::vector<unsigned>(W.Found.begin(), W.Found.end());
}

//===----------------------------------------------------------------------===//
// Extraction
//===----------------------------------------------------------------------===//

std::unique_ptr<HelperSummary>
SummarySeeds::extract(const CallableRun &R, FunctionFacts &F,
                      const CallableEffects &E, const PendingState &Exit,
                      const std::vector<Finding> &Findings,
                      const std::vector<HelperSummary::Consumption> &Consumed) const {
  const FunctionDecl *Def = F.FD;
  auto S = std::make_unique<HelperSummary>();
  unsigned NP = Def->getNumParams();
  S->sizeForParams(NP);
  // A seed that is not pending at the exit was synchronized on every path.
  // (An exit that is never reached leaves nothing pending: noreturn helpers
  // count as synchronizing, which is harmless since the caller stops.)
  for (unsigned Id = 0; Id < E.Copies.size(); ++Id) {
    const CopySite &C = *E.Copies[Id];
    const SummarySeed *Sd = C.Seed;
    if (!Sd || Sd->Param >= 0 || Sd->Named >= 0)
      continue;
    bool Cleared = !Exit.Pending.count(Id);
    if (!Sd->Event.empty()) {
      if (Cleared && Sd->EventParam >= 0)
        S->SyncsEventParam[Sd->EventParam] = true;
      else if (Cleared)
        S->SyncsEvents.push_back({Sd->Event, Sd->EventName});
      continue;
    }
    if (Sd->StreamParam == SummarySeed::MemberOrGlobalStream) {
      S->CaptureStreams.push_back(C.Stream);
      if (Cleared)
        S->SyncsStreams.push_back(C.Stream);
      continue;
    }
    if (Sd->StreamParam < 0) {
      S->SyncsDevice = Cleared;
    } else {
      S->SyncsStreamParam[Sd->StreamParam] = Cleared;
      S->SyncsStreamParamIfBlocking[Sd->StreamParam] =
          !Cleared && Exit.Pending.at(Id).LegacyCovered;
    }
  }
  for (const auto &[Key, P] : Exit.Producers) {
    // Work the helper itself made something wait for, or recorded an event
    // after: the caller may rely on that record or wait (not followed).
    // (C++17 lambdas cannot capture structured bindings.)
    const ProducerKey &Work = Key;
    if (!P.WaitedBy.empty() || P.LegacyJoined ||
        llvm::any_of(Exit.EventProducers,
                     [&](const auto &E) { return E.second.count(Work); }))
      continue;
    const auto *Buf = dyn_cast_or_null<ParmVarDecl>(P.Var);
    if (Buf && Buf->getDeclContext() != Def)
      Buf = nullptr; // an enclosing function's parameter a lambda captures
    if (lambdaOperator(Def) && !Buf && !P.OnCurrent)
      if (std::optional<HelperSummary::CapturedProduction> Pr =
              capturedProduction(Def, Key.first, P))
        S->CapturedProduces.push_back(*Pr);
    HelperSummary::Production Pr;
    if (Buf) {
      Pr.BufferParam = Buf->getFunctionScopeIndex();
    } else {
      // A member or global the caller names too, written whole.
      std::optional<AccessPath> Path =
          P.Root ? std::optional(AccessPath::of(P.Root)) : std::nullopt;
      std::string Name = P.Root ? spelling(P.Root, F.Ctx) : "";
      if (!Path || !namedByCaller(*Path, F) ||
          Key.first != wholeRegionKey(F.Aliases, *Path, Name))
        continue;
      Pr.NamedBuffer = std::move(Path);
      Pr.NamedBufferName = std::move(Name);
    }
    Pr.Torch = P.OnCurrent;
    Pr.IfDevice = P.IfDevice;
    const ValueDecl *StreamRoot = P.Stream.K == StreamRef::Named &&
                                          P.Stream.Path.steps().empty()
                                      ? P.Stream.Path.rootDecl()
                                      : nullptr;
    if (const auto *SP = dyn_cast_or_null<ParmVarDecl>(StreamRoot);
        SP && SP->getDeclContext() == Def) {
      Pr.On = HelperSummary::Production::OnStreamParam;
      Pr.StreamParam = SP->getFunctionScopeIndex();
    } else if (P.OnCurrent && P.Stream.K == StreamRef::Legacy) {
      Pr.On = HelperSummary::Production::CurrentStream;
    } else if (P.Stream.K == StreamRef::Legacy) {
      Pr.On = HelperSummary::Production::LegacyStream;
    } else if (P.Stream.K == StreamRef::Named &&
               namedByCaller(P.Stream.Path, F)) {
      Pr.On = HelperSummary::Production::OnNamedStream;
      Pr.Stream = P.Stream;
    } else if (auto Held = F.handleParamStream(P.Stream);
               Held && Held->first->getDeclContext() == Def) {
      Pr.On = HelperSummary::Production::OnHandleStream;
      Pr.StreamParam = Held->first->getFunctionScopeIndex();
      Pr.Getter = Held->second;
    } else {
      continue; // a stream the caller cannot name
    }
    S->Produces.push_back(Pr);
  }
  S->SetsHandleStreams = handleStreamsSet(F);
  S->Consumes = Consumed;
  S->Named = Named;
  S->NamedBufferStreams =
      std::min<size_t>(S->CaptureStreams.size(), MaxNamedStreams);
  // The note's access: the first in the source (findings come in the
  // order the analysis met them, which need not be).
  const SourceManager &SM = F.Ctx.getSourceManager();
  auto Earlier = [&](const Stmt *A, const Stmt *Than) {
    return A && (!Than || SM.isBeforeInTranslationUnit(A->getBeginLoc(),
                                                       Than->getBeginLoc()));
  };
  for (const Finding &Fd : Findings) {
    const SummarySeed *Sd = Fd.Copy->Seed;
    if (Sd && Sd->Named >= 0) {
      int Seed = Sd->StreamParam == SummarySeed::AnyBlockingStream ||
                         Sd->StreamParam == SummarySeed::PerThreadStream
                     ? Sd->StreamParam
                     : -1;
      for (unsigned K = 0; K < S->CaptureStreams.size(); ++K)
        if (Sd->StreamParam == SummarySeed::MemberOrGlobalStream &&
            S->CaptureStreams[K].sameStream(Fd.Copy->Stream))
          Seed = K;
      HelperSummary::NamedBuffer &B = S->Named[Sd->Named];
      if (!llvm::is_contained(B.Unsynced, Seed))
        B.Unsynced.push_back(Seed);
      if (Earlier(Fd.Access, B.Site))
        B.Site = Fd.Access;
      continue;
    }
    if (!Sd || Sd->Param < 0)
      continue;
    auto &Seeds = S->AccessedUnlessSynced[Sd->Param];
    if (!llvm::is_contained(Seeds, Sd->StreamParam))
      Seeds.push_back(Sd->StreamParam);
    if (Earlier(Fd.Access, S->AccessSite[Sd->Param]))
      S->AccessSite[Sd->Param] = Fd.Access;
  }
  // Guards: events whose seeds no unsynced access of a buffer finds still
  // pending, i.e. synchronized on every path before each of its accesses.
  std::vector<unsigned> EventSeeds;
  for (unsigned Id = 0; Id < E.Copies.size(); ++Id)
    if (E.Copies[Id]->Seed && E.Copies[Id]->Seed->isEventSeed())
      EventSeeds.push_back(Id);
  auto GuardsOf = [&](llvm::function_ref<bool(const SummarySeed &)> Of) {
    std::vector<HelperSummary::EventGuard> Guards;
    for (unsigned Id : EventSeeds) {
      bool Any = false, Before = true;
      for (const Finding &Fd : Findings)
        if (Fd.Copy->Seed && Of(*Fd.Copy->Seed)) {
          Any = true;
          Before = Before && !llvm::is_contained(Fd.PendingEventSeeds, Id);
        }
      const SummarySeed &Ev = *E.Copies[Id]->Seed;
      if (Any && Before)
        Guards.push_back({Ev.EventParam, {Ev.Event, Ev.EventName}});
    }
    return Guards;
  };
  if (!EventSeeds.empty()) {
    for (unsigned N = 0; N < S->Named.size(); ++N)
      S->Named[N].Guards =
          GuardsOf([&](const SummarySeed &Sd) { return Sd.Named == int(N); });
    for (unsigned P = 0; P < NP; ++P)
      S->AccessGuards[P] =
          GuardsOf([&](const SummarySeed &Sd) { return Sd.Param == int(P); });
  }
  // Events recorded on a stream the caller can name: on every path, or on
  // some (EventInfo::SomePaths).
  std::vector<AccessPath> ParamKeys;
  for (unsigned P = 0; P < NP; ++P)
    ParamKeys.push_back(AccessPath::ofDecl(Def->getParamDecl(P)));
  auto ParamOf = [&](const AccessPath &Key) {
    auto It = llvm::find(ParamKeys, Key);
    return It == ParamKeys.end() ? -1
                                 : static_cast<int>(It - ParamKeys.begin());
  };
  std::vector<const std::set<unsigned> *> RecordCovers; // per RecordsEvents
  for (const auto &[Key, Info] : Exit.Events) {
    const auto *Rec = dyn_cast_or_null<CallExpr>(Info.Record);
    if (!Rec)
      continue; // a seed's entry
    const ApiEntry *A = F.lookup(Rec);
    // Recorded here, or by a member function called on `this` whose own
    // summary records a member of `this` (`run() { issue(); finish(); }`,
    // `finish() { cudaEventRecord(done_, s_); }`), keyed as rebased.
    bool Nested = !A;
    if (A && A->Role != ApiRole::EventRecord)
      continue;
    const Expr *Ev = Nested ? nullptr : arg(Rec, A->EventArg);
    const Expr *St = Nested ? nullptr : arg(Rec, A->StreamArg);
    HelperSummary::EventRecord ER;
    ER.EventParam = ParamOf(Key);
    // On some paths only, unless on the others the caller's work on that
    // stream at the call was complete too (its stream seed is covered on
    // every path: `else cudaStreamSynchronize(s);`): then the event covers
    // that work as a record on every path would.
    // (C++17 lambdas cannot capture structured bindings.)
    const StreamRef &RecordedOn = Info.Stream;
    ER.SomePaths =
        Info.SomePaths &&
        llvm::none_of(Info.Covered, [&](unsigned Id) {
          const SummarySeed *Sd = E.Copies[Id]->Seed;
          return Sd && Sd->isStreamSeed() &&
                 E.Copies[Id]->Stream.sameStream(RecordedOn);
        });
    ER.Site = Nested ? nullptr : Rec;
    std::string Name;
    if (!Nested)
      Name = spelling(Ev, F.Ctx);
    else if (!Key.steps().empty() && Key.steps().back().Member)
      Name = Key.steps().back().Member->getNameAsString(); // `done_`
    ER.Event = {Key, Name};
    if (ER.EventParam < 0 &&
        !(Nested ? Key.isThisMember() : handleOutlivesCall(Ev, F)))
      continue;
    ER.Stream = Info.Stream;
    if (Info.Stream.K == StreamRef::Named) {
      ER.StreamParam = ParamOf(Info.Stream.Path);
      if (ER.StreamParam < 0 &&
          !(Nested ? Info.Stream.Path.isThisMember()
                   : St && outlivesCall(St)))
        continue;
    } else if (Info.Stream.K == StreamRef::Unknown) {
      continue;
    }
    S->RecordsEvents.push_back(ER);
    RecordCovers.push_back(&Info.Covered);
  }
  // A stream the caller names too: a default stream, a parameter (*Param
  // set to its index), a member of the object called on.
  auto CallerNames = [&](const StreamRef &St, int &Param) {
    Param = St.K == StreamRef::Named ? ParamOf(St.Path) : -1;
    return St.K == StreamRef::Legacy || St.K == StreamRef::PerThread ||
           (St.K == StreamRef::Named &&
            (Param >= 0 || St.Path.isThisMember()));
  };
  // What every return statement returns (HelperReturns.cpp).
  const std::string Returned =
      extractReturnedValues(F, E, Exit, *S, CallerNames);
  // Streams made to wait, on every path, for what a stream the caller names
  // had in flight at the call (its stream seed, covered by the wait).
  for (const auto &[Key, Wait] : Exit.Waits) {
    HelperSummary::StreamJoin J;
    J.Waiter = Wait.Stream;
    if (!CallerNames(J.Waiter, J.WaiterParam))
      continue;
    for (unsigned Id : Wait.Covered) {
      const CopySite &C = *E.Copies[Id];
      const SummarySeed *Sd = C.Seed;
      if (!Sd || !Sd->isStreamSeed() ||
          (Sd->StreamParam < 0 &&
           Sd->StreamParam != SummarySeed::MemberOrGlobalStream))
        continue;
      J.Signaler = C.Stream;
      if (CallerNames(J.Signaler, J.SignalerParam) &&
          !J.Signaler.sameStream(J.Waiter))
        S->JoinsStreams.push_back(J);
    }
    // An event seed: the event as the caller recorded it.
    for (unsigned Id : Wait.Covered)
      if (const SummarySeed *Sd = E.Copies[Id]->Seed; Sd && Sd->isEventSeed())
        S->WaitsEvents.push_back({J.WaiterParam,
                                  J.Waiter,
                                  Sd->EventParam,
                                  {Sd->Event, Sd->EventName},
                                  Wait.Record});
  }
  // Copies into parameters still in flight when the helper returns.
  for (const auto &[Id, Pend] : Exit.Pending) {
    const CopySite &C = *E.Copies[Pend.Site];
    if (C.Seed)
      continue;
    HelperSummary::PendingCopy PC{
        0, -1, C.Stream, C.InnerCopy ? C.InnerCopy : C.Call, -1, {}, {}};
    PC.CopyAt = C.InnerCopyAt;
    PC.NeedsHostDestination = C.NeedsHostDestination;
    PC.UnlessBlocking = Pend.LegacyCovered;
    for (unsigned N = 0; N < RecordCovers.size(); ++N)
      if (RecordCovers[N]->count(Id))
        PC.CoveredBy.push_back(N);
    for (const auto &Entry : Exit.Waits) {
      const StreamRef &Waiting = Entry.second.Stream;
      if (!Entry.second.Covered.count(Id) || Waiting.K != StreamRef::Named)
        continue;
      if (int P = ParamOf(Waiting.Path); P >= 0)
        PC.JoinedInto.push_back({P, Waiting});
      else if (llvm::any_of(S->CaptureStreams, [&](const StreamRef &St) {
                 return St.sameStream(Waiting);
               }))
        PC.JoinedInto.push_back({-1, Waiting});
    }
    if (C.Stream.K == StreamRef::Named)
      PC.StreamParam = ParamOf(C.Stream.Path);
    // Into a buffer the caller names too (a capture, a member of `this`).
    size_t Before = S->CopiesLeftPending.size();
    for (unsigned N = 0; N < S->Named.size(); ++N)
      if (F.Aliases.classKey(S->Named[N].Path) == C.Buffer) {
        PC.DstNamed = N;
        S->CopiesLeftPending.push_back(PC);
      }
    PC.DstNamed = -1;
    bool Named = S->CopiesLeftPending.size() != Before;
    for (unsigned P = 0; P < NP; ++P) {
      if (F.Aliases.classKey(ParamKeys[P]) != C.Buffer)
        continue;
      PC.DstParam = P;
      S->CopiesLeftPending.push_back(PC);
      Named = true;
    }
    // Into what it returns, which the caller names only by the call.
    if (!Named && !Returned.empty() && Returned == C.Buffer) {
      PC.DstParam = 0;
      PC.Returned = true;
      PC.Pageable = C.Pageable;
      S->CopiesLeftPending.push_back(PC);
    }
  }
  return S;
}

} // namespace clang::tidy::cuda
