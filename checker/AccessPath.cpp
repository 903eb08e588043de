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

constexpr llvm::StringLiteral ThisPrefix = "this->";

} // namespace

std::string declKey(const ValueDecl *D) {
  return "d" + ptrKey(D->getCanonicalDecl());
}

/// The named object a local reference is bound to (see varKey), or null:
/// a variable, or a chain of members of one reached through `.` (or `->`
/// on `this`). Not through another pointer or a subscript (`p->s`, `s[i]`):
/// the pointer or the index may change after the binding, and the
/// reference would then be taken for another object's name; and elements
/// of an array are one buffer (AliasClasses), so that `R &back = rs[0],
/// &front = rs[1];` would be taken for one.
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

std::string varKey(const VarDecl *V) {
  if (const Expr *Object = referentOf(V))
    return exprKey(Object);
  return declKey(V);
}

std::string temporaryKey(const Expr *E) { return "tmp" + ptrKey(E); }

std::string exprKey(const Expr *E) {
  E = strip(E);
  if (!E)
    return "?";
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return varKey(V);
    return declKey(D->getDecl());
  }
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return exprKey(M->getBase()) + (M->isArrow() ? "->" : ".") + "f" +
           ptrKey(M->getMemberDecl()->getCanonicalDecl());
  if (isa<CXXThisExpr>(E))
    return "this";
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return exprKey(A->getBase()) + "[" + exprKey(A->getIdx()) + "]";
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return std::to_string(I->getValue().getLimitedValue());
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return std::string(UnaryOperator::getOpcodeStr(U->getOpcode())) +
           exprKey(U->getSubExpr());
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    std::string K = C->getDirectCallee()
                        ? "c" + ptrKey(C->getDirectCallee()->getCanonicalDecl())
                        : exprKey(C->getCallee());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      K = exprKey(MC->getImplicitObjectArgument()) + "." + K;
    K += "(";
    for (const Expr *A : C->arguments())
      K += exprKey(A) + ",";
    return K + ")";
  }
  return "<" + ptrKey(E) + ">"; // unknown shape: only equal to itself
}

std::optional<llvm::StringRef> thisMemberPath(llvm::StringRef Key) {
  if (!Key.consume_front(ThisPrefix))
    return std::nullopt;
  return Key;
}

std::optional<llvm::StringRef> paramMemberPath(llvm::StringRef Key,
                                               const ParmVarDecl *P) {
  if (!Key.consume_front(declKey(P)) ||
      !(Key.starts_with(".") || Key.starts_with("->")))
    return std::nullopt;
  return Key;
}

std::string memberKey(const std::string &Object, bool Arrow,
                      llvm::StringRef Rest) {
  return Object + (Arrow ? "->" : ".") + Rest.str();
}

std::string withRoot(const std::string &Root, llvm::StringRef Path) {
  return Root + Path.str();
}

//===----------------------------------------------------------------------===//
// AliasClasses
//===----------------------------------------------------------------------===//

std::string AliasClasses::wholeBuffer(const std::string &Key) {
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

unsigned AliasClasses::id(const std::string &RawKey) {
  std::string Key = wholeBuffer(RawKey);
  auto [It, New] = Ids.try_emplace(Key, Parent.size());
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

unsigned AliasClasses::classOf(const std::string &Key) { return find(id(Key)); }

std::string AliasClasses::classKey(const std::string &Key) {
  return "#" + std::to_string(classOf(Key));
}

void AliasClasses::unite(const std::string &A, const std::string &B) {
  unsigned X = classOf(A), Y = classOf(B);
  if (X == Y)
    return;
  Parent[Y] = X;
  Prov[X] = std::max(Prov[X], Prov[Y]);
}

void AliasClasses::mark(const std::string &Key, Provenance P) {
  unsigned C = classOf(Key);
  Prov[C] = std::max(Prov[C], P);
}

Provenance AliasClasses::provenance(const std::string &Key) {
  return Prov[classOf(Key)];
}

} // namespace clang::tidy::cuda
