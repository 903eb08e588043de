//===--- HelperSummaries.cpp - What calling a helper does ---------------===//
//
// Eligibility, seeds and extraction of a helper's summary (HelperSummaries.h).
// Application at a call: HelperSummaryCalls.cpp.
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

/// A call of a free function whose arguments are the helper's parameters,
/// constants, or what outlives the call (`resource::get_cuda_stream(res)`):
/// a stream the caller can name by the same call of its arguments.
bool callOfParameters(const Expr *E) {
  const auto *C = dyn_cast_or_null<CallExpr>(strip(E));
  if (!C || isa<CXXMemberCallExpr>(C) || isa<CXXOperatorCallExpr>(C) ||
      !C->getDirectCallee())
    return false;
  for (const Expr *A : C->arguments()) {
    const Expr *S = strip(A);
    const auto *D = dyn_cast_or_null<DeclRefExpr>(S);
    if ((D && isa<ParmVarDecl>(D->getDecl())) || outlivesCall(S) ||
        isa_and_nonnull<IntegerLiteral, CXXBoolLiteralExpr>(S))
      continue;
    return false;
  }
  return true;
}

/// Buffers a lambda can capture: what a helper's parameter is seeded on.
bool isBufferType(QualType T) {
  return T->isPointerType() || T->isReferenceType() || T->isArrayType() ||
         isStdContainer(T) || isTensorType(T);
}

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
  if (lambdaOperator(F.FD))
    return false; // a lambda's captures: CapturedProduces
  if (P.isThisMember())
    return true;
  if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(P.rootDecl()))
    return PD->getDeclContext() == F.FD && P.isMemberOf(PD) &&
           !F.MutatedVars.count(PD);
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
// Seeds
//===----------------------------------------------------------------------===//

CopySite *SummarySeeds::newSeed(CallableEffects &Out, SummarySeed S) {
  Seeds.push_back(std::make_unique<SummarySeed>(std::move(S)));
  Sites.push_back(std::make_unique<CopySite>());
  Sites.back()->Seed = Seeds.back().get();
  Out.Copies.push_back(Sites.back().get());
  return Sites.back().get();
}

