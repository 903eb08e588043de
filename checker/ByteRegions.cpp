//===--- ByteRegions.cpp - Which bytes of a buffer a copy or access names -===//

#include "ByteRegions.h"
#include "AccessPath.h"
#include "CudaApiModel.h"
#include "ExprUtils.h"
#include "FunctionFacts.h"
#include "clang/AST/ExprCXX.h"
#include <limits>

namespace clang::tidy::cuda {
namespace {

/// sizeof(T) in bytes, for a complete object type; nullopt otherwise
/// (void, incomplete, dependent, function types).
std::optional<long long> sizeOf(const FunctionFacts &F, QualType T) {
  if (T.isNull() || T->isDependentType() || T->isIncompleteType() ||
      T->isVoidType() || T->isFunctionType() || T->isSizelessType())
    return std::nullopt;
  long long N = F.Ctx.getTypeSizeInChars(T).getQuantity();
  return N > 0 ? std::optional<long long>(N) : std::nullopt;
}

/// Offset + Sign * K * Size, or nullopt on overflow.
std::optional<long long> advance(long long Offset, long long K, long long Size,
                                 bool Negate) {
  long long Step = 0, Sum = 0;
  if (__builtin_mul_overflow(K, Size, &Step) ||
      (Negate && __builtin_mul_overflow(Step, -1LL, &Step)) ||
      __builtin_add_overflow(Offset, Step, &Sum))
    return std::nullopt;
  return Sum;
}

/// A pointer addition or subtraction of a constant (`p + 4`, `4 + p`,
/// `p - 4`): the pointer operand and the offset in bytes.
std::optional<std::pair<const Expr *, long long>>
constantStep(const FunctionFacts &F, const BinaryOperator *B) {
  if (!B->isAdditiveOp() || !B->getType()->isPointerType())
    return std::nullopt;
  bool PtrLeft = B->getLHS()->getType()->isPointerType();
  if (!PtrLeft && B->getOpcode() == BO_Sub)
    return std::nullopt;
  const Expr *Ptr = PtrLeft ? B->getLHS() : B->getRHS();
  std::optional<long long> K =
      F.constantArg(PtrLeft ? B->getRHS() : B->getLHS());
  std::optional<long long> Size = sizeOf(F, B->getType()->getPointeeType());
  if (!K || !Size)
    return std::nullopt;
  std::optional<long long> Off =
      advance(0, *K, *Size, B->getOpcode() == BO_Sub);
  if (!Off)
    return std::nullopt;
  return std::make_pair(Ptr, *Off);
}

/// `&v` as the pointer argument of an allocation (`cudaMallocHost(&v, n)`,
/// `cudaHostAlloc((void **)&v, n, f)`): v gets a new allocation there,
/// whose bytes are counted from its start as before.
bool allocatesInto(const FunctionFacts &F, const UnaryOperator *AddrOf) {
  const Stmt *S = AddrOf;
  const Stmt *P = F.PM.getParent(S);
  while (P && (isa<ParenExpr>(P) || isa<CastExpr>(P))) {
    S = P;
    P = F.PM.getParent(P);
  }
  const auto *C = dyn_cast_or_null<CallExpr>(P);
  const ApiEntry *E = C ? F.Model.lookup(F.calleeOf(C)) : nullptr;
  return E &&
         (E->Role == ApiRole::PinnedAlloc ||
          E->Role == ApiRole::DeviceAlloc) &&
         E->PtrForm == PtrArgForm::AddressOfPointer && arg(C, E->PtrArg) &&
         arg(C, E->PtrArg)->IgnoreParenCasts() == AddrOf;
}

/// The key of Root when it is a variable whose address the callable never
/// changes but by allocating into it: an array, or a local or parameter
/// pointer (not a reference, not captured from an enclosing function, not
/// captured by a lambda that may change it) each of whose occurrences is a
/// read of its value or `&v` handed to an allocation. Then `v + 256` names
/// the same bytes wherever it occurs. Empty otherwise.
std::string stableRoot(const FunctionFacts &F, const Expr *Root) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(Root);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V || V->getType()->isReferenceType())
    return "";
  std::string Key = AccessPath::ofDecl(V).key();
  if (V->getType()->isConstantArrayType())
    return Key;
  if (!V->getType()->isPointerType() || !V->hasLocalStorage() ||
      dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()) !=
          F.FD ||
      F.CapturedByRef.count(V))
    return "";
  for (const DeclRefExpr *Ref : F.refsOf(V)) {
    if (F.readsValue(Ref))
      continue;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(
            F.PM.getParentIgnoreParens(Ref));
        U && U->getOpcode() == UO_AddrOf && allocatesInto(F, U))
      continue;
    return ""; // assigned, incremented, bound to a reference, escaping
  }
  return Key;
}

} // namespace

