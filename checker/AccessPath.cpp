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
  if (isa_and_nonnull<CXXThisExpr>(Root))
    return Init;
  const auto *D = dyn_cast_or_null<DeclRefExpr>(Root);
  return D && isa<VarDecl>(D->getDecl()) && D->getDecl() != V ? Init
                                                               : nullptr;
}

AccessPath AccessPath::ofDecl(const ValueDecl *D) {
  return AccessPath(RootKind::Decl, "d" + ptrKey(D->getCanonicalDecl()));
}

AccessPath AccessPath::ofVar(const VarDecl *V) {
  if (const Expr *Object = referentOf(V))
    return of(Object);
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
    return ofDecl(D->getDecl());
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    AccessPath P = of(M->getBase());
    P.append({M->isArrow() ? PathStep::Arrow : PathStep::Dot,
              cast<ValueDecl>(M->getMemberDecl()->getCanonicalDecl()),
              nullptr});
    return P;
  }
  if (isa<CXXThisExpr>(E))
    return AccessPath(RootKind::This, "this");
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
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C); MC && Callee) {
      AccessPath P = of(MC->getImplicitObjectArgument());
      P.append({PathStep::Call, cast<ValueDecl>(Callee->getCanonicalDecl()),
                nullptr, C});
      return P;
    }
    std::string K = Callee ? "c" + ptrKey(Callee->getCanonicalDecl())
                           : of(C->getCallee()).Key;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      K = of(MC->getImplicitObjectArgument()).Key + "." + K;
    K += "(";
    for (const Expr *A : C->arguments())
      K += of(A).Key + ",";
    return AccessPath(RootKind::Call, K + ")");
  }
  // An unknown shape: only equal to itself.
  return AccessPath(RootKind::Other, "<" + ptrKey(E) + ">");
}

void AccessPath::append(const PathStep &S) {
  Steps.push_back(S);
  switch (S.K) {
  case PathStep::Dot:
    Key += ".f" + ptrKey(S.Member);
    return;
  case PathStep::Arrow:
    Key += "->f" + ptrKey(S.Member);
    return;
  case PathStep::Index:
    Key += "[" + of(S.IndexExpr).Key + "]";
    return;
  case PathStep::Call:
    Key += ".c" + ptrKey(S.Member) + "(";
    for (const Expr *A : S.CallE->arguments())
      Key += of(A).Key + ",";
    Key += ")";
    return;
  }
}

//===----------------------------------------------------------------------===//
// Rebasing at a call
//===----------------------------------------------------------------------===//

bool AccessPath::isThisMember() const {
  return Root == RootKind::This && !Steps.empty() &&
         Steps.front().K == PathStep::Arrow;
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
