//===--- PointerValues.cpp - Local pointers followed by value -------------===//
//
// One concern: which buffer a local pointer that the function re-points
// names at each point, so that a double buffer (`cudaMemcpyAsync(next, ..);
// use(cur); cudaStreamSynchronize(s); std::swap(cur, next);`) is two
// buffers, though the alias classes (AccessPath.h), which do not follow
// the order of statements, make `cur` and `next` one.
//
//  - Facts (FunctionFacts::collectFollowedPointers): the followed pointers
//    and their definitions (assignments, swaps, initialisers, allocations
//    through their address).
//  - Transfers (Solver): a copy issued through a followed pointer is held
//    by it, and by every followed pointer whose value is the same
//    (holdersAtIssue); a definition `v = w` makes v hold what w holds, `v =
//    x` what x's path names (repoint). A host access through a followed
//    pointer reports only the pending copies it holds (Solver::report).
//
// Values are paths (AccessPath) of what a pointer was given, or a symbol
// (AccessPath::temporary of the defining expression) for "what w held
// there" where w's own value is not known, and pairs of followed pointers
// that may be equal on some path (PendingState::MayEqual: `next = cur;`
// under an `if`, or a swap written without a temporary, reaching a loop's
// head). Two pointers neither known equal nor of values that may meet are
// taken for different buffers, as two different variables are elsewhere
// in the check. Paths meet when one is reached through the other, when
// they have one root and may be the same (`bufs[i]`, `bufs[j]`), or when
// assignments outside the followed pointers make them aliases
// (FunctionFacts::ValueClasses: `next = base + 64`, `float *ring[2] = {a,
// b}`).
//
// May call: FunctionFacts (allocation targets, varOf), AccessPath,
// ExprUtils.
//
//===----------------------------------------------------------------------===//

#include "ExprUtils.h"
#include "FunctionFacts.h"
#include "Solver.h"

