//===--- AsyncCopyAnalysis.cpp - Host accesses racing async D2H copies ----===//
//
// The driver: runs the phases over one callable (facts, seeds in a summary
// run, effects, the solver), orders the findings, and caches helper
// summaries (with the depth bound, recursion guard and work budget).
//
//===----------------------------------------------------------------------===//

#include "AsyncCopyAnalysis.h"
#include "CallableRun.h"
#include "CallerContexts.h"
#include "Effects.h"
#include "FunctionFacts.h"
#include "HelperSummaries.h"
#include "Solver.h"
#include "StreamOrdering.h"
#include "StreamOrigins.h"
#include "SummaryFiles.h"
#include "clang/Basic/SourceManager.h"
#include <set>

namespace clang::tidy::cuda {
namespace {

/// The result of one run over a callable.
struct RunResult {
  /// The state at the exit; nullopt: not analysable or over budget.
  std::optional<PendingState> Exit;
  std::vector<Finding> Findings;
  std::unique_ptr<HelperSummary> Summary; ///< a summary run's, if Exit
};

/// Facts -> (seeds) -> effects -> solver, for one callable.
RunResult runCallable(CallableRun &R) {
  RunResult Result;
  AnalysisProfile &P = R.Owner.profile();
  auto Phase = [&](AnalysisProfile::Phase Ph) {
    return R.SummaryMode ? AnalysisProfile::Summaries : Ph;
  };
  PhaseTimer Timer(P, Phase(AnalysisProfile::Facts));
  FunctionFacts Facts(R.context(), R.model(), R.FD,
                      R.options().PerThreadDefaultStream);
  Facts.Bound = R.Bound;
  Facts.SetsCurrentStreamCache = &R.Owner.setsCurrentStreamCache();
  Facts.Origins = &R.Owner.streamOrigins();
  Facts.Contexts = &R.Owner.callerContexts();
  if (!Facts.collect())
    return Result;
  CallableEffects Effects;
  SummarySeeds Seeds;
  P.switchTo(Phase(AnalysisProfile::Effects));
  if (R.SummaryMode)
    Seeds.seed(R, Facts, Effects);
  buildEffects(R, Facts, Effects);
  P.switchTo(Phase(AnalysisProfile::Solver));
  Solver S(R, Facts, Effects);
  Result.Exit = S.run();
  Result.Findings = std::move(S.Findings);
  if (R.SummaryMode && Result.Exit)
    Result.Summary =
        Seeds.extract(R, Facts, Effects, *Result.Exit, Result.Findings,
                      S.Consumed);
  return Result;
}

} // namespace

AsyncCopyAnalysis::AsyncCopyAnalysis(ASTContext &Ctx, const ApiModel &Model,
                                     AnalysisOptions Opts,
                                     AnalysisProfile &Profile)
    : Ctx(Ctx), Model(Model), Opts(Opts), Profile(Profile) {}
AsyncCopyAnalysis::~AsyncCopyAnalysis() = default;

StreamOrigins &AsyncCopyAnalysis::streamOrigins() {
  if (Origins)
    return *Origins;
  ImportedOrigin Imported;
  if (Opts.Imported)
    Imported = [this](const ValueDecl *D) -> std::optional<StreamOrigin> {
      std::string USR = usrOf(D);
      if (USR.empty())
        return std::nullopt;
      auto [It, New] = ImportedOrigins.try_emplace(D);
      if (New) {
        Consulted.push_back("%" + USR); // SummaryExport.cpp's "consults"
        It->second = Opts.Imported->streamMemberOrigin(USR);
      }
      return It->second;
    };
  ImportedHandleStream ImportedHandle;
  StreamOrigins::ImportedHandleOther ImportedOther;
  if (Opts.Imported) {
    ImportedHandle = [this](const ValueDecl *H,
                            llvm::ArrayRef<const ValueDecl *> Candidates)
        -> std::optional<const ValueDecl *> {
      const std::optional<std::string> &Stream = importedHandle(H).Stream;
      if (!Stream)
        return std::nullopt;
      if (StreamDeclsByUSR.empty())
        for (const ValueDecl *C : Candidates)
          StreamDeclsByUSR.try_emplace(usrOf(C), C);
      auto S = Stream->empty() ? StreamDeclsByUSR.end()
                               : StreamDeclsByUSR.find(*Stream);
      return S == StreamDeclsByUSR.end() ? nullptr : S->second;
    };
    ImportedOther = [this](const ValueDecl *H) {
      return importedHandle(H).OtherObject;
    };
  }
  Origins = std::make_unique<StreamOrigins>(Ctx, Model, std::move(Imported),
                                            std::move(ImportedHandle),
                                            std::move(ImportedOther));
  return *Origins;
}

const AsyncCopyAnalysis::ImportedHandle &
AsyncCopyAnalysis::importedHandle(const ValueDecl *H) {
  auto [It, New] = ImportedHandles.try_emplace(H);
  if (!New)
    return It->second;
  std::string USR = usrOf(H);
  if (USR.empty())
    return It->second;
  Consulted.push_back("%" + USR); // SummaryExport.cpp's "consults"
  It->second.Stream = Opts.Imported->handleMemberStream(USR);
  It->second.OtherObject = Opts.Imported->handleMemberOtherObject(USR);
  return It->second;
}

CallerContexts &AsyncCopyAnalysis::callerContexts() {
  if (!Contexts)
    Contexts = std::make_unique<CallerContexts>(Ctx, Model,
                                                Opts.PerThreadDefaultStream);
  return *Contexts;
}

CopySite *AsyncCopyAnalysis::newCopySite() {
  OwnedCopies.push_back(std::make_unique<CopySite>());
  return OwnedCopies.back().get();
}

StreamOrderingCache &AsyncCopyAnalysis::orderingCache() {
  if (!OrderingCache)
    OrderingCache = std::make_unique<StreamOrderingCache>();
  return *OrderingCache;
}

HelperSummary *AsyncCopyAnalysis::tooCostly() {
  if (!TooCostlySummary) {
    TooCostlySummary = std::make_unique<HelperSummary>();
    TooCostlySummary->TooCostly = true;
  }
  return TooCostlySummary.get();
}

const HelperSummary *
AsyncCopyAnalysis::recursionSummary(const FunctionDecl *Def) {
  std::unique_ptr<HelperSummary> &S = RecursionSummaries[Def];
  if (!S) {
    S = std::make_unique<HelperSummary>();
    S->sizeForParams(Def->getNumParams());
  }
  return S.get();
}

bool AsyncCopyAnalysis::withinWorkLimit() {
  if (Work > Opts.WorkLimit)
    OverBudget = true;
  return !OverBudget;
}

std::vector<Finding> AsyncCopyAnalysis::analyze(const FunctionDecl *FD,
                                                bool *GaveUp) {
  if (!FD || !FD->hasBody() || FD->isTemplated() || FD->isInvalidDecl())
    return {};
  Work = 0;
  Wasted = 0;
  OverBudget = false;
  VisitCapped = false;
  CallableRun R{*this, FD, 0, /*SummaryMode=*/false, false, {}};
  ++Profile.Callables;
  RunResult Run = runCallable(R);
  if (!Run.Exit || OverBudget) {
    if (OverBudget || VisitCapped) {
      ++Profile.GivenUp;
      if (GaveUp)
        *GaveUp = true;
    }
    return {};
  }
  std::vector<Finding> Out;
  for (Finding &F : Run.Findings)
    if (!F.Copy || !F.Copy->Seed)
      Out.push_back(std::move(F));
  const SourceManager &SM = Ctx.getSourceManager();
  // Findings are discovered in CFG order; report them in source order.
  std::vector<size_t> Order(Out.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    SourceLocation LA = Out[A].Access->getBeginLoc();
    SourceLocation LB = Out[B].Access->getBeginLoc();
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A < B;
  });
  // One warning per buffer and line: `for (auto i = v.cbegin(); i !=
  // v.cend(); ++i)` is one access site, not two.
  std::vector<Finding> Sorted;
  std::set<std::pair<unsigned, std::string>> Seen;
  for (size_t I : Order) {
    SourceLocation L = SM.getFileLoc(Out[I].Access->getBeginLoc());
    unsigned Line = SM.getExpansionLineNumber(L);
    if (Seen.insert({Line, (Out[I].Producer ? "producer:" : "") +
                               Out[I].BufferName})
            .second)
      Sorted.push_back(std::move(Out[I]));
  }
  return Sorted;
}

