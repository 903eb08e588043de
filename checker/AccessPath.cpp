//===--- AccessPath.cpp - Identity of buffers, streams and events -------===//

#include "AccessPath.h"
#include "ExprUtils.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>

namespace clang::tidy::cuda {
namespace {

std::string ptrKey(const void *P) {
  return std::to_string(reinterpret_cast<uintptr_t>(P));
}

} // namespace

//===----------------------------------------------------------------------===//
// Building paths
//===----------------------------------------------------------------------===//

/// The named object a local reference is bound to (see ofVar), or null: a
/// variable, or a chain of members of one reached through `.` (or `->` on
/// `this`). Not through another pointer or a subscript (`p->s`, `s[i]`):
/// the pointer or the index may change after the binding, and the reference
/// would then be taken for another object's name; and elements of an array
/// are one buffer (AliasClasses), so that `R &back = rs[0], &front = rs[1];`
/// would be taken for one.
const Expr *referentOf(const VarDecl *V) {
  if (!V->getType()->isReferenceType() || !V->hasLocalStorage() ||
      isa<ParmVarDecl>(V) || V->isInitCapture() || !V->getInit())
    return nullptr;
  const Expr *Init = strip(V->getInit());
  const Expr *Root = Init;
  while (const auto *M = dyn_cast_or_null<MemberExpr>(Root)) {
    Root = strip(M->getBase());
    if (M->isArrow() && !isa_and_nonnull<CXXThisExpr>(Root))
      return nullptr;
  }
  if (isThis(Root)) // `D &d = static_cast<D &>(*this);`
    return Init;
  const auto *D = dyn_cast_or_null<DeclRefExpr>(Root);
  return D && isa<VarDecl>(D->getDecl()) && D->getDecl() != V ? Init
                                                               : nullptr;
}

AccessPath AccessPath::ofDecl(const ValueDecl *D) {
  AccessPath P(RootKind::Decl, "d" + ptrKey(D->getCanonicalDecl()));
  P.RootDecl = D;
  return P;
}

/// The range a range-for's loop variable V runs over (C++ [stmt.ranged]:
/// `auto &&__range = range; auto __begin = begin-expr; ... V = *__begin;`),
/// from V's initialiser; null for any other variable.
static const Expr *loopRangeOf(const VarDecl *V) {
  if (!V->isCXXForRangeDecl() || !V->getInit())
    return nullptr;
  const Expr *Deref = V->getInit()->IgnoreParenImpCasts();
  const Expr *Iter = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(Deref);
      U && U->getOpcode() == UO_Deref)
    Iter = U->getSubExpr();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Deref);
           Op && Op->getOperator() == OO_Star && Op->getNumArgs() == 1)
    Iter = Op->getArg(0);
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    const auto *D =
        dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
    return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  };
  const VarDecl *Begin = VarOf(Iter);
  const Expr *BeginInit =
      Begin && Begin->isImplicit() && Begin->getInit()
          ? Begin->getInit()->IgnoreParenImpCasts()
          : nullptr;
  // `__range` (an array), `__range.begin()`, `begin(__range)`.
  const Expr *RangeRef = BeginInit;
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(BeginInit))
    RangeRef = MC->getImplicitObjectArgument();
  else if (const auto *C = dyn_cast_or_null<CallExpr>(BeginInit);
           C && C->getNumArgs() == 1)
    RangeRef = C->getArg(0);
  const VarDecl *Range = VarOf(RangeRef);
  return Range && Range->isImplicit() && Range->getInit() ? Range->getInit()
                                                         : nullptr;
}

AccessPath AccessPath::ofVar(const VarDecl *V) {
  if (const Expr *Object = referentOf(V))
    return of(Object);
  // A range-for's reference to the element of this iteration: one of the
  // range's elements, as `bufs[i]` of a loop over i is.
  if (V->getType()->isReferenceType())
    if (const Expr *Range = loopRangeOf(V))
      return of(Range).withAnyIndex();
  return ofDecl(V);
}

AccessPath AccessPath::temporary(const Expr *E) {
  return AccessPath(RootKind::Temporary, "tmp" + ptrKey(E));
}