namespace clang::tidy::cuda {

namespace {

/// A value no expression gives (a new allocation, a null pointer).
bool isFreshValue(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return true;
  E = E->IgnoreParenImpCasts();
  return isa<CXXNewExpr>(E) || isPageableAllocation(E) ||
         E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
}

/// P with its root replaced by Root (`cur->host` with `a` for `cur`):
/// members kept, indices any, nullopt past a call step.
std::optional<AccessPath> rebased(const AccessPath &P,
                                  const AccessPath &Root) {
  AccessPath R = Root;
  for (const PathStep &S : P.steps()) {
    if (S.K == PathStep::Call)
      return std::nullopt;
    R = S.K == PathStep::Index
            ? R.withAnyIndex()
            : R.withMember(S.Member, S.K == PathStep::Arrow);
  }
  return R;
}

/// Whether a pointer of value V reaches the destination Target: V is the
/// same path, or one Target is reached through (`a` for `a->host`), or a
/// path of the same root that may be the same (`bufs[i]`, `bufs[j]`), or
/// one the value classes make an alias of it. Two symbols are two values; a
/// symbol may be any other value.
bool mayPointTo(const AccessPath &V, const AccessPath &Target,
                AliasClasses &Values) {
  using RK = AccessPath::RootKind;
  if (Target.within(V))
    return true;
  bool SymV = V.rootKind() == RK::Temporary;
  bool SymT = Target.rootKind() == RK::Temporary;
  if (SymV || SymT)
    return SymV != SymT;
  bool SameRoot = V.rootKind() == Target.rootKind() &&
                  (V.rootKind() == RK::This ||
                   (V.rootKind() == RK::Decl &&
                    V.rootDecl() == Target.rootDecl()));
  if (SameRoot && relate(V, Target) != PathRelation::Distinct)
    return true;
  if (V.rootKind() != RK::Decl && V.rootKind() != RK::This)
    return true; // a call's result, an expression: any pointer
  return Values.classKey(V) == Values.classKey(Target);
}

/// The value expression a definition gives, through a helper that returns
/// its argument (`cur = same(next)`) and std::move.
const Expr *definedValue(const Expr *E, const FunctionFacts &F) {
  for (const Expr *Arg = E ? F.returnedArgument(E) : nullptr; Arg;
       Arg = F.returnedArgument(Arg))
    E = Arg;
  return E;
}

} // namespace

void FunctionFacts::collectFollowedPointers() {
  // An allocation through a pointer's address (`cudaMallocHost(&cur, n)`)
  // is a definition: a new buffer. Any other address taken: not followed.
  std::set<const Expr *> Allocated; // the `cur` of each such allocation
  std::vector<std::pair<const VarDecl *, const CallExpr *>> Allocations;
  for (const CallExpr *C : Calls)
    if (const ApiEntry *E = lookup(C);
        E &&
        (E->Role == ApiRole::PinnedAlloc || E->Role == ApiRole::DeviceAlloc) &&
        E->PtrForm == PtrArgForm::AddressOfPointer)
      if (const Expr *T = allocTarget(C, *E); const VarDecl *V = varOf(T)) {
        Allocated.insert(T);
        Allocations.push_back({V, C});
      }
  std::set<const VarDecl *> Escaped;
  for (const Expr *E : Candidates) {
    const auto *D = dyn_cast<DeclRefExpr>(E);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    const auto *U = V && AddressTaken.count(V)
                        ? dyn_cast_or_null<UnaryOperator>(
                              PM.getParentIgnoreParens(D))
                        : nullptr;
    if (U && U->getOpcode() == UO_AddrOf && !Allocated.count(D))
      Escaped.insert(V);
  }
  auto Eligible = [&](const VarDecl *V) {
    return V && V->hasLocalStorage() && V->getType()->isPointerType() &&
           !V->getType()->isFunctionPointerType() && !Escaped.count(V) &&
           !CapturedByRef.count(V) && !BoundToReference.count(V);
  };
  for (const Assignment &A : Assigns)
    if (A.Lhs && Eligible(A.Var))
      FollowedPointers.insert(A.Var);
  if (FollowedPointers.empty())
    return;
  // `float *tmp = cur;` of a swap by hand holds what cur held.
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const Assignment &A : Assigns)
      if (!A.Lhs && Eligible(A.Var) && !FollowedPointers.count(A.Var) &&
          isFollowedPointer(varOf(bufferRoot(A.Rhs))))
        Grew |= FollowedPointers.insert(A.Var).second;
  }
  // A followed pointer whose value is stored where no followed pointer
  // holds it (`ptrs[1] = next`, `Slot{next}`, `float *p = next` of a
  // pointer not followed, a constructor's argument) is not followed: a copy
  // through that place would not be charged to it.
  auto StoredElsewhere = [&](const DeclRefExpr *D) {
    const Stmt *Child = D;
    const Stmt *P = PM.getParent(D);
    while (P && (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr>(P) ||
                 (isa<BinaryOperator>(P) &&
                  cast<BinaryOperator>(P)->isAdditiveOp()) ||
                 (isa<ConditionalOperator>(P) &&
                  cast<ConditionalOperator>(P)->getCond() != Child))) {
      Child = P;
      P = PM.getParent(P);
    }
    if (!P)
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(P);
        B && B->getOpcode() == BO_Assign && B->getRHS() == Child)
      return !isFollowedPointer(varOf(B->getLHS()));
    if (const auto *DS = dyn_cast<DeclStmt>(P))
      return llvm::any_of(DS->decls(), [&](const Decl *Dl) {
        const auto *V = dyn_cast<VarDecl>(Dl);
        return V && V->getInit() == Child && !isFollowedPointer(V);
      });
    return isa<InitListExpr, CXXConstructExpr, CXXParenListInitExpr>(P);
  };
  for (bool Shrank = true; Shrank;) {
    Shrank = false;
    for (const Expr *E : Candidates)
      if (const auto *D = dyn_cast<DeclRefExpr>(E);
          D && isFollowedPointer(dyn_cast<VarDecl>(D->getDecl())) &&
          StoredElsewhere(D))
        Shrank |= FollowedPointers.erase(cast<VarDecl>(D->getDecl())) != 0;
  }
  if (FollowedPointers.empty())
    return;
  for (const Assignment &A : Assigns)
    if (isFollowedPointer(A.Var) && A.At)
      PointerDefinitions[A.At].push_back({A.Var, A.Rhs});
  for (const auto &[V, C] : Allocations)
    if (isFollowedPointer(V))
      PointerDefinitions[C].push_back({V, nullptr});
  // What the other assignments make aliases (values, not the followed
  // pointers, whose order the solver follows).
  for (const Assignment &A : Assigns) {
    if (isFollowedPointer(A.Var))
      continue;
    AccessPath Lhs = A.Lhs ? AccessPath::of(A.Lhs)
                           : (A.Var ? AccessPath::ofVar(A.Var) : AccessPath());
    if (Lhs.empty())
      continue;
    const Expr *Rhs = definedValue(A.Rhs, *this);
    if (const auto *L = dyn_cast_or_null<InitListExpr>(
            Rhs ? Rhs->IgnoreImplicit() : nullptr)) {
      for (const Expr *Init : L->inits())
        if (const Expr *Root = bufferRoot(Init))
          ValueClasses.unite(Lhs.withAnyIndex(), AccessPath::of(Root));
      continue;
    }
    if (const Expr *Root = Rhs ? bufferRoot(Rhs) : nullptr)
      ValueClasses.unite(Lhs, AccessPath::of(Root));
  }
}

