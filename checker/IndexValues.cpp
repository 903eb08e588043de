//===--- IndexValues.cpp - Values of integer index expressions ------------===//
//
// See IndexValues.h. evaluateAt computes in 128-bit integers and fits each
// result to the C++ type of its expression; FunctionFacts::valueRange
// iterates the writes of a variable over the values it may hold until the
// interval stops growing (each round evaluates every write at every value,
// so it only runs while the interval is small).
//
// May call: AccessPath (integerConstant), ExprUtils (evalInt),
// FunctionFacts.
//
//===----------------------------------------------------------------------===//

#include "IndexValues.h"
#include "AccessPath.h"
#include "ExprUtils.h"
#include "FunctionFacts.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

namespace {

using Wide = __int128;

/// N of `a.size()` for `a` a std::array<T, N>; nullopt otherwise.
std::optional<long long> stdArraySize(const Expr *E) {
  const auto *C = dyn_cast<CXXMemberCallExpr>(E);
  const CXXMethodDecl *M = C ? C->getMethodDecl() : nullptr;
  if (!M || C->getNumArgs() != 0 || !M->getIdentifier() ||
      M->getName() != "size")
    return std::nullopt;
  const auto *Spec =
      dyn_cast<ClassTemplateSpecializationDecl>(M->getParent());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      Spec->getName() != "array" || Spec->getTemplateArgs().size() != 2 ||
      Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return Spec->getTemplateArgs()[1].getAsIntegral().getExtValue();
}

/// V as a value of type T: modulo 2^width for unsigned types and
/// conversions (Convert), nullopt for a signed arithmetic result out of
/// range (an overflow).
std::optional<Wide> fit(Wide V, QualType T, const ASTContext &Ctx,
                        bool Convert) {
  if (T->isBooleanType())
    return Convert ? Wide(V != 0) : (V == 0 || V == 1 ? std::optional(V)
                                                       : std::nullopt);
  if (!T->isIntegralOrEnumerationType())
    return std::nullopt;
  unsigned Width = static_cast<unsigned>(Ctx.getTypeSize(T));
  if (Width == 0 || Width > 64)
    return std::nullopt;
  Wide Modulus = Wide(1) << Width;
  bool Unsigned = T->isUnsignedIntegerOrEnumerationType();
  Wide Lo = Unsigned ? 0 : -(Modulus / 2), Hi = Unsigned ? Modulus - 1
                                                         : Modulus / 2 - 1;
  if (V >= Lo && V <= Hi)
    return V;
  if (!Unsigned && !Convert)
    return std::nullopt;
  V %= Modulus;
  if (V < 0)
    V += Modulus;
  if (!Unsigned && V > Hi)
    V -= Modulus;
  return V;
}

/// L op R in type T for a multiplicative, additive, shift or bitwise
/// operator (C++ [expr.mul] to [expr.or]); nullopt for another operator,
/// a division by zero, a shift by a negative or too large amount, a left
/// shift of a negative value or a signed overflow.
std::optional<Wide> arithmetic(BinaryOperatorKind Op, Wide L, Wide R,
                               QualType T, const ASTContext &Ctx) {
  unsigned Width = static_cast<unsigned>(Ctx.getTypeSize(T));
  switch (Op) {
  case BO_Add:
    return fit(L + R, T, Ctx, false);
  case BO_Sub:
    return fit(L - R, T, Ctx, false);
  case BO_Mul:
    // Operands fit 64 bits: their product fits 128.
    return fit(L * R, T, Ctx, false);
  case BO_Div:
  case BO_Rem:
    if (R == 0)
      return std::nullopt;
    return fit(Op == BO_Div ? L / R : L % R, T, Ctx, false);
  case BO_Shl:
  case BO_Shr:
    if (R < 0 || R >= Width || (Op == BO_Shl && L < 0))
      return std::nullopt;
    return fit(Op == BO_Shl ? L << static_cast<int>(R)
                            : L >> static_cast<int>(R),
               T, Ctx, /*Convert=*/T->isUnsignedIntegerOrEnumerationType());
  case BO_And:
    return fit(L & R, T, Ctx, false);
  case BO_Or:
    return fit(L | R, T, Ctx, false);
  case BO_Xor:
    return fit(L ^ R, T, Ctx, false);
  default:
    return std::nullopt;
  }
}

struct Evaluator {
  const VarDecl *X;
  Wide XValue;
  const ASTContext &Ctx;