AccessPath AccessPath::of(const Expr *E) {
  E = strip(E);
  if (!E)
    return AccessPath(RootKind::Other, "?");
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return ofVar(V);
    // A structured binding names what its binding expression names
    // ([dcl.struct.bind]): a member or element of the decomposed object
    // (`auto &[h, s] = st;`: `st.s`), or a tuple-like element's variable.
    if (const auto *B = dyn_cast<BindingDecl>(D->getDecl()))
      if (const Expr *Bound = B->getBinding())
        return of(Bound);
    return ofDecl(D->getDecl());
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    // `(*p).m` is `p->m`, also through a reference bound to `*p`.
    const Expr *Base = strip(M->getBase());
    if (const auto *D = dyn_cast_or_null<DeclRefExpr>(Base))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        if (const Expr *Object = referentOf(V))
          Base = strip(Object);
    const auto *Deref = dyn_cast_or_null<UnaryOperator>(Base);
    bool Arrow = M->isArrow();
    if (!Arrow && Deref && Deref->getOpcode() == UO_Deref) {
      Base = Deref->getSubExpr();
      Arrow = true;
    } else {
      Base = M->getBase();
    }
    AccessPath P = of(Base);
    P.append({Arrow ? PathStep::Arrow : PathStep::Dot,
              cast<ValueDecl>(M->getMemberDecl()->getCanonicalDecl()),
              nullptr});
    return P;
  }
  if (isa<CXXThisExpr>(E))
    return ofThis();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    AccessPath P = of(A->getBase());
    P.append({PathStep::Index, nullptr, A->getIdx()});
    return P;
  }
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return AccessPath(RootKind::Other,
                      std::to_string(I->getValue().getLimitedValue()));
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return AccessPath(RootKind::Other,
                      std::string(UnaryOperator::getOpcodeStr(U->getOpcode())) +
                          of(U->getSubExpr()).Key);
  // `v[i]` of a std::vector (array, deque, span): element i, as `a[i]` is.
  if (const CXXOperatorCallExpr *Op = sequenceElement(E)) {
    AccessPath P = of(Op->getArg(0));
    P.append({PathStep::Index, nullptr, Op->getArg(1)});
    return P;
  }
  if (const CXXMemberCallExpr *Front = sequenceFront(E)) {
    AccessPath P = of(Front->getImplicitObjectArgument());
    P.append({PathStep::Index, nullptr, nullptr, nullptr, /*Front=*/true});
    return P;
  }
  // `p.operator->()` and `p.get()` of a std::unique_ptr / shared_ptr: the
  // pointer it holds, named by p, so that `p->ev` is as `q->ev` of a raw
  // pointer q ([unique.ptr.single.observers]: `operator->()` returns get()).
  if (const Expr *Held = smartPointerHeld(E))
    return of(Held);
  // `*o` / `o.value()` of a std::optional holding a handle: o's storage.
  if (const Expr *Held = optionalHeld(E))
    return of(Held);
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C); MC && Callee) {
      if (const Expr *Member = trivialAccessorResult(MC)) {
        // `c.stream()` with `stream() const { return s_; }`: c.s_.
        const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
        return of(Member).rebasedOnObject(of(MC->getImplicitObjectArgument()),
                                          ME && ME->isArrow());
      }
      AccessPath P = of(MC->getImplicitObjectArgument());
      P.append({PathStep::Call, cast<ValueDecl>(Callee->getCanonicalDecl()),
                nullptr, C});
      return P;
    }
    // `rb_data(ctx)` with `return c->host;`: ctx->host (`q.host` for the
    // argument `&q`).
    unsigned Param = 0;
    if (const Expr *Member = parameterAccessorResult(C, &Param)) {
      AccessPath M = of(Member);
      const auto *U = dyn_cast<UnaryOperator>(strip(C->getArg(Param)));
      if (U && U->getOpcode() == UO_AddrOf &&
          M.steps().front().K == PathStep::Arrow)
        return M.rebasedOnArgument(of(U->getSubExpr()), /*Deref=*/true);
      return M.rebasedOnArgument(of(C->getArg(Param)), /*Deref=*/false);
    }
    llvm::SmallVector<AccessPath, 4> Args;
    for (const Expr *A : C->arguments())
      Args.push_back(of(A));
    return ofCall(C, Args);
  }
  // An unknown shape: only equal to itself.
  return AccessPath(RootKind::Other, "<" + ptrKey(E) + ">");
}

/// The canonical form of a call's root: the callee (or the callee
/// expression's path) and the argument paths.
static std::string callKey(std::string Callee,
                           llvm::ArrayRef<AccessPath> Args) {
  Callee += "(";
  for (const AccessPath &A : Args)
    Callee += A.key() + ",";
  return Callee + ")";
}