const VarDecl *Solver::followedRoot(const AccessPath &Name) const {
  if (F.FollowedPointers.empty())
    return nullptr;
  const auto *V = dyn_cast_or_null<VarDecl>(Name.rootDecl());
  return F.isFollowedPointer(V) ? V : nullptr;
}

namespace {
std::pair<const VarDecl *, const VarDecl *> pairOf(const VarDecl *A,
                                                   const VarDecl *B) {
  return std::less<const VarDecl *>()(A, B) ? std::make_pair(A, B)
                                            : std::make_pair(B, A);
}
bool mayEqual(const PendingState &St, const VarDecl *A, const VarDecl *B) {
  return St.MayEqual.count(pairOf(A, B)) != 0;
}
} // namespace

void Solver::holdersAtIssue(const PendingState &St, PendingCopy &P,
                            const CopySite &C) const {
  if (C.Seed || !C.DstPath || F.FollowedPointers.empty())
    return; // AnyHolder
  P.AnyHolder = false;
  const auto *D = dyn_cast_or_null<VarDecl>(C.DstPath->rootDecl());
  bool Through = F.isFollowedPointer(D);
  if (Through) {
    P.Holders.insert(D);
    if (auto It = St.PointerValues.find(D); It != St.PointerValues.end())
      P.Target = rebased(*C.DstPath, It->second);
  } else {
    P.Target = *C.DstPath;
  }
  for (const VarDecl *U : F.FollowedPointers) {
    if (U == D)
      continue;
    auto It = St.PointerValues.find(U);
    // A pointer of unknown value may hold a buffer named directly; of
    // another followed pointer, only one it may equal.
    bool Holds = (Through && mayEqual(St, U, D)) ||
                 (It == St.PointerValues.end()
                      ? !Through
                      : P.Target &&
                            mayPointTo(It->second, *P.Target, F.ValueClasses));
    if (Holds)
      P.Holders.insert(U);
  }
}

