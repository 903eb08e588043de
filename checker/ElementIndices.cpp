//===--- ElementIndices.cpp - Indices that name different elements --------===//
//
// See ElementIndices.h. Integer expressions are read as linear forms `a*x +
// b` of one variable, modular forms `(a*x + b) % m`, and `x ^ c`; two forms
// of the same variable differ when no value of it makes them equal (in
// wrapping unsigned arithmetic too: `x + 1 == x` and `1 - x == x` have no
// solution modulo 2^n).
//
// May call: AccessPath (integerConstant).
//
//===----------------------------------------------------------------------===//

#include "ElementIndices.h"
#include "clang/AST/ExprCXX.h"
#include <optional>

namespace clang::tidy::cuda {

namespace {

const Expr *bare(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *C = dyn_cast<ExplicitCastExpr>(E);
    if (!C || !C->getType()->isIntegralOrEnumerationType())
      return E;
    E = C->getSubExpr();
  }
}

const VarDecl *integerVar(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(bare(E));
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return V && V->getType()->isIntegralOrEnumerationType() &&
                 !V->getType()->isReferenceType()
             ? V
             : nullptr;
}

/// a*X + b; X null for a constant.
struct Linear {
  const VarDecl *X = nullptr;
  long long A = 0, B = 0;
};

std::optional<Linear> linear(const Expr *E) {
  E = bare(E);
  if (auto C = integerConstant(E))
    return Linear{nullptr, 0, *C};
  if (const VarDecl *V = integerVar(E))
    return Linear{V, 1, 0};
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    auto L = linear(U->getSubExpr());
    if (!L || (U->getOpcode() != UO_Minus && U->getOpcode() != UO_Plus))
      return std::nullopt;
    if (U->getOpcode() == UO_Minus) {
      L->A = -L->A;
      L->B = -L->B;
    }
    return L;
  }
  const auto *Bin = dyn_cast<BinaryOperator>(E);
  if (!Bin)
    return std::nullopt;
  auto L = linear(Bin->getLHS()), R = linear(Bin->getRHS());
  if (!L || !R)
    return std::nullopt;
  switch (Bin->getOpcode()) {
  case BO_Add:
  case BO_Sub: {
    if (L->X && R->X && L->X != R->X)
      return std::nullopt;
    long long Sign = Bin->getOpcode() == BO_Add ? 1 : -1;
    return Linear{L->X ? L->X : R->X, L->A + Sign * R->A, L->B + Sign * R->B};
  }
  case BO_Mul:
    if (!L->X)
      std::swap(L, R);
    if (R->X)
      return std::nullopt; // x * y
    return Linear{L->X, L->A * R->B, L->B * R->B};
  default:
    return std::nullopt;
  }
}

/// (linear) % M, or (linear) & (M - 1) for M a power of two.
struct Modular {
  Linear L;
  long long M = 0;
};

std::optional<Modular> modular(const Expr *E) {
  const auto *Bin = dyn_cast<BinaryOperator>(bare(E));
  if (!Bin || (Bin->getOpcode() != BO_Rem && Bin->getOpcode() != BO_And))
    return std::nullopt;
  auto L = linear(Bin->getLHS());
  auto M = integerConstant(bare(Bin->getRHS()));
  if (!L || !L->X || !M || *M <= 0)
    return std::nullopt;
  if (Bin->getOpcode() == BO_And) {
    long long Size = *M + 1;
    if (Size <= 0 || (Size & (Size - 1)) != 0)
      return std::nullopt;
    return Modular{*L, Size};
  }
  return Modular{*L, *M};
}