  std::optional<Wide> operator()(const Expr *E) const {
    if (!E)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *D = dyn_cast<DeclRefExpr>(E); D && X && D->getDecl() == X)
      return XValue;
    if (const auto *C = dyn_cast<CastExpr>(E))
      return cast(C);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return unary(U);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return binary(B);
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto Cond = (*this)(C->getCond());
      if (!Cond)
        return std::nullopt;
      return (*this)(*Cond ? C->getTrueExpr() : C->getFalseExpr());
    }
    if (auto C = indexConstant(E, Ctx))
      return *C;
    return std::nullopt;
  }

  std::optional<Wide> cast(const CastExpr *C) const {
    auto V = (*this)(C->getSubExpr());
    if (!V)
      return std::nullopt;
    switch (C->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      return V;
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral:
      return fit(C->getCastKind() == CK_BooleanToSignedIntegral ? -*V : *V,
                 C->getType(), Ctx, /*Convert=*/true);
    default:
      return std::nullopt;
    }
  }

  std::optional<Wide> unary(const UnaryOperator *U) const {
    auto V = (*this)(U->getSubExpr());
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_Plus:
      return V;
    case UO_Minus:
      return fit(-*V, U->getType(), Ctx, false);
    case UO_Not:
      return fit(~*V, U->getType(), Ctx, false);
    case UO_LNot:
      return Wide(*V == 0);
    default:
      return std::nullopt;
    }
  }

  std::optional<Wide> binary(const BinaryOperator *B) const {
    BinaryOperatorKind Op = B->getOpcode();
    auto L = (*this)(B->getLHS());
    if (!L)
      return std::nullopt;
    if (Op == BO_LAnd || Op == BO_LOr) {
      if ((Op == BO_LAnd) == (*L == 0))
        return Wide(Op == BO_LOr);
      auto R = (*this)(B->getRHS());
      return R ? std::optional<Wide>(*R != 0) : std::nullopt;
    }
    auto R = (*this)(B->getRHS());
    if (!R)
      return std::nullopt;
    switch (Op) {
    case BO_LT:
      return Wide(*L < *R);
    case BO_GT:
      return Wide(*L > *R);
    case BO_LE:
      return Wide(*L <= *R);
    case BO_GE:
      return Wide(*L >= *R);
    case BO_EQ:
      return Wide(*L == *R);
    case BO_NE:
      return Wide(*L != *R);
    default:
      return arithmetic(Op, *L, *R, B->getType(), Ctx);
    }
  }
};

} // namespace

const VarDecl *indexVariable(const Expr *E) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return V && V->getType()->isIntegralOrEnumerationType() &&
                 !V->getType()->isReferenceType()
             ? V
             : nullptr;
}

std::optional<long long> indexConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (auto N = stdArraySize(E))
    return N;
  if (auto C = integerConstant(E))
    return C;
  if (E->isValueDependent() || E->isInstantiationDependent())
    return std::nullopt;
  return evalInt(E, Ctx);
}

std::optional<long long> evaluateAt(const Expr *E, const VarDecl *X,
                                    long long XValue, const ASTContext &Ctx) {
  std::optional<Wide> V = Evaluator{X, XValue, Ctx}(E);
  if (!V || *V < Wide(LLONG_MIN) || *V > Wide(LLONG_MAX))
    return std::nullopt;
  return static_cast<long long>(*V);
}

bool indexExprVariables(const Expr *E, std::set<const VarDecl *> &Vars,
                        const ASTContext &Ctx) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (indexConstant(E, Ctx))
    return true;
  if (const VarDecl *V = indexVariable(E)) {
    Vars.insert(V);
    return true;
  }
  if (const auto *C = dyn_cast<CastExpr>(E))
    return (C->getType()->isIntegralOrEnumerationType() ||
            C->getCastKind() == CK_LValueToRValue) &&
           indexExprVariables(C->getSubExpr(), Vars, Ctx);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return (U->getOpcode() == UO_Plus || U->getOpcode() == UO_Minus ||
            U->getOpcode() == UO_Not || U->getOpcode() == UO_LNot) &&
           indexExprVariables(U->getSubExpr(), Vars, Ctx);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           !B->isPtrMemOp() && indexExprVariables(B->getLHS(), Vars, Ctx) &&
           indexExprVariables(B->getRHS(), Vars, Ctx);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return indexExprVariables(C->getCond(), Vars, Ctx) &&
           indexExprVariables(C->getTrueExpr(), Vars, Ctx) &&
           indexExprVariables(C->getFalseExpr(), Vars, Ctx);
  return false;
}

//===----------------------------------------------------------------------===//
// FunctionFacts::valueRange
//===----------------------------------------------------------------------===//

