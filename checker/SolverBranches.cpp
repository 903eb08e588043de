//===--- SolverBranches.cpp - What a branch condition tells -------------===//
//
// The Solver's branch refinement: the edge on which a cudaStreamQuery /
// cudaEventQuery result is known to be cudaSuccess, the literal a
// condition on a stable variable gives on each edge, the variables whose
// literals are kept (findCorrelated), and the edge a parameter bound to a
// constant at the call decides (boundCondition).
//
//===----------------------------------------------------------------------===//

#include "Solver.h"
#include "ExprUtils.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <limits>

namespace clang::tidy::cuda {

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
      if ((A && isQueryRole(A->Role)) || F.QueryWrapperCalls.count(C))
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
    // returns true once complete, and so does a helper returning whether a
    // query succeeded.
    const ApiEntry *A = F.lookup(Q);
    SuccessOnTrue = !A || A->QueryReturnsBool;
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

void Solver::nullStreamEdge(PendingState &Edge, const Expr *Cond,
                            bool OnTrue) const {
  std::optional<Literal> L = literalOf(Cond, OnTrue);
  if (!L || L->Field || L->Rel != 0 || !L->Eq || L->C != 0 ||
      !isStreamType(L->V->getType()) ||
      F.MutatedVars.count(L->V))
    return;
  AccessPath Handle = AccessPath::ofDecl(L->V);
  std::vector<std::pair<ProducerKey, PendingProducer>> Moved;
  for (auto It = Edge.Producers.begin(); It != Edge.Producers.end();) {
    if (It->second.Stream.Supplied && It->second.Stream.Path == Handle) {
      Moved.push_back(*It);
      It = Edge.Producers.erase(It);
    } else {
      ++It;
    }
  }
  // A null handle is stream 0 (`if (s) cudaStreamSynchronize(s);` leaves the
  // work on the legacy default stream on the other edge).
  for (auto &[Key, P] : Moved) {
    std::string Spelling = P.Stream.Spelling;
    P.Stream = F.streamOf(nullptr);
    P.Stream.Spelling = Spelling;
    Edge.Producers[{Key.first, P.Stream.identity()}] = std::move(P);
  }
}

std::optional<bool> Solver::boundCondition(const Expr *Cond) const {
  std::optional<Literal> L = literalOf(Cond, /*OnTrue=*/true);
  std::optional<long long> V =
      L && !L->Field ? F.knownValue(L->V) : std::nullopt;
  if (V) {
    bool Holds = L->Rel == 0  ? (*V == L->C) == L->Eq
                 : L->Rel > 0 ? *V >= L->C
                              : *V <= L->C;
    // A counting loop's test gives what entering its body the first time
    // implies (literalOf): false, the body is never entered; true says
    // nothing of the later tests, one of which ends the loop.
    const auto *For = dyn_cast_or_null<ForStmt>(F.PM.getParent(Cond));
    if (For && For->getCond() == Cond && Holds)
      return std::nullopt;
    return Holds;
  }
  // A const member every constructor sets to one constant, of any object
  // (`if (blocking_)`, `if (r.mode == kSync)`).
  bool Positive = true;
  Cond = strip(Cond);
  while (const auto *U = dyn_cast_or_null<UnaryOperator>(Cond)) {
    if (U->getOpcode() != UO_LNot)
      return std::nullopt;
    Positive = !Positive;
    Cond = strip(U->getSubExpr());
  }
  auto FieldValue = [&](const Expr *E) -> std::optional<long long> {
    const auto *M = dyn_cast_or_null<MemberExpr>(strip(E));
    return M ? F.knownFieldValue(dyn_cast<FieldDecl>(M->getMemberDecl()))
             : std::nullopt;
  };
  if (std::optional<long long> Own = FieldValue(Cond))
    return (*Own != 0) == Positive;
  const auto *B = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!B || !B->isEqualityOp())
    return std::nullopt;
  std::optional<long long> Lhs = FieldValue(B->getLHS());
  if (!Lhs)
    Lhs = evalInt(B->getLHS(), Ctx);
  std::optional<long long> Rhs = FieldValue(B->getRHS());
  if (!Rhs)
    Rhs = evalInt(B->getRHS(), Ctx);
  if (!Lhs || !Rhs)
    return std::nullopt;
  return ((*Lhs == *Rhs) == (B->getOpcode() == BO_EQ)) == Positive;
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
    // A test of a variable the callable sets to constants meets the
    // literal its last write left (`ready = true;` ... `if (!ready)`).
    if (F.writtenWithConstant(L->V)) {
      Correlated.insert(L->V);
      continue;
    }
    // A loop around the test whose body does not hold the declaration (a
    // parameter, a local before the loop, one in its header): the test
    // meets its own earlier literal on the next iteration.
    SourceLocation Decl = SM.getExpansionLoc(L->V->getLocation());
    for (const Stmt *S = B->getTerminatorStmt(); S; S = F.PM.getParent(S)) {
      const Stmt *Body = loopBody(S);
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
  // A counting loop's test: its body is entered only while the bound
  // exceeds the counter's first value.
  if (const auto *For = dyn_cast_or_null<ForStmt>(F.PM.getParent(Cond));
      For && OnTrue && For->getCond() == Cond)
    if (std::optional<FunctionFacts::FirstTest> T = F.countingUp(For);
        T && !F.AddressTaken.count(T->Bound) &&
        !T->Bound->getType()->isReferenceType())
      return Literal{T->Bound, false, T->Lo + (T->Inclusive ? 0 : 1),
                     nullptr, +1};
  Cond = strip(Cond);
  bool Positive = OnTrue;
  while (const auto *U = dyn_cast_or_null<UnaryOperator>(Cond)) {
    if (U->getOpcode() != UO_LNot)
      break;
    Positive = !Positive;
    Cond = strip(U->getSubExpr());
  }
  auto Testable = [](QualType T) {
    return T->isIntegralOrEnumerationType() || T->isPointerType();
  };
  // The subject of a literal: a local or parameter, or a member of one
  // whose object the callable cannot change (a const object, reached
  // through a const reference, a const pointer the callable never
  // re-points, or held by value as const).
  auto Stable = [&](const Expr *E) -> std::optional<Literal> {
    E = strip(E);
    const FieldDecl *Field = nullptr;
    if (const auto *M = dyn_cast_or_null<MemberExpr>(E)) {
      Field = dyn_cast<FieldDecl>(M->getMemberDecl());
      QualType Object = M->getBase()->getType();
      if (M->isArrow())
        Object = Object->isPointerType() ? Object->getPointeeType()
                                         : QualType();
      if (!Field || Object.isNull() || !Object.isConstQualified() ||
          Field->isMutable() || !Testable(Field->getType()))
        return std::nullopt;
      E = M->getBase();
    }
    const auto *V = dyn_cast_or_null<VarDecl>(namedDecl(E));
    if (!V || !V->hasLocalStorage() || F.AddressTaken.count(V))
      return std::nullopt;
    if (Field) {
      if (!V->getType()->isReferenceType() && F.MutatedVars.count(V))
        return std::nullopt; // a pointer re-pointed
    } else if (V->getType()->isReferenceType() || !Testable(V->getType())) {
      return std::nullopt;
    }
    return Literal{V, false, 0, Field};
  };
  if (std::optional<Literal> L = Stable(Cond)) {
    L->Eq = !Positive; // if (v): v != 0
    return L;
  }
  const auto *B = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!B || !(B->isEqualityOp() || B->isRelationalOp()))
    return std::nullopt;
  std::optional<Literal> L = Stable(B->getLHS());
  const Expr *Other = B->getRHS();
  BinaryOperatorKind Op = B->getOpcode();
  if (!L) {
    L = Stable(B->getRHS());
    Other = B->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op); // `0 < n` is `n > 0`
  }
  auto C = L ? evalInt(Other, Ctx) : std::nullopt;
  if (!C)
    return std::nullopt;
  if (B->isEqualityOp()) {
    L->Eq = (Op == BO_EQ) == Positive;
    L->C = *C;
    return L;
  }
  // An integer ordered against a constant: `n > 0` is `n >= 1`, its
  // false edge `n <= 0`.
  QualType T = L->Field ? L->Field->getType() : L->V->getType();
  if (!T->isIntegerType() || *C == std::numeric_limits<long long>::min() ||
      *C == std::numeric_limits<long long>::max())
    return std::nullopt;
  if (!Positive)
    Op = BinaryOperator::negateComparisonOp(Op);
  L->Rel = Op == BO_GT || Op == BO_GE ? +1 : -1;
  L->C = Op == BO_GT ? *C + 1 : Op == BO_LT ? *C - 1 : *C;
  return L;
}

} // namespace clang::tidy::cuda