AccessPath AccessPath::ofCall(const CallExpr *C,
                              llvm::ArrayRef<AccessPath> Args) {
  const FunctionDecl *Callee = C->getDirectCallee();
  std::string K = Callee ? "c" + ptrKey(Callee->getCanonicalDecl())
                         : of(C->getCallee()).Key;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    K = of(MC->getImplicitObjectArgument()).Key + "." + K;
  AccessPath P(RootKind::Call, callKey(std::move(K), Args));
  P.RootCall = C;
  return P;
}

AccessPath AccessPath::ofCallee(const FunctionDecl *Callee,
                                llvm::ArrayRef<AccessPath> Args) {
  return AccessPath(RootKind::Call,
                    callKey("c" + ptrKey(Callee->getCanonicalDecl()), Args));
}

AccessPath AccessPath::ofThis() { return AccessPath(RootKind::This, "this"); }

AccessPath AccessPath::withMember(const ValueDecl *M, bool Arrow) const {
  AccessPath P = *this;
  P.append({Arrow ? PathStep::Arrow : PathStep::Dot,
            cast<ValueDecl>(M->getCanonicalDecl()), nullptr});
  return P;
}

AccessPath AccessPath::withAnyIndex() const {
  AccessPath P = *this;
  P.append({PathStep::Index, nullptr, nullptr});
  return P;
}

void AccessPath::append(const PathStep &S) {
  Steps.push_back(S);
  switch (S.K) {
  case PathStep::Dot:
    Key += ".f" + ptrKey(S.Member);
    break;
  case PathStep::Arrow:
    Key += "->f" + ptrKey(S.Member);
    break;
  case PathStep::Index:
    Key += S.Front ? std::string("[0]") : "[" + of(S.IndexExpr).Key + "]";
    break;
  case PathStep::Call:
    Key += ".c" + ptrKey(S.Member) + "(";
    for (const Expr *A : S.CallE->arguments())
      Key += of(A).Key + ",";
    Key += ")";
    break;
  }
  StepEnds.push_back(Key.size());
}

AccessPath AccessPath::withIndices(
    llvm::function_ref<const Expr *(const Expr *)> Map) const {
  AccessPath R = *this;
  R.Steps.clear();
  R.StepEnds.clear();
  R.Key.resize(RootLength);
  for (PathStep S : Steps) {
    if (S.K == PathStep::Index && S.IndexExpr)
      if (const Expr *To = Map(S.IndexExpr))
        S.IndexExpr = To;
    R.append(S);
  }
  return R;
}

AccessPath AccessPath::withoutLastStep() const {
  if (Steps.empty())
    return AccessPath();
  AccessPath R = *this;
  R.Steps.pop_back();
  R.StepEnds.pop_back();
  R.Key.resize(R.StepEnds.empty() ? RootLength : R.StepEnds.back());
  return R;
}

AccessPath AccessPath::arrayOfElement() const {
  if (Steps.empty() || Steps.back().K != PathStep::Index)
    return AccessPath();
  return withoutLastStep();
}

/// An index step's constant element, if it has one.
static std::optional<long long> indexOf(const PathStep &S) {
  return S.Front ? std::optional<long long>(0) : integerConstant(S.IndexExpr);
}

std::optional<long long> AccessPath::constantLastIndex() const {
  if (Steps.empty() || Steps.back().K != PathStep::Index)
    return std::nullopt;
  return indexOf(Steps.back());
}

//===----------------------------------------------------------------------===//
// Relations between paths
//===----------------------------------------------------------------------===//

std::optional<long long> integerConstant(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *I = dyn_cast_or_null<IntegerLiteral>(E))
    return static_cast<long long>(I->getValue().getLimitedValue());
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E)) {
    auto V = integerConstant(U->getSubExpr());
    if (V && U->getOpcode() == UO_Minus)
      return -*V;
    if (V && U->getOpcode() == UO_Plus)
      return V;
    return std::nullopt;
  }
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E);
  if (!D)
    return std::nullopt;
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D->getDecl()))
    return EC->getInitVal().getExtValue();
  const auto *V = dyn_cast<VarDecl>(D->getDecl());
  if (!V || !V->getType().isConstQualified() ||
      !V->getType()->isIntegralOrEnumerationType() || !V->getInit() ||
      V->getType()->isReferenceType())
    return std::nullopt;
  const APValue *Value = V->evaluateValue();
  if (!Value || !Value->isInt())
    return std::nullopt;
  return Value->getInt().getExtValue();
}

