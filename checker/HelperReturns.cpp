//===--- HelperReturns.cpp - What a helper's return statements return ---===//
//
// The parts of a helper's summary (HelperSummaries.h) that say what every
// return statement returns: the future of a promise a host function
// fulfils (ReturnsSignal), a query's success (ReturnsQuerySuccess), an
// object built from the parameters (ReturnsNew), and the buffer a copy
// left in flight is into (PendingCopy::Returned). Called by
// SummarySeeds::extract once the helper's exit state is known.
//
// May call: FunctionFacts, PendingState, ExprUtils, HostOrdering,
// CudaApiModel, the name predicates of HelperSummaries.h.
//
//===----------------------------------------------------------------------===//

#include "HelperSummaries.h"
#include "ExprUtils.h"
#include "HostOrdering.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

/// Whether the local L that every return statement returns is returned
/// right after its declaration (`Fence *f = new Fence(s); return f;`):
/// nothing the helper does between may come after the object's
/// construction at the caller.
static bool returnedRightAfterDeclaration(const VarDecl *L, const Expr *V,
                                          const FunctionFacts &F) {
  const Stmt *S = V;
  while (S && !isa<ReturnStmt>(S))
    S = F.PM.getParent(S);
  const auto *Block = S ? dyn_cast_or_null<CompoundStmt>(F.PM.getParent(S))
                        : nullptr;
  if (!Block)
    return false;
  const Stmt *Prev = nullptr;
  for (const Stmt *Child : Block->body()) {
    if (Child == S)
      break;
    Prev = Child;
  }
  const auto *DS = dyn_cast_or_null<DeclStmt>(Prev);
  return DS && DS->isSingleDecl() && DS->getSingleDecl() == L;
}

std::string extractReturnedValues(
    FunctionFacts &F, const CallableEffects &E, const PendingState &Exit,
    HelperSummary &S,
    llvm::function_ref<bool(const StreamRef &, int &)> CallerNames) {
  const FunctionDecl *Def = F.FD;
  // The future every return statement returns, of a promise a host
  // function enqueued on every path fulfils.
  std::optional<AccessPath> Signal;
  // What each return statement returns (one walk of the body).
  const std::vector<const Expr *> ReturnedValues = F.returnedValues();
  for (const Expr *V : ReturnedValues) {
    const Expr *Promise = V ? promiseOfFuture(V, F.MutatedVars) : nullptr;
    std::optional<AccessPath> Key =
        Promise ? std::optional(AccessPath::of(Promise)) : std::nullopt;
    if (!Key || (Signal && *Signal != *Key)) {
      Signal.reset();
      break;
    }
    Signal = Key;
  }
  if (auto It = Signal ? Exit.Events.find(*Signal) : Exit.Events.end();
      It != Exit.Events.end() && It->second.HostSignal) {
    HelperSummary::ReturnedSignal RS;
    RS.Stream = It->second.Stream;
    if (CallerNames(RS.Stream, RS.StreamParam))
      S.ReturnsSignal = RS;
  }
  // Whether a query succeeded, as every return statement returns it.
  for (const Expr *V : ReturnedValues) {
    const auto *B = dyn_cast_or_null<BinaryOperator>(V ? strip(V) : nullptr);
    if (!B || !B->isEqualityOp()) {
      S.ReturnsQuerySuccess.reset();
      break;
    }
    const auto *Q = dyn_cast<CallExpr>(strip(B->getLHS()));
    const Expr *Other = B->getRHS();
    if (!Q || !F.lookup(Q)) {
      Q = dyn_cast<CallExpr>(strip(B->getRHS()));
      Other = B->getLHS();
    }
    const ApiEntry *A = Q ? F.lookup(Q) : nullptr;
    std::optional<long long> K = evalInt(Other, F.Ctx);
    bool Success =
        K && ((*K == CudaSuccess && B->getOpcode() == BO_EQ) ||
              (*K == CudaErrorNotReady && B->getOpcode() == BO_NE));
    HelperSummary::QueryResult R;
    bool Named = false;
    if (A && isQueryRole(A->Role) && Success) {
      R.OnEvent = A->Role == ApiRole::EventQuery;
      const Expr *X = arg(Q, R.OnEvent ? A->EventArg : A->StreamArg);
      R.Param = unchangedParam(X, F);
      if (R.OnEvent) {
        R.Event = {AccessPath::of(X), spelling(X, F.Ctx)};
        Named = R.Param >= 0 || handleOutlivesCall(X, F);
      } else {
        R.Stream = F.streamOf(X);
        Named = R.Param >= 0 || (X && outlivesCall(X)) ||
                R.Stream.K == StreamRef::Legacy ||
                R.Stream.K == StreamRef::PerThread;
      }
    }
    const auto &Prev = S.ReturnsQuerySuccess;
    if (!Named || (Prev && (Prev->OnEvent != R.OnEvent ||
                            Prev->Param != R.Param ||
                            Prev->Event.Path != R.Event.Path ||
                            !Prev->Stream.sameStream(R.Stream)))) {
      S.ReturnsQuerySuccess.reset();
      break;
    }
    S.ReturnsQuerySuccess = R;
  }
  // The object every return statement returns, built from parameters: on
  // the heap, or the result object itself where the helper returns a class
  // by value.
  const bool ByValue =
      Def->getReturnType()->isRecordType() &&
      !isStdSmartPointer(Def->getReturnType()->getAsCXXRecordDecl());
  for (const Expr *V : ReturnedValues) {
    const Expr *Built = V;
    // A local holding it, returned right after its declaration.
    if (const auto *L = dyn_cast_or_null<VarDecl>(V ? namedDecl(V) : nullptr);
        L && !isa<ParmVarDecl>(L))
      Built = !L->hasLocalStorage() || F.MutatedVars.count(L) ||
                      F.AddressTaken.count(L) ||
                      !returnedRightAfterDeclaration(L, V, F)
                  ? nullptr
                  : L->getInit();
    ObjectConstruction H = !Built    ? ObjectConstruction()
                           : ByValue ? valueConstruction(Built)
                                     : heapConstruction(Built);
    HelperSummary::NewObject N{H.Ctor, {}, ByValue};
    for (const Expr *A : H.Args) {
      int P = unchangedParam(A, F);
      if (P < 0) {
        N.Ctor = nullptr;
        break;
      }
      N.ArgParams.push_back(P);
    }
    if (!N.Ctor || (S.ReturnsNew && (S.ReturnsNew->Ctor != N.Ctor ||
                                      S.ReturnsNew->ArgParams !=
                                          N.ArgParams))) {
      S.ReturnsNew.reset();
      break;
    }
    S.ReturnsNew = N;
  }
  // The buffer every return statement returns, if one: a copy's temporary
  // result (`return g.to(kCPU, true);`) or a buffer the helper names.
  std::optional<std::string> Returned;
  for (const Expr *V : ReturnedValues) {
    std::string Class;
    const Expr *Root = V ? bufferRoot(V) : nullptr;
    if (const auto *RC = V ? dyn_cast<CallExpr>(strip(V)) : nullptr)
      for (const CopySite *C : E.Copies)
        if (C->Call == RC &&
            C->Buffer == F.Aliases.classKey(AccessPath::temporary(RC)))
          Class = C->Buffer;
    if (Class.empty() && Root)
      Class = F.Aliases.classKey(AccessPath::of(Root));
    if (Class.empty() || (Returned && *Returned != Class)) {
      Returned = std::string();
      break;
    }
    Returned = Class;
  }
  return Returned ? *Returned : std::string();
}

} // namespace clang::tidy::cuda