const HelperSummary *AsyncCopyAnalysis::summary(const FunctionDecl *FD,
                                                unsigned Depth,
                                                bool *Truncated,
                                                const CallBindings &Bound) {
  auto Cut = [&]() -> const HelperSummary * {
    if (Truncated)
      *Truncated = true;
    return nullptr;
  };
  const FunctionDecl *Def = summarizable(FD, Ctx.getSourceManager());
  if (!Def)
    return importedSummary(FD);
  if (Depth > Opts.MaxHelperDepth || OverBudget)
    return Cut();
  // Recursion (fetch_range(h, lo, mid); fetch_range(h, mid, hi);): the
  // inner call's summary is not known yet. It is taken as doing nothing,
  // neither synchronizing nor touching a buffer, where an unknown call
  // would count as a host access of every buffer passed to it (a false
  // warning on the fourth adversarial round's program 18): the outer
  // summary then holds what one level does, which is what the caller
  // meets at its call. A race only a deeper level would show is missed.
  if (InProgress.lookup(Def))
    return recursionSummary(Def);
  // A summary cut short at some depth is exact for calls at that depth or
  // deeper, not for shallower ones: recompute those.
  std::pair<const FunctionDecl *, CallBindings> Key{Def, Bound};
  if (auto It = Summaries.find(Key);
      It != Summaries.end() &&
      (!It->second.Truncated || Depth >= It->second.Depth)) {
    if (It->second.Truncated && Truncated)
      *Truncated = true;
    return It->second.S.get();
  }

  if (Wasted > Opts.WorkLimit)
    return tooCostly();
  InProgress[Def] = true;
  ++Profile.SummaryRuns;
  // Its own budget: the caller's work so far is set aside, and added back
  // with the summary's when it is done.
  uint64_t CallerWork = Work;
  Work = 0;
  CallableRun R{*this, Def, Depth, /*SummaryMode=*/true, false, Bound};
  RunResult Run = runCallable(R);
  InProgress[Def] = false;
  if (OverBudget) {
    OverBudget = false;
    Wasted += Work;
    Work = CallerWork;
    CachedSummary &Slot = Summaries[Key];
    Slot.Truncated = false;
    Slot.Depth = 0;
    Slot.S = std::make_unique<HelperSummary>(*tooCostly());
    return Slot.S.get();
  }
  Work += CallerWork;
  if (R.Truncated && Truncated)
    *Truncated = true;
  CachedSummary &Slot = Summaries[Key];
  Slot.Truncated = R.Truncated;
  Slot.Depth = Depth;
  Slot.S = std::move(Run.Summary);
  return Slot.S.get();
}