namespace {

/// Steps from First on name parts of the object itself (members held by
/// value), not objects reached through a pointer, a reference member, an
/// index or a call that two paths could share. `this->m` is the object's
/// own member.
bool direct(const AccessPath &P, size_t First) {
  llvm::ArrayRef<PathStep> Steps = P.steps();
  for (size_t I = First; I < Steps.size(); ++I) {
    const PathStep &S = Steps[I];
    if (S.K == PathStep::Arrow && I == 0 &&
        P.rootKind() == AccessPath::RootKind::This)
      continue;
    if (S.K != PathStep::Dot || !S.Member ||
        S.Member->getType()->isReferenceType())
      return false;
  }
  return true;
}

} // namespace

PathRelation relate(const AccessPath &A, const AccessPath &B) {
  if (A.Key == B.Key)
    return PathRelation::Same;
  using RK = AccessPath::RootKind;
  // A reference that ofVar does not look through (a reference parameter, a
  // structured binding) may name any object but this function's own
  // locals, which no caller can reach.
  auto IsReference = [](const AccessPath &P) {
    return P.Root == RK::Decl &&
           (!P.RootDecl || P.RootDecl->getType()->isReferenceType());
  };
  auto IsLocal = [](const AccessPath &P) { // a local variable, not a param
    const auto *V = P.Root == RK::Decl && P.RootDecl
                        ? dyn_cast<VarDecl>(P.RootDecl)
                        : nullptr;
    return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V);
  };
  auto IsOwnLocal = [&](const AccessPath &P) { // and not a reference
    return IsLocal(P) && !P.RootDecl->getType()->isReferenceType();
  };
  auto Named = [&](const AccessPath &P, const AccessPath &Other) {
    return !IsReference(P) || IsOwnLocal(Other);
  };
  bool SameRoot = A.RootLength == B.RootLength &&
                  A.Key.compare(0, A.RootLength, B.Key, 0, B.RootLength) == 0;
  for (const AccessPath *P : {&A, &B})
    if (P->Root != RK::Decl && P->Root != RK::This)
      return PathRelation::MayAlias; // a call may return any object
  if (!SameRoot) {
    // Two variables, or a variable and a member of *this: distinct objects
    // when neither is reached through a pointer or reference. And no
    // parameter, global or `this` leads to this function's own locals
    // (unless the function points a parameter at one: not seen here).
    if (Named(A, B) && Named(B, A) && direct(A, 0) && direct(B, 0))
      return PathRelation::Distinct;
    auto OwnObject = [&](const AccessPath &P, const AccessPath &Other) {
      return IsOwnLocal(P) && direct(P, 0) && !IsLocal(Other);
    };
    if (OwnObject(A, B) || OwnObject(B, A))
      return PathRelation::Distinct;
    return PathRelation::MayAlias;
  }
  // The first step where they part.
  size_t I = 0;
  auto StepKey = [](const AccessPath &P, size_t I) {
    size_t Begin = I == 0 ? P.RootLength : P.StepEnds[I - 1];
    return llvm::StringRef(P.Key).slice(Begin, P.StepEnds[I]);
  };
  while (I < A.Steps.size() && I < B.Steps.size() &&
         StepKey(A, I) == StepKey(B, I))
    ++I;
  if (I == A.Steps.size() || I == B.Steps.size())
    return PathRelation::MayAlias; // one contains the other
  const PathStep &SA = A.Steps[I], &SB = B.Steps[I];
  if (SA.K == PathStep::Call || SB.K == PathStep::Call)
    return PathRelation::MayAlias;
  if (SA.K == PathStep::Index || SB.K == PathStep::Index) {
    auto CA = indexOf(SA), CB = indexOf(SB);
    if (!CA || !CB || *CA == *CB)
      return PathRelation::MayAlias;
  }
  // Different members, or different constant elements, of one object.
  return direct(A, I + 1) && direct(B, I + 1) ? PathRelation::Distinct
                                              : PathRelation::MayAlias;
}

std::string ElementRange::describe() const {
  if (Every || !Known)
    return "every element";
  if (Hi - Lo == 1)
    return "element " + std::to_string(Lo);
  return "elements " + std::to_string(Lo) + " to " + std::to_string(Hi - 1);
}