/// The value write At (an entry of writesOf(V)) gives V when V held Old:
/// its initializer, `v = e`, `v op= e`, `++v`, `v--`; nullopt for any
/// other write or a value evaluateAt cannot give.
static std::optional<long long> writtenValue(const VarDecl *V, const Stmt *At,
                                             long long Old,
                                             const ASTContext &Ctx) {
  QualType T = V->getType();
  auto Fit = [&](std::optional<long long> R) -> std::optional<long long> {
    if (!R)
      return std::nullopt;
    auto F = fit(*R, T, Ctx, /*Convert=*/true);
    return F ? std::optional<long long>(static_cast<long long>(*F))
             : std::nullopt;
  };
  if (At == V->getInit())
    return Fit(evaluateAt(V->getInit(), V, Old, Ctx));
  if (const auto *U = dyn_cast<UnaryOperator>(At);
      U && U->isIncrementDecrementOp()) {
    Wide New = Wide(Old) + (U->isIncrementOp() ? 1 : -1);
    auto F = fit(New, T, Ctx, /*Convert=*/false);
    return F ? std::optional<long long>(static_cast<long long>(*F))
             : std::nullopt;
  }
  const auto *B = dyn_cast<BinaryOperator>(At);
  if (!B || !B->isAssignmentOp() ||
      indexVariable(B->getLHS()->IgnoreParens()) != V)
    return std::nullopt;
  auto R = evaluateAt(B->getRHS(), V, Old, Ctx);
  if (!R)
    return std::nullopt;
  if (B->getOpcode() == BO_Assign)
    return Fit(R);
  // `v op= e`: v op e in the computation type, converted back to v's.
  const auto *CA = dyn_cast<CompoundAssignOperator>(B);
  if (!CA)
    return std::nullopt;
  BinaryOperatorKind Op =
      BinaryOperator::getOpForCompoundAssignment(B->getOpcode());
  if (Op == BO_Div || Op == BO_Shl || Op == BO_Shr)
    return std::nullopt; // `v /= e`, `v <<= e`, `v >>= e`: not followed
  auto L = fit(Old, CA->getComputationLHSType(), Ctx, /*Convert=*/true);
  std::optional<Wide> New =
      L ? arithmetic(Op, *L, *R, CA->getComputationResultType(), Ctx)
        : std::nullopt;
  return New ? Fit(static_cast<long long>(*New)) : std::nullopt;
}

std::optional<IndexInterval>
FunctionFacts::writtenRange(const VarDecl *V) const {
  if (auto It = WrittenRanges.find(V); It != WrittenRanges.end())
    return It->second;
  std::optional<IndexInterval> &Result = WrittenRanges[V];
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      !V->getType()->isIntegralOrEnumerationType() ||
      V->getType()->isReferenceType() || V->getType().isVolatileQualified() ||
      AddressTaken.count(V))
    return Result;
  auto Init = writtenValue(V, V->getInit(), 0, Ctx);
  if (!Init)
    return Result;
  IndexInterval R{*Init, *Init};
  // Each round widens R by what one more write may give, evaluating the
  // writes at the values added in the last round only; a variable kept in
  // a small range stops growing within as many rounds as it has values.
  Wide DoneLo = R.Lo + 1, DoneHi = R.Lo; // none evaluated yet
  while (true) {
    IndexInterval Next = R;
    for (const Stmt *At : writesOf(V))
      for (Wide X = R.Lo; X <= R.Hi; ++X) {
        if (X >= DoneLo && X <= DoneHi)
          continue;
        auto New = writtenValue(V, At, static_cast<long long>(X), Ctx);
        if (!New)
          return Result;
        Next.Lo = std::min<Wide>(Next.Lo, *New);
        Next.Hi = std::max<Wide>(Next.Hi, *New);
      }
    DoneLo = R.Lo;
    DoneHi = R.Hi;
    if (Next == R)
      return Result = R;
    if (Next.Hi - Next.Lo >= MaxEnumeratedValues)
      return Result;
    R = Next;
  }
}

std::optional<IndexInterval>
FunctionFacts::counterRange(const VarDecl *V, const Stmt *At) const {
  for (const Stmt *S = PM.getParent(At); S; S = PM.getParent(S)) {
    const auto *L = dyn_cast<ForStmt>(S);
    if (!L || !L->getBody() || !within(At, L->getBody()) ||
        counterOf(L) != V || !stepsByOne(L, V))
      continue;
    auto [Var, Init] = forInit(L);
    auto [Op, Bound] = counterTest(L, V);
    std::optional<long long> Lo =
        Var == V && Init ? evalInt(Init, Ctx) : std::nullopt;
    // `i < e` compared in i's own width: e is at most the type's largest
    // value, so i stays below it and i + 1 does not wrap; so for `i != e`
    // from 0, which stops at e before it could pass it.
    if (!Lo || !Bound || !(Op == BO_LT || (Op == BO_NE && *Lo == 0)))
      return std::nullopt;
    const auto *Test =
        cast<BinaryOperator>(L->getCond()->IgnoreParenImpCasts());
    QualType T = V->getType();
    if (Ctx.getTypeSize(Test->getLHS()->getType()) != Ctx.getTypeSize(T))
      return std::nullopt;
    Wide Max = (Wide(1) << Ctx.getTypeSize(T)) - 1;
    if (!T->isUnsignedIntegerOrEnumerationType())
      Max /= 2;
    return IndexInterval{*Lo, Max - 1};
  }
  return std::nullopt;
}

std::optional<IndexInterval>
FunctionFacts::valueRange(const VarDecl *V, const Stmt *At) const {
  std::optional<IndexInterval> R = writtenRange(V);
  auto Meet = [&](std::optional<IndexInterval> O) {
    if (!O)
      return;
    R = R ? IndexInterval{std::max(R->Lo, O->Lo), std::min(R->Hi, O->Hi)} : O;
  };
  if (At) {
    if (auto L = loopRange(V, At))
      Meet(IndexInterval{L->first, L->second - 1});
    Meet(counterRange(V, At));
  }
  if (R && R->Lo > R->Hi)
    return std::nullopt; // code that does not run
  return R;
}

} // namespace clang::tidy::cuda