const HelperSummary *
AsyncCopyAnalysis::summaryForExport(const FunctionDecl *FD,
                                    const CallBindings &Bound) {
  Work = 0;
  Wasted = 0;
  OverBudget = false;
  VisitCapped = false;
  return summary(FD, /*Depth=*/1, nullptr, Bound);
}

std::vector<unsigned>
AsyncCopyAnalysis::branchParams(const FunctionDecl *Def) {
  if (auto It = BranchParams.find(Def); It != BranchParams.end())
    return It->second;
  BranchParams[Def]; // recursion meets no tested parameter
  // A parameter passed on to one that decides a branch of a helper's body
  // (a summary per value of it, through Bound) or that an imported summary
  // has variants for.
  auto Forwarded = [&](const FunctionDecl *Callee, unsigned I) {
    if (const FunctionDecl *D = summarizable(Callee, Ctx.getSourceManager()))
      return llvm::is_contained(branchParams(D), I);
    const ImportedEntry *E = importedEntry(Callee);
    return E && E->Variants && variantFor(*E->Variants, I);
  };
  std::vector<unsigned> Tested = testedParams(Def, Forwarded);
  return BranchParams[Def] = std::move(Tested);
}

AsyncCopyAnalysis::ImportedEntry *
AsyncCopyAnalysis::importedEntry(const FunctionDecl *FD) {
  if (!FD || !Opts.Imported || FD->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
    return nullptr;
  FD = FD->getCanonicalDecl();
  auto [It, New] = ImportedSummaries.try_emplace(FD);
  ImportedEntry &E = It->second;
  if (New) {
    std::string USR = usrOf(FD);
    if (!USR.empty())
      Consulted.push_back(USR);
    E.Json = Opts.Imported->find(USR);
    if (E.Json) {
      if (!Usrs)
        Usrs = std::make_unique<UsrIndex>(Ctx);
      E.Any = importSummary(*E.Json, FD, *Usrs);
      if (E.Any)
        E.Variants = E.Json->getArray("byConstant");
    }
  }
  return &E;
}

const HelperSummary *
AsyncCopyAnalysis::importedSummary(const FunctionDecl *FD,
                                   llvm::function_ref<CallBindings()> Bound) {
  ImportedEntry *E = importedEntry(FD);
  if (!E)
    return nullptr;
  if (E->Variants && Bound)
    for (const auto &[Param, Value] : Bound().Constants) {
      unsigned P = Param->getFunctionScopeIndex();
      auto [V, New] = E->ByConstant.try_emplace({P, Value});
      if (New)
        if (const llvm::json::Object *O = variantFor(*E->Variants, P, Value))
          V->second = importSummary(*O, FD->getCanonicalDecl(), *Usrs);
      if (V->second)
        return V->second.get();
    }
  return E->Any.get();
}

bool AsyncCopyAnalysis::hasSummary(const FunctionDecl *FD) {
  return summarizable(FD, Ctx.getSourceManager()) || importedSummary(FD);
}

} // namespace clang::tidy::cuda
