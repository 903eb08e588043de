//===--- HelperSummarySeeds.cpp - What a summary's analysis starts from ---===//
//
// SummarySeeds' seeds (HelperSummaries.h): the synthetic copies and
// producers a helper's analysis starts from -- on each stream parameter,
// into each pointer parameter, on the streams the caller names too (members
// of `this`, globals, captures, elements of containers of streams, the
// streams of member calls on objects the caller names) -- and the entry
// state that holds them. What is left of them at the exit is the summary
// (extract, HelperSummaries.cpp).
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

} // namespace

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
  // its members as this helper does; and member functions called on another
  // object (seeded below).
  std::vector<std::pair<const CallExpr *, const HelperSummary *>> ObjectCalls;
  for (const CallExpr *C : F.Calls) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
    const FunctionDecl *Callee = C->getDirectCallee();
    bool OnThis = (MC && isThis(MC->getImplicitObjectArgument())) ||
                  lambdaOperator(Callee);
    bool OnObject = MC && !isThis(MC->getImplicitObjectArgument());
    if ((!OnThis && !OnObject) || Model.lookup(Callee) ||
        !summarizable(Callee, Ctx.getSourceManager()))
      continue;
    const HelperSummary *CS = R.summaryOf(Callee);
    if (CS && OnThis)
      ThisCalleeSummaries.push_back(CS);
    if (CS && OnObject)
      ObjectCalls.push_back({C, CS});
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
    SeedStream(
        everyStreamOf(*Range, spelling(L->getRangeInit(), Ctx) + "[...]"));
  }
  // Member functions called on an object the caller names too (`void
  // waitOn(const Stream &x) { x.synchronize(); }`): their members' streams
  // as this helper names them (`x.s`).
  for (const auto &[C, CS] : ObjectCalls)
    for (StreamRef St : CS->CaptureStreams)
      if (St.K == StreamRef::Named && St.Path.isThisMember() &&
          namedAtCall(F, St.Path, St.Spelling, C) &&
          namedByCaller(St.Path, F)) {
        St.Fresh = St.OwnObject = false;
        St.Elements = F.elementsOfPath(St.Path);
        SeedStream(St);
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

} // namespace clang::tidy::cuda
