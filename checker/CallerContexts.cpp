//===--- CallerContexts.cpp - What a callable's callers give it ---------===//
//
// One walk of the translation unit finds the direct calls of internal
// functions and of lambdas held in local variables, and every other use of
// them; a parameter's provenance is then its arguments' in their callers
// (each caller's FunctionFacts, built here on first use), and a captured
// variable's is its declaring function's.
//
//===----------------------------------------------------------------------===//

#include "CallerContexts.h"
#include "ExprUtils.h"
#include "CallableWalker.h"
#include "FunctionFacts.h"

namespace clang::tidy::cuda {
namespace {

const FunctionDecl *canonical(const FunctionDecl *FD) {
  return FD ? FD->getCanonicalDecl() : nullptr;
}

/// A function whose every caller is in this translation unit: internal
/// linkage, not a method (a class's other members may be reached through
/// its vtable or a member pointer), not a template pattern.
bool internalFunction(const FunctionDecl *FD) {
  return FD && !FD->isExternallyVisible() && !isa<CXXMethodDecl>(FD) &&
         !FD->isTemplated() && !FD->isMain();
}

class Walker : public CallableWalker<Walker> {
public:
  using CallableWalker::CallableWalker;
  using CallSite = CallerContexts::CallSite;
  llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> Calls;
  llvm::DenseMap<const FunctionDecl *, unsigned> Uses;
  /// A local variable initialised with a lambda: the lambda's operator().
  llvm::DenseMap<const VarDecl *, const FunctionDecl *> LambdaVars;

  bool VisitVarDecl(VarDecl *V) {
    if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit())
      return true;
    if (const auto *LE = dyn_cast<LambdaExpr>(V->getInit()->IgnoreImplicit()))
      if (!LE->getCallOperator()->isTemplated())
        LambdaVars[V] = canonical(LE->getCallOperator());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const FunctionDecl *FD = usedFunction(D))
      ++Uses[FD];
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    unsigned First = 0;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
        Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0) {
      Callee = Op->getArg(0)->IgnoreParenImpCasts();
      First = 1;
    }
    const auto *D = dyn_cast<DeclRefExpr>(Callee);
    const FunctionDecl *FD = D ? usedFunction(D) : nullptr;
    if (FD && (First == 1) == isa<VarDecl>(D->getDecl()))
      Calls[FD].push_back({CE, current(), First});
    return true;
  }

private:
  /// The internal function (or lambda) a reference names, or null.
  const FunctionDecl *usedFunction(const DeclRefExpr *D) const {
    if (const auto *FD = dyn_cast<FunctionDecl>(D->getDecl()))
      return internalFunction(FD) ? canonical(FD) : nullptr;
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
      auto It = LambdaVars.find(V);
      return It == LambdaVars.end() ? nullptr : It->second;
    }
    return nullptr;
  }
};

} // namespace

CallerContexts::CallerContexts(ASTContext &Ctx, const ApiModel &Model,
                               bool PerThread)
    : Ctx(Ctx), Model(Model), PerThread(PerThread) {}
CallerContexts::~CallerContexts() = default;

void CallerContexts::build() {
  Built = true;
  Walker W(Ctx.getSourceManager());
  W.TraverseAST(Ctx);
  for (auto &[FD, Sites] : W.Calls) {
    // Every use a direct call; anything else (an address taken, a lambda
    // copied or passed on) may call it from where the walk cannot see.
    if (W.Uses.lookup(FD) != Sites.size())
      Escapes.insert(FD);
    Calls[FD] = std::move(Sites);
  }
}

FunctionFacts *CallerContexts::factsOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || Def->isTemplated() || Def->isInvalidDecl())
    return nullptr;
  auto [It, New] = Facts.try_emplace(canonical(Def));
  if (New) {
    auto F = std::make_unique<FunctionFacts>(Ctx, Model, Def, PerThread);
    F->Contexts = this;
    if (F->collect())
      It->second = std::move(F);
  }
  return It->second.get();
}

Provenance CallerContexts::parameterProvenance(const ParmVarDecl *P) {
  const FunctionDecl *G =
      canonical(dyn_cast_or_null<FunctionDecl>(P->getDeclContext()));
  if (!G)
    return Provenance::Unknown;
  if (!Built)
    build();
  auto It = Calls.find(G);
  if (It == Calls.end() || Escapes.contains(G))
    return Provenance::Unknown;
  std::optional<Provenance> Joined;
  for (const CallSite &S : It->second) {
    unsigned Index = S.FirstParamArg + P->getFunctionScopeIndex();
    if (Index >= S.Call->getNumArgs())
      return Provenance::Unknown;
    const Expr *Arg = S.Call->getArg(Index);
    FunctionFacts *CallerFacts = factsOf(S.Caller);
    const Expr *Root = isa<CXXDefaultArgExpr>(Arg) ? nullptr : bufferRoot(Arg);
    if (!CallerFacts || !Root)
      return Provenance::Unknown;
    Provenance Here = CallerFacts->provenanceOf(Root);
    if (Here == Provenance::Unknown || (Joined && *Joined != Here))
      return Provenance::Unknown;
    Joined = Here;
  }
  return Joined.value_or(Provenance::Unknown);
}

/// The function that declares V, a local variable (not a parameter) that
/// Current captures from it; null for anything else, Current's own
/// variables included.
static const FunctionDecl *capturedFrom(const VarDecl *V,
                                        const FunctionDecl *Current) {
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage())
    return nullptr;
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  return Owner && canonical(Owner) != canonical(Current) ? Owner : nullptr;
}

bool CallerContexts::createdNonBlocking(const VarDecl *V,
                                       const FunctionDecl *Current) {
  FunctionFacts *OwnerFacts = factsOf(capturedFrom(V, Current));
  return OwnerFacts && OwnerFacts->isNonBlockingStream(AccessPath::ofVar(V));
}

bool CallerContexts::createdFresh(const VarDecl *V,
                                  const FunctionDecl *Current) {
  FunctionFacts *OwnerFacts = factsOf(capturedFrom(V, Current));
  return OwnerFacts && OwnerFacts->isFreshStream(V);
}

Provenance CallerContexts::provenanceOf(const VarDecl *V,
                                        const FunctionDecl *Current) {
  if (!V || !V->getType()->isPointerType() || !V->hasLocalStorage())
    return Provenance::Unknown;
  const FunctionDecl *Owner = capturedFrom(V, Current);
  if (!isa<ParmVarDecl>(V) && !Owner)
    return Provenance::Unknown; // Current's own local: its facts decide
  auto Cached = Cache.find(V);
  if (Cached != Cache.end())
    return Cached->second;
  if (!InProgress.insert(V).second)
    return Provenance::Unknown; // a cycle: the callers' callers' ...
  Provenance Result = Provenance::Unknown;
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    Result = parameterProvenance(P);
  } else if (FunctionFacts *OwnerFacts = factsOf(Owner)) {
    Result = OwnerFacts->provenanceOfVar(V);
  }
  InProgress.erase(V);
  Cache[V] = Result;
  return Result;
}

} // namespace clang::tidy::cuda