/// x ^ C (x itself: C = 0).
std::optional<std::pair<const VarDecl *, long long>> xorOf(const Expr *E) {
  E = bare(E);
  if (const VarDecl *V = integerVar(E))
    return std::make_pair(V, 0LL);
  const auto *Bin = dyn_cast<BinaryOperator>(E);
  if (!Bin || Bin->getOpcode() != BO_Xor)
    return std::nullopt;
  const Expr *Var = Bin->getLHS(), *Const = Bin->getRHS();
  if (!integerVar(Var))
    std::swap(Var, Const);
  const VarDecl *V = integerVar(Var);
  auto C = integerConstant(bare(Const));
  if (!V || !C)
    return std::nullopt;
  return std::make_pair(V, *C);
}

/// `!x`: x.
const VarDecl *negated(const Expr *E) {
  const auto *U = dyn_cast<UnaryOperator>(bare(E));
  return U && U->getOpcode() == UO_LNot ? integerVar(U->getSubExpr())
                                        : nullptr;
}

} // namespace

bool indicesDiffer(const Expr *A, const Expr *B) {
  if (!A || !B)
    return false;
  auto LA = linear(A), LB = linear(B);
  if (LA && LB) {
    if (!LA->X && !LB->X)
      return LA->B != LB->B;
    if (LA->X != LB->X)
      return false; // another variable, or a constant against a variable
    if (LA->A == LB->A)
      return LA->B != LB->B;
    if (LA->A == -LB->A && LA->A != 0) // a*x + b1 == -a*x + b2: 2ax = b2-b1
      return (LB->B - LA->B) % (2 * LA->A) != 0;
    return false;
  }
  auto MA = modular(A), MB = modular(B);
  if (MA && MB && MA->M == MB->M && MA->L.X == MB->L.X &&
      MA->L.A == MB->L.A)
    return (MA->L.B - MB->L.B) % MA->M != 0;
  auto XA = xorOf(A), XB = xorOf(B);
  if (XA && XB && XA->first == XB->first)
    return XA->second != XB->second;
  const VarDecl *NA = negated(A), *NB = negated(B);
  return (NA && NA == integerVar(B)) || (NB && NB == integerVar(A));
}

bool differentElements(const AccessPath &A, const AccessPath &B) {
  using RK = AccessPath::RootKind;
  if (A.rootKind() != B.rootKind() ||
      (A.rootKind() != RK::Decl && A.rootKind() != RK::This) ||
      A.rootDecl() != B.rootDecl())
    return false;
  for (size_t I = 0; I < A.steps().size() && I < B.steps().size(); ++I) {
    const PathStep &SA = A.steps()[I], &SB = B.steps()[I];
    if (SA.K != SB.K || SA.K == PathStep::Call)
      return false;
    if (SA.K != PathStep::Index) {
      if (SA.Member != SB.Member)
        return false;
      continue;
    }
    if (SA.Front || SB.Front || !SA.IndexExpr || !SB.IndexExpr)
      return false;
    if (indicesDiffer(SA.IndexExpr, SB.IndexExpr))
      return true;
    if (AccessPath::of(SA.IndexExpr) != AccessPath::of(SB.IndexExpr))
      return false; // not known to be the same element either
  }
  return false;
}

bool indicesRead(const AccessPath &P, const VarDecl *V) {
  std::set<const VarDecl *> Vars;
  for (const PathStep &S : P.steps())
    if (S.K == PathStep::Index && S.IndexExpr)
      indexVariables(S.IndexExpr, Vars);
  return Vars.count(V);
}

bool indexVariables(const Expr *Index, std::set<const VarDecl *> &Vars) {
  const Expr *E = bare(Index);
  if (integerConstant(E))
    return true;
  if (const VarDecl *V = integerVar(E)) {
    Vars.insert(V);
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus ||
            U->getOpcode() == UO_LNot) &&
           indexVariables(U->getSubExpr(), Vars);
  if (const auto *Bin = dyn_cast<BinaryOperator>(E))
    return (Bin->isAdditiveOp() || Bin->isMultiplicativeOp() ||
            Bin->isBitwiseOp()) &&
           indexVariables(Bin->getLHS(), Vars) &&
           indexVariables(Bin->getRHS(), Vars);
  return false;
}

} // namespace clang::tidy::cuda