void Solver::repoint(PendingState &St,
                     llvm::ArrayRef<FunctionFacts::PointerDefinition> Defs) {
  // Each definition's effect, from the state before any of them.
  struct Outcome {
    const VarDecl *Var;
    std::optional<AccessPath> Value;
    std::set<unsigned> Holds; ///< the pending classes it holds
    std::set<const VarDecl *> Equal; ///< the followed pointers it may equal
    std::set<const VarDecl *> Sources; ///< the followed pointers it copies
  };
  std::vector<Outcome> Out;
  std::map<const VarDecl *, AccessPath> Named; ///< symbols for unknowns
  auto Defined = [&](const VarDecl *V) {
    return llvm::any_of(Defs, [&](const auto &D) { return D.Var == V; });
  };
  for (const FunctionFacts::PointerDefinition &D : Defs) {
    Outcome O{D.Var, std::nullopt, {}, {}, {}};
    const Expr *Value = definedValue(D.Value, F);
    // The values the right-hand side may be: both arms of `c ? a : b`.
    llvm::SmallVector<const Expr *, 2> Arms{Value};
    if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(
            Value ? Value->IgnoreParenImpCasts() : nullptr))
      Arms = {definedValue(CO->getTrueExpr(), F),
              definedValue(CO->getFalseExpr(), F)};
    for (const Expr *Arm : Arms) {
      if (isFreshValue(Arm, Ctx))
        continue;
      const Expr *Root = bufferRoot(Arm);
      if (const VarDecl *W = varOf(Root); F.isFollowedPointer(W)) {
        for (const auto &[Class, P] : St.Pending)
          if (mayHold(P, W))
            O.Holds.insert(Class);
        O.Equal.insert(W);
        O.Sources.insert(W);
        for (const auto &[A, B] : St.MayEqual)
          if (A == W || B == W)
            O.Equal.insert(A == W ? B : A);
        if (Arms.size() == 1) {
          auto It = St.PointerValues.find(W);
          if (It != St.PointerValues.end()) {
            O.Value = It->second;
          } else { // name W's value here by a symbol
            auto [N, New] = Named.try_emplace(W, AccessPath::temporary(Arm));
            O.Value = N->second;
          }
        }
        continue;
      }
      std::optional<AccessPath> Path;
      if (Root)
        Path = AccessPath::of(Root);
      const auto *RootVar =
          Path ? dyn_cast_or_null<VarDecl>(Path->rootDecl()) : nullptr;
      bool Known = Path && !F.isFollowedPointer(RootVar);
      for (const auto &[Class, P] : St.Pending)
        if (P.AnyHolder || !Known || !P.Target ||
            mayPointTo(*Path, *P.Target, F.ValueClasses))
          O.Holds.insert(Class);
      // The followed pointers whose values it may meet.
      for (const VarDecl *U : F.FollowedPointers) {
        auto It = St.PointerValues.find(U);
        if (!Known || It == St.PointerValues.end() ||
            mayPointTo(*Path, It->second, F.ValueClasses) ||
            mayPointTo(It->second, *Path, F.ValueClasses))
          O.Equal.insert(U);
      }
      if (Arms.size() == 1 && Known)
        O.Value = *Path;
    }
    O.Equal.erase(D.Var);
    Out.push_back(std::move(O));
  }
  for (auto &[Class, P] : St.Pending)
    for (const Outcome &O : Out) {
      P.Holders.erase(O.Var);
      if (O.Holds.count(Class))
        P.Holders.insert(O.Var);
    }
  // Two defined together (`std::swap(cur, next)`) may be equal where what
  // they copy may be.
  std::vector<std::pair<const VarDecl *, const VarDecl *>> Together;
  for (size_t I = 0; I < Out.size(); ++I)
    for (size_t J = I + 1; J < Out.size(); ++J)
      for (const VarDecl *A : Out[I].Sources)
        for (const VarDecl *B : Out[J].Sources)
          if (A == B || mayEqual(St, A, B))
            Together.push_back(pairOf(Out[I].Var, Out[J].Var));
  for (const Outcome &O : Out)
    for (auto It = St.MayEqual.begin(); It != St.MayEqual.end();)
      It = It->first == O.Var || It->second == O.Var ? St.MayEqual.erase(It)
                                                     : std::next(It);
  for (const Outcome &O : Out)
    for (const VarDecl *U : O.Equal)
      // Of a pair defined together (a swap), each may equal the other's
      // old value: what the other was equal to, not the other now.
      if (!Defined(U))
        St.MayEqual.insert(pairOf(O.Var, U));
  St.MayEqual.insert(Together.begin(), Together.end());
  // A symbol names the value its variable holds now: an earlier holder of
  // the same symbol (the statement ran before, in a loop) holds another.
  for (const auto &[W, Sym] : Named)
    for (auto It = St.PointerValues.begin(); It != St.PointerValues.end();)
      It = It->second == Sym ? St.PointerValues.erase(It) : std::next(It);
  for (const auto &[W, Sym] : Named)
    if (!Defined(W))
      St.PointerValues[W] = Sym;
  for (const Outcome &O : Out) {
    if (O.Value)
      St.PointerValues[O.Var] = *O.Value;
    else
      St.PointerValues.erase(O.Var);
  }
}

} // namespace clang::tidy::cuda