void SummarySeeds::seed(CallableRun &R, FunctionFacts &F,
                        CallableEffects &Out) {
  const FunctionDecl *FD = F.FD;
  const ApiModel &Model = R.model();
  ASTContext &Ctx = F.Ctx;
  // Synthetic copies: on each stream parameter (buffer: none), on no
  // particular stream (cleared only by a device-wide sync), and into each
  // pointer parameter on each of those.
  std::vector<int> StreamParams{-1};
  for (unsigned P = 0; P < FD->getNumParams(); ++P)
    if (isStreamOrWrapper(FD->getParamDecl(P)->getType()))
      StreamParams.push_back(P);
  for (unsigned P = 0; P < FD->getNumParams(); ++P)
    if (const ParmVarDecl *PD = FD->getParamDecl(P);
        PD->getType()->isPointerType() && Out.ProducerSeeds.size() < 8)
      Out.ProducerSeeds.push_back(
          {regionKeyOf(F.Aliases, AccessPath::ofDecl(PD), PD->getName()), PD,
           std::nullopt, ""});
  // A lambda's pointer captures: the caller's own variables.
  if (const CXXMethodDecl *Op = lambdaOperator(FD))
    for (const LambdaCapture &Cap : Op->getParent()->captures())
      if (const auto *V = Cap.capturesVariable()
                              ? dyn_cast<VarDecl>(Cap.getCapturedVar())
                              : nullptr;
          V && V->getType()->isPointerType() && Out.ProducerSeeds.size() < 8)
        Out.ProducerSeeds.push_back(
            {regionKeyOf(F.Aliases, AccessPath::ofDecl(V), V->getName()), V,
             std::nullopt, ""});
  Out.ProducerSeedSite = F.Body;
  // The stream of a seed on a default or unnamed blocking stream.
  auto SeedStreamOf = [&](CopySite &S, int Stream) {
    if (Stream == SummarySeed::AnyBlockingStream) {
      // A stream no expression of the helper names (the path of the
      // helper itself), blocking: covered by the legacy stream's syncs.
      S.Stream.K = StreamRef::Named;
      S.Stream.Path = AccessPath::ofDecl(FD);
      S.Stream.Spelling = "a blocking stream of the caller";
    } else if (Stream == SummarySeed::PerThreadStream) {
      S.Stream.K = StreamRef::PerThread;
    }
  };
  auto Seed = [&](int Buf, int Stream) {
    SummarySeed Sd;
    Sd.Param = Buf;
    Sd.StreamParam = Stream;
    CopySite *S = newSeed(Out, std::move(Sd));
    if (Buf >= 0)
      S->Buffer = F.Aliases.classKey(AccessPath::ofDecl(FD->getParamDecl(Buf)));
    if (Stream >= 0) {
      S->Stream.K = StreamRef::Named;
      S->Stream.Path = AccessPath::ofDecl(FD->getParamDecl(Stream));
    } else {
      SeedStreamOf(*S, Stream);
    }
  };
  for (int S : StreamParams)
    Seed(-1, S);
  // Streams the helper uses that the caller names too: members of `this`
  // (`void wait() { cudaStreamSynchronize(s_); }`), globals, a lambda's
  // captures. A sync of one on every path is a sync at the call; a use on
  // one is ordered after the caller's copies on it.
  std::set<AccessPath> Seen;
  std::vector<StreamRef> Streams;
  // The default streams too: every caller names them alike (`helper() {
  // cudaStreamSynchronize(0); }`, a blocking cudaMemcpy in the helper).
  bool SeenLegacy = false, SeenPerThread = false;
  auto SeedStream = [&](const StreamRef &St) {
    bool Default = St.K == StreamRef::Legacy || St.K == StreamRef::PerThread;
    if ((St.K != StreamRef::Named && !Default) ||
        Streams.size() >= MaxSeedStreams)
      return;
    if (Default) {
      bool &Seen = St.K == StreamRef::Legacy ? SeenLegacy : SeenPerThread;
      if (Seen)
        return;
      Seen = true;
    } else if (!Seen.insert(St.Path).second) {
      return;
    }
    SummarySeed Sd;
    Sd.StreamParam = SummarySeed::MemberOrGlobalStream;
    newSeed(Out, std::move(Sd))->Stream = St;
    Streams.push_back(St);
  };
  // Synchronized streams first: past the cap, a stream only used is the
  // one to lose.
  for (bool Syncs : {true, false})
    for (const CallExpr *C : F.Calls) {
      const Expr *StreamE = nullptr;
      const ApiEntry *E = F.lookup(C);
      bool IsSync = E && synchronizesStreamArg(E->Role);
      if (IsSync != Syncs)
        continue;
      if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C))
        StreamE = K->getConfig() ? arg(K->getConfig(), 3) : nullptr;
      else if (E)
        StreamE = arg(C, E->StreamArg);
      if (StreamE &&
          (handleOutlivesCall(StreamE, F) || callOfParameters(StreamE)))
        SeedStream(F.streamOf(StreamE));
      else if (E && (E->StreamArg != NoArg ||
                      E->Role == ApiRole::BlockingTransfer ||
                      E->Role == ApiRole::BlockingMemset)) {
        StreamRef St = F.streamOf(StreamE); // null: the legacy stream
        if (St.K == StreamRef::Legacy || St.K == StreamRef::PerThread)
          SeedStream(St);
      }
      // Handed to a helper that may sync it (`syncS(s_)`).
      if (!E && !isa<CUDAKernelCallExpr>(C))
        for (const Expr *A : C->arguments())
          if (isStreamOrWrapper(A->getType()) &&
              (handleOutlivesCall(A, F) || callOfParameters(A)))
            SeedStream(F.streamOf(A));
    }
  // Member functions (and lambdas) called on `this`, whose summaries name
  // its members as this helper does.
  for (const CallExpr *C : F.Calls) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
    const FunctionDecl *Callee = C->getDirectCallee();
    bool OnThis = (MC && isThis(MC->getImplicitObjectArgument())) ||
                  lambdaOperator(Callee);
    if (!OnThis || Model.lookup(Callee) ||
        !summarizable(Callee, Ctx.getSourceManager()))
      continue;
    if (const HelperSummary *CS = R.summaryOf(Callee))
      ThisCalleeSummaries.push_back(CS);
  }
  for (const HelperSummary *CS : ThisCalleeSummaries)
    for (const StreamRef &St : CS->CaptureStreams)
      if (St.Path.isThisMember())
        SeedStream(St);
  // Each element of a container of streams the caller names too (a
  // parameter, a member of one or of `this`, a global), which a range-for
  // over it may synchronize in turn (`for (cudaStream_t s : streams)
  // cudaStreamSynchronize(s);`, s not told apart from any; a destructor's
  // `for (auto s : streams_)`).
  for (const CXXForRangeStmt *L : F.RangeLoops) {
    std::optional<AccessPath> Range = F.loopContainer(L);
    const auto *P = Range ? dyn_cast_or_null<ParmVarDecl>(Range->rootDecl())
                          : nullptr;
    const VarDecl *V = L->getLoopVariable();
    if (!Range || !V ||
        !isStreamOrWrapper(V->getType().getNonReferenceType()) ||
        !(namedByCaller(*Range, F) ||
          (P && P->getDeclContext() == FD && !F.MutatedVars.count(P) &&
           Range->steps().empty())))
      continue;
    StreamRef Every;
    Every.K = StreamRef::Named;
    Every.Path = Range->withAnyIndex();
    Every.Spelling = spelling(L->getRangeInit(), Ctx) + "[...]";
    ElementRange All;
    All.Array = *Range;
    All.Every = true;
    Every.Elements = All;
    SeedStream(Every);
  }
  // Member functions called on an object the caller names too (`void
  // waitOn(const Stream &x) { x.synchronize(); }`): their members' streams
  // as this helper names them (`x.s`).
  for (const CallExpr *C : F.Calls) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!MC || isThis(MC->getImplicitObjectArgument()) ||
        Model.lookup(Callee) || !summarizable(Callee, Ctx.getSourceManager()))
      continue;
    const HelperSummary *CS = R.summaryOf(Callee);
    for (StreamRef St : CS ? CS->CaptureStreams : std::vector<StreamRef>{})
      if (St.K == StreamRef::Named && St.Path.isThisMember() &&
          namedAtCall(F, St.Path, St.Spelling, C) &&
          namedByCaller(St.Path, F)) {
        St.Fresh = St.OwnObject = false;
        St.Elements = F.elementsOfPath(St.Path);
        SeedStream(St);
      }
  }
  const CXXMethodDecl *Op = lambdaOperator(FD);
  if (Op)
    for (const VarDecl *V : capturedVars(Op))
      if (isStreamOrWrapper(V->getType())) {
        StreamRef St;
        St.K = StreamRef::Named;
        St.Path = AccessPath::ofVar(V);
        St.Spelling = V->getName().str();
        SeedStream(St);
      }
  for (unsigned P = 0; P < FD->getNumParams(); ++P) {
    QualType T = FD->getParamDecl(P)->getType();
    if (T->isPointerType() || T->isReferenceType() || isStdContainer(T)) {
      for (int S : StreamParams)
        Seed(P, S);
      Seed(P, SummarySeed::AnyBlockingStream);
      Seed(P, SummarySeed::PerThreadStream);
    }
  }
  // Events the helper synchronizes that the caller names too: an event
  // seed is covered by its event at entry (see seedEntry()).
  std::set<AccessPath> SeenEvents;
  auto SeedEvent = [&](const AccessPath &Key, const std::string &Name,
                       int Param) {
    if (!SeenEvents.insert(Key).second)
      return;
    SummarySeed Sd;
    Sd.Event = Key;
    Sd.EventName = Name;
    Sd.EventParam = Param;
    newSeed(Out, std::move(Sd));
  };
  // (And events it makes a stream wait for: WaitsEvents.)
  for (const CallExpr *C : F.Calls) {
    const ApiEntry *E = F.lookup(C);
    const Expr *Ev = E && (synchronizesEventArg(E->Role) ||
                           (E->Role == ApiRole::NotASync &&
                            E->EventArg != NoArg))
                         ? arg(C, E->EventArg)
                         : nullptr;
    if (!Ev)
      continue;
    int Param = -1;
    if (const auto *D = dyn_cast<DeclRefExpr>(strip(Ev)))
      for (unsigned P = 0; P < FD->getNumParams(); ++P)
        if (D->getDecl() == FD->getParamDecl(P))
          Param = P;
    if (Param < 0 && !handleOutlivesCall(Ev, F))
      continue;
    SeedEvent(AccessPath::of(Ev), spelling(Ev, Ctx), Param);
  }
  // Event parameters, which the helper may synchronize through another
  // helper (`synchronize(e) { impl(cudaEventQuery, e); }`).
  for (unsigned P = 0; P < FD->getNumParams(); ++P)
    if (isEventType(FD->getParamDecl(P)->getType()))
      SeedEvent(AccessPath::ofDecl(FD->getParamDecl(P)),
                FD->getParamDecl(P)->getNameAsString(), P);
  // What member functions called on `this` do to its members (`void
  // wait() { doWait(); }`): the same seeds, so that their effects pass
  // through this helper to its caller.
  for (const HelperSummary *CS : ThisCalleeSummaries)
    for (const HelperSummary::EventRef &E : CS->SyncsEvents)
      if (E.Path.isThisMember())
        SeedEvent(E.Path, E.Spelling, -1);
  // Buffers the caller names too: a lambda's captures, and members of
  // `this` and globals the body names. Each on no particular stream, and
  // on each stream seeded above.
  auto SeedNamed = [&](AccessPath Key, std::string Name, const VarDecl *V) {
    if (Named.size() >= MaxNamedBuffers ||
        llvm::any_of(Named, [&](const auto &B) { return B.Path == Key; }))
      return;
    for (int K = -1;
         K < static_cast<int>(std::min(Streams.size(), MaxNamedStreams));
         ++K) {
      SummarySeed Sd;
      Sd.Named = Named.size();
      if (K >= 0)
        Sd.StreamParam = SummarySeed::MemberOrGlobalStream;
      CopySite *S = newSeed(Out, std::move(Sd));
      S->Buffer = F.Aliases.classKey(Key);
      if (K >= 0)
        S->Stream = Streams[K];
    }
    // And on a blocking stream, or the per-thread default stream, that the
    // helper does not name (as for buffer parameters).
    for (int Default :
         {SummarySeed::AnyBlockingStream, SummarySeed::PerThreadStream}) {
      SummarySeed Sd;
      Sd.Named = Named.size();
      Sd.StreamParam = Default;
      CopySite *S = newSeed(Out, std::move(Sd));
      S->Buffer = F.Aliases.classKey(Key);
      SeedStreamOf(*S, Default);
    }
    // The caller's device work writing it (a member or global; a
    // captured pointer has its seed above).
    if (!V && !Op && Out.ProducerSeeds.size() < 8)
      Out.ProducerSeeds.push_back(
          {wholeRegionKey(F.Aliases, Key, Name), nullptr, Key, Name});
    HelperSummary::NamedBuffer B;
    B.Path = std::move(Key);
    B.Name = std::move(Name);
    B.Var = V;
    Named.push_back(std::move(B));
  };
  if (Op)
    for (const VarDecl *V : capturedVars(Op))
      if (isBufferType(V->getType()))
        SeedNamed(AccessPath::ofVar(V), V->getName().str(), V);
  for (const HelperSummary *CS : ThisCalleeSummaries)
    for (const HelperSummary::NamedBuffer &B : CS->Named)
      if (B.Path.isThisMember())
        SeedNamed(B.Path, B.Name, nullptr);
  for (const Expr *E : F.Candidates) {
    // The outermost member chain on `this`, or a global: `h_`, `buf_.h`.
    if (isa_and_nonnull<MemberExpr>(F.PM.getParent(E)) ||
        !isBufferType(E->getType()) || !outlivesCall(E))
      continue;
    const auto *D = dyn_cast<DeclRefExpr>(strip(E));
    if (D && (D->refersToEnclosingVariableOrCapture() ||
              Ctx.getSourceManager().isInSystemHeader(
                  D->getDecl()->getLocation())))
      continue; // a capture, seeded above; stderr and the like
    SeedNamed(AccessPath::of(E), spelling(E, Ctx), nullptr);
  }
}

void SummarySeeds::seedEntry(const CallableEffects &E, PendingState &Entry) {
  // The caller's device work: on no stream the helper can name (any sync,
  // record or barrier in the helper may be its order: the seed ends).
  for (const CallableEffects::ProducerSeed &Sd : E.ProducerSeeds) {
    PendingProducer &P = Entry.Producers[{Sd.Region, StreamRef().identity()}];
    P.Site = E.ProducerSeedSite;
    P.Var = Sd.Var;
    P.Conditions.Sets = {Literals{}};
  }
  for (unsigned Id = 0; Id < E.Copies.size(); ++Id)
    if (const SummarySeed *S = E.Copies[Id]->Seed) {
      PendingCopy &Seed = Entry.Pending[Id];
      Seed.Conditions.Sets = {Literals{}};
      Seed.Site = Id;
      if (!S->Event.empty())
        Entry.Events[S->Event].Covered.insert(Id);
    }
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
