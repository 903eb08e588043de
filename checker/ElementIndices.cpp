//===--- ElementIndices.cpp - Indices that name different elements --------===//
//
// See ElementIndices.h. Integer expressions are read as linear forms `a*x +
// b` of one variable, modular forms `(a*x + b) % m`, and `x ^ c`; two forms
// of the same variable differ when no value of it makes them equal (in
// wrapping unsigned arithmetic too: `x + 1 == x` and `1 - x == x` have no
// solution modulo 2^n).
//
// May call: IndexValues (indexConstant, indexVariable; evaluateAt, for
// variables of few values).
//
//===----------------------------------------------------------------------===//

#include "ElementIndices.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>
#include <optional>

namespace clang::tidy::cuda {

namespace {

/// E through parentheses and the casts that keep every value distinct
/// (to an integer type at least as wide): not `(uint8_t)(h + 256)`.
const Expr *bare(const Expr *E, const ASTContext &Ctx) {
  while (true) {
    E = E->IgnoreParens();
    const auto *C = dyn_cast<CastExpr>(E);
    if (!C || !C->getType()->isIntegralOrEnumerationType())
      return E;
    QualType From = C->getSubExpr()->getType();
    if (C->getCastKind() != CK_LValueToRValue && C->getCastKind() != CK_NoOp &&
        (!From->isIntegralOrEnumerationType() ||
         Ctx.getTypeSize(C->getType()) < Ctx.getTypeSize(From)))
      return E;
    E = C->getSubExpr();
  }
}

/// The width in bits of wrapping arithmetic on E, 0 where it does not
/// wrap (signed: overflow is undefined).
unsigned wrapWidth(const Expr *E, const ASTContext &Ctx) {
  QualType T = E->getType();
  return T->isUnsignedIntegerOrEnumerationType()
             ? static_cast<unsigned>(Ctx.getTypeSize(T))
             : 0;
}

/// B1 - B2 is not a multiple of 2^Width (of any number when Width is 0).
bool apart(long long B1, long long B2, unsigned Width) {
  if (B1 == B2)
    return false;
  if (Width == 0 || Width >= 64)
    return true;
  unsigned long long D = static_cast<unsigned long long>(B1) -
                         static_cast<unsigned long long>(B2);
  return (D & ((1ULL << Width) - 1)) != 0;
}

const VarDecl *integerVar(const Expr *E, const ASTContext &Ctx) {
  return indexVariable(bare(E, Ctx));
}

/// a*X + b; X null for a constant.
struct Linear {
  const VarDecl *X = nullptr;
  long long A = 0, B = 0;
};

std::optional<Linear> linear(const Expr *E, const ASTContext &Ctx) {
  E = bare(E, Ctx);
  if (auto C = indexConstant(E, Ctx))
    return Linear{nullptr, 0, *C};
  if (const VarDecl *V = integerVar(E, Ctx))
    return Linear{V, 1, 0};
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    auto L = linear(U->getSubExpr(), Ctx);
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
  auto L = linear(Bin->getLHS(), Ctx), R = linear(Bin->getRHS(), Ctx);
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

std::optional<Modular> modular(const Expr *E, const ASTContext &Ctx) {
  const auto *Bin = dyn_cast<BinaryOperator>(bare(E, Ctx));
  if (!Bin || (Bin->getOpcode() != BO_Rem && Bin->getOpcode() != BO_And))
    return std::nullopt;
  auto L = linear(Bin->getLHS(), Ctx);
  auto M = indexConstant(bare(Bin->getRHS(), Ctx), Ctx);
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
std::optional<std::pair<const VarDecl *, long long>>
xorOf(const Expr *E, const ASTContext &Ctx) {
  E = bare(E, Ctx);
  if (const VarDecl *V = integerVar(E, Ctx))
    return std::make_pair(V, 0LL);
  const auto *Bin = dyn_cast<BinaryOperator>(E);
  if (!Bin || Bin->getOpcode() != BO_Xor)
    return std::nullopt;
  const Expr *Var = Bin->getLHS(), *Const = Bin->getRHS();
  if (!integerVar(Var, Ctx))
    std::swap(Var, Const);
  const VarDecl *V = integerVar(Var, Ctx);
  auto C = indexConstant(bare(Const, Ctx), Ctx);
  if (!V || !C)
    return std::nullopt;
  return std::make_pair(V, *C);
}

/// `!x`: x.
const VarDecl *negated(const Expr *E, const ASTContext &Ctx) {
  const auto *U = dyn_cast<UnaryOperator>(bare(E, Ctx));
  // `!x` is 1 where x is 0 and 0 elsewhere: never x, whatever x's
  // conversion to bool.
  return U && U->getOpcode() == UO_LNot
             ? integerVar(U->getSubExpr()->IgnoreParenImpCasts(), Ctx)
             : nullptr;
}

} // namespace

/// L's value stays in [0, 2^Width) over X's interval I: unsigned
/// arithmetic computes it without wrapping (a linear form is extreme at
/// the ends of an interval).
static bool staysInRange(const Linear &L, const IndexInterval &I,
                         unsigned Width) {
  constexpr long long Bound = 1LL << 62;
  if (!L.X || Width == 0 || Width > 64 || L.A <= -Bound || L.A >= Bound)
    return false;
  __int128 Top = (__int128(1) << Width) - 1;
  for (__int128 X : {I.Lo, I.Hi}) {
    __int128 V = __int128(L.A) * X + L.B;
    if (V < 0 || V > Top)
      return false;
  }
  return true;
}

/// The symbolic rules of indicesDiffer, on X's interval where known.
static bool formsDiffer(const Expr *A, const Expr *B, const ASTContext &Ctx,
                        IndexRanges Ranges) {
  unsigned Width =
      std::max(wrapWidth(bare(A, Ctx), Ctx), wrapWidth(bare(B, Ctx), Ctx));
  // Neither form wraps over its variable's interval: exact arithmetic.
  auto Exact = [&](const Linear &LA, const Linear &LB) {
    if (Width == 0)
      return true;
    std::optional<IndexInterval> I =
        Ranges && LA.X ? Ranges(LA.X) : std::nullopt;
    return I && LA.X == LB.X && staysInRange(LA, *I, Width) &&
           staysInRange(LB, *I, Width);
  };
  auto LA = linear(A, Ctx), LB = linear(B, Ctx);
  if (LA && LB) {
    if (!LA->X && !LB->X)
      return apart(LA->B, LB->B, Width);
    if (LA->X != LB->X)
      return false; // another variable, or a constant against a variable
    if (LA->A == LB->A)
      return apart(LA->B, LB->B, Exact(*LA, *LB) ? 0 : Width);
    // x + b1 == -x + b2: 2x == b2 - b1, never for an odd difference (in
    // wrapping arithmetic too).
    if (LA->A == -LB->A && (LA->A == 1 || LA->A == -1))
      return (LB->B - LA->B) % 2 != 0;
    return false;
  }
  auto MA = modular(A, Ctx), MB = modular(B, Ctx);
  // Wrapping arithmetic keeps residues only modulo a power of two.
  if (MA && MB && MA->M == MB->M && MA->L.X == MB->L.X &&
      MA->L.A == MB->L.A &&
      ((MA->M & (MA->M - 1)) == 0 || Exact(MA->L, MB->L)))
    return (MA->L.B - MB->L.B) % MA->M != 0;
  auto XA = xorOf(A, Ctx), XB = xorOf(B, Ctx);
  if (XA && XB && XA->first == XB->first)
    return XA->second != XB->second;
  const VarDecl *NA = negated(A, Ctx), *NB = negated(B, Ctx);
  return (NA && NA == integerVar(B, Ctx)) || (NB && NB == integerVar(A, Ctx));
}

/// std::basic_string or std::basic_string_view.
static bool isStdString(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         (RD->getName() == "basic_string" ||
          RD->getName() == "basic_string_view");
}

/// A string literal key (`m["loss"]`, also through the std::string made
/// from it), or null.
static const StringLiteral *stringKey(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() >= 1 && isStdString(C->getType()))
      E = C->getArg(0); // std::string("loss"), its allocator defaulted
    else
      break;
  }
  return dyn_cast_or_null<StringLiteral>(E);
}

bool indicesDiffer(const Expr *A, const Expr *B, const ASTContext &Ctx,
                   IndexRanges Ranges) {
  if (!A || !B)
    return false;
  // Two keys spelled as different string literals (`staging["loss"]` and
  // `staging["acc"]` of a map): two elements.
  if (const StringLiteral *KA = stringKey(A), *KB = stringKey(B); KA && KB)
    return KA->getBytes() != KB->getBytes();
  if (formsDiffer(A, B, Ctx, Ranges))
    return true;
  // Indices of one variable whose values are few: compare them at each.
  std::set<const VarDecl *> Vars;
  if (!indexExprVariables(A, Vars, Ctx) || !indexExprVariables(B, Vars, Ctx) ||
      Vars.size() > 1)
    return false;
  const VarDecl *X = Vars.empty() ? nullptr : *Vars.begin();
  IndexInterval I;
  if (X) {
    std::optional<IndexInterval> R = Ranges ? Ranges(X) : std::nullopt;
    if (!R || R->Hi - R->Lo >= MaxEnumeratedValues)
      return false;
    I = *R;
  }
  for (__int128 V = I.Lo; V <= I.Hi; ++V) {
    auto VA = evaluateAt(A, X, static_cast<long long>(V), Ctx);
    auto VB = evaluateAt(B, X, static_cast<long long>(V), Ctx);
    if (!VA || !VB || *VA == *VB)
      return false;
  }
  return true;
}

bool differentElements(const AccessPath &A, const AccessPath &B,
                       const ASTContext &Ctx, IndexRanges Ranges) {
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
    if (indicesDiffer(SA.IndexExpr, SB.IndexExpr, Ctx, Ranges))
      return true;
    if (AccessPath::of(SA.IndexExpr) != AccessPath::of(SB.IndexExpr))
      return false; // not known to be the same element either
  }
  return false;
}

bool hasStringKey(const AccessPath &P) {
  return llvm::any_of(P.steps(), [](const PathStep &S) {
    return S.K == PathStep::Index && stringKey(S.IndexExpr);
  });
}

bool pathIndexVariables(const AccessPath &P, std::set<const VarDecl *> &Vars,
                        const ASTContext &Ctx) {
  bool Read = true;
  for (const PathStep &S : P.steps())
    if (S.K == PathStep::Index && S.IndexExpr && !stringKey(S.IndexExpr))
      Read &= indexExprVariables(S.IndexExpr, Vars, Ctx);
  return Read;
}

} // namespace clang::tidy::cuda