Coverage coverage(const AccessPath &Sync, const ElementRange *SyncElements,
                  const AccessPath &Work, const ElementRange *WorkElements) {
  if (SyncElements && WorkElements) {
    if (!(SyncElements->Array == WorkElements->Array))
      return relate(SyncElements->Array, WorkElements->Array) ==
                     PathRelation::Distinct
                 ? Coverage::Misses
                 : Coverage::Covers;
    const ElementRange &S = *SyncElements, &W = *WorkElements;
    if (S.Every || W.Every || !S.Known || !W.Known)
      return Coverage::Covers; // every element, or cannot tell
    if (S.Lo <= W.Lo && W.Hi <= S.Hi)
      return Coverage::Covers;
    if (W.Hi <= S.Lo || S.Hi <= W.Lo)
      return Coverage::Misses;
    return Coverage::MissesSome;
  }
  // An element of an array and an object that is not one: distinct when
  // the object is distinct from the array.
  if (SyncElements || WorkElements) {
    const AccessPath &Array =
        SyncElements ? SyncElements->Array : WorkElements->Array;
    const AccessPath &Other = SyncElements ? Work : Sync;
    return relate(Array, Other) == PathRelation::Distinct ? Coverage::Misses
                                                          : Coverage::Covers;
  }
  return relate(Sync, Work) == PathRelation::Distinct ? Coverage::Misses
                                                      : Coverage::Covers;
}

//===----------------------------------------------------------------------===//
// Rebasing at a call
//===----------------------------------------------------------------------===//

bool AccessPath::isThisMember() const {
  return Root == RootKind::This && !Steps.empty() &&
         Steps.front().K == PathStep::Arrow;
}

bool AccessPath::within(const AccessPath &Outer) const {
  if (Outer.empty() || !llvm::StringRef(Key).starts_with(Outer.Key))
    return false;
  size_t N = Outer.Key.size();
  return N == Key.size() || N == RootLength || llvm::is_contained(StepEnds, N);
}

bool AccessPath::isMemberOf(const ParmVarDecl *P) const {
  if (Root != RootKind::Decl || Steps.empty() ||
      Steps.front().K == PathStep::Index)
    return false;
  std::string Param = ofDecl(P).Key;
  return RootLength == Param.size() && Key.compare(0, RootLength, Param) == 0;
}

AccessPath AccessPath::rebasedOnObject(const AccessPath &Object,
                                       bool ObjectIsPointer) const {
  AccessPath R = Object;
  for (size_t I = 0; I < Steps.size(); ++I) {
    PathStep S = Steps[I];
    if (I == 0)
      S.K = ObjectIsPointer ? PathStep::Arrow : PathStep::Dot;
    R.append(S);
  }
  return R;
}

AccessPath AccessPath::rebasedOnArgument(const AccessPath &Arg,
                                         bool Deref) const {
  AccessPath R = Arg;
  for (size_t I = 0; I < Steps.size(); ++I) {
    PathStep S = Steps[I];
    if (I == 0 && Deref)
      S.K = PathStep::Dot;
    R.append(S);
  }
  return R;
}

std::string AccessPath::wholeBufferKey() const {
  std::string R;
  int Depth = 0;
  for (char C : Key) {
    if (C == '[') {
      if (Depth++ == 0)
        R += "[*";
      continue;
    }
    if (C == ']') {
      if (--Depth == 0)
        R += ']';
      continue;
    }
    if (Depth == 0)
      R += C;
  }
  return R;
}

//===----------------------------------------------------------------------===//
// AliasClasses
//===----------------------------------------------------------------------===//

unsigned AliasClasses::id(const AccessPath &P) {
  auto [It, New] = Ids.try_emplace(P.wholeBufferKey(), Parent.size());
  if (New) {
    Parent.push_back(Parent.size());
    Prov.push_back(Provenance::Unknown);
  }
  return It->second;
}

unsigned AliasClasses::find(unsigned I) {
  while (Parent[I] != I)
    I = Parent[I] = Parent[Parent[I]];
  return I;
}

unsigned AliasClasses::classOf(const AccessPath &P) { return find(id(P)); }

std::string AliasClasses::classKey(const AccessPath &P) {
  return "#" + std::to_string(classOf(P));
}

void AliasClasses::unite(const AccessPath &A, const AccessPath &B) {
  unsigned X = classOf(A), Y = classOf(B);
  if (X == Y)
    return;
  Parent[Y] = X;
  Prov[X] = std::max(Prov[X], Prov[Y]);
}

void AliasClasses::mark(const AccessPath &P, Provenance Pr) {
  unsigned C = classOf(P);
  Prov[C] = std::max(Prov[C], Pr);
}

Provenance AliasClasses::provenance(const AccessPath &P) {
  return Prov[classOf(P)];
}

} // namespace clang::tidy::cuda