bool disjoint(const std::optional<ByteRange> &A,
              const std::optional<ByteRange> &B) {
  return A && B && A->Root == B->Root && (A->Hi <= B->Lo || B->Hi <= A->Lo);
}

std::optional<ByteRange> copyRegion(const FunctionFacts &F, const CallExpr *C,
                                    const ApiEntry &E, const Expr *Dst,
                                    const Expr *Root) {
  if (E.SizeArg == NoArg || !Dst || !Root)
    return std::nullopt;
  // A count not known here still writes nothing before the destination.
  std::optional<long long> Count = F.constantArg(arg(C, E.SizeArg));
  std::string Key = stableRoot(F, Root);
  if ((Count && *Count <= 0) || Key.empty())
    return std::nullopt;
  long long Offset = 0;
  for (const Expr *X = Dst; strip(X) != Root;) {
    X = X->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(X)) {
      X = Cast->getSubExpr();
    } else if (const auto *B = dyn_cast<BinaryOperator>(X)) {
      auto Step = constantStep(F, B);
      std::optional<long long> Sum =
          Step ? advance(Offset, Step->second, 1, false) : std::nullopt;
      if (!Sum)
        return std::nullopt;
      Offset = *Sum;
      X = Step->first;
    } else if (const auto *U = dyn_cast<UnaryOperator>(X);
               U && U->getOpcode() == UO_AddrOf) {
      const auto *A =
          dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
      std::optional<long long> K =
          A ? F.constantArg(A->getIdx()) : std::nullopt;
      std::optional<long long> Size =
          A ? sizeOf(F, A->getType()) : std::nullopt;
      std::optional<long long> Sum =
          K && Size ? advance(Offset, *K, *Size, false) : std::nullopt;
      if (!Sum)
        return std::nullopt;
      Offset = *Sum;
      X = A->getBase();
    } else {
      return std::nullopt;
    }
  }
  long long End = std::numeric_limits<long long>::max();
  if (Offset < 0 || (Count && __builtin_add_overflow(Offset, *Count, &End)))
    return std::nullopt;
  return ByteRange{Key, Offset, End};
}

std::optional<ByteRange> accessRegion(const FunctionFacts &F,
                                      const Expr *Node) {
  std::string Key = stableRoot(F, Node);
  if (Key.empty())
    return std::nullopt;
  long long Offset = 0;
  const Expr *Cur = Node;
  auto Region = [&](long long Lo, QualType T) -> std::optional<ByteRange> {
    std::optional<long long> Size = sizeOf(F, T);
    long long Hi = 0;
    if (!Size || Lo < 0 || __builtin_add_overflow(Lo, *Size, &Hi))
      return std::nullopt;
    return ByteRange{Key, Lo, Hi};
  };
  for (;;) {
    const auto *P = dyn_cast_or_null<Expr>(F.PM.getParent(Cur));
    if (!P)
      return std::nullopt;
    if (isa<ParenExpr>(P) || isa<CastExpr>(P)) {
      if (!P->getType()->isPointerType() && !P->getType()->isArrayType())
        return std::nullopt; // a pointer's value turned into something else
      Cur = P;
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      auto Step = constantStep(F, B);
      std::optional<long long> Sum =
          Step && Step->first->IgnoreParens() == Cur
              ? advance(Offset, Step->second, 1, false)
              : std::nullopt;
      if (!Sum)
        return std::nullopt;
      Offset = *Sum;
      Cur = P;
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(P)) {
      std::optional<long long> K = F.constantArg(A->getIdx());
      std::optional<long long> Size = sizeOf(F, A->getType());
      if (A->getBase()->IgnoreParens() != Cur || !K || !Size)
        return std::nullopt;
      std::optional<long long> Lo = advance(Offset, *K, *Size, false);
      return Lo ? Region(*Lo, A->getType()) : std::nullopt;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P);
        U && U->getOpcode() == UO_Deref)
      return Region(Offset, U->getType());
    // `h->count`: the member's bytes within the object h points to.
    if (const auto *M = dyn_cast<MemberExpr>(P);
        M && M->isArrow() && M->getBase()->IgnoreParens() == Cur) {
      const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
      const RecordDecl *RD = FD ? FD->getParent() : nullptr;
      if (!FD || FD->isBitField() || !RD || RD->isInvalidDecl() ||
          !RD->isCompleteDefinition() || RD->isDependentType())
        return std::nullopt;
      std::optional<long long> Lo = advance(
          Offset, F.Ctx.getFieldOffset(FD) / F.Ctx.getCharWidth(), 1, false);
      return Lo ? Region(*Lo, FD->getType()) : std::nullopt;
    }
    return std::nullopt;
  }
}

} // namespace clang::tidy::cuda
