//===--- HostAccess.cpp - What an occurrence of a buffer does -----------===//

#include "HostAccess.h"
#include "ExprUtils.h"
#include "TorchModel.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda {

/// Pointer Arg is passed to the variable arguments of a printf-style
/// function (clang's format attribute, which it also gives the C library's
/// printf family) as a pointer to void or to a floating type: C11
/// 7.21.6.1 leaves it only the `%p` conversion, which prints the address
/// and reads nothing it points to (`%s` takes a character array, `%n` an
/// integer).
static bool printedAsAddress(const CallExpr *C, const Expr *Arg) {
  const FunctionDecl *FD = C->getDirectCallee();
  const auto *FA = FD ? FD->getAttr<FormatAttr>() : nullptr;
  if (!FA || !FA->getType() || isa<CXXMethodDecl>(FD) ||
      FA->getFirstArg() == 0 ||
      FA->getType()->getName().trim('_') != "printf")
    return false;
  QualType T = Arg->getType();
  if (!T->isPointerType() || !(T->getPointeeType()->isVoidType() ||
                               T->getPointeeType()->isRealFloatingType()))
    return false;
  for (unsigned I = FA->getFirstArg() - 1; I < C->getNumArgs(); ++I)
    if (C->getArg(I)->IgnoreImpCasts() == Arg->IgnoreImpCasts())
      return true;
  return false;
}

/// Does a template argument of class RD name Ptr, itself or inside its
/// own template arguments (`float *` in `std::vector<std::pair<float *,
/// cudaStream_t>>`)?
static bool mentionsType(const CXXRecordDecl *RD, QualType Ptr,
                         unsigned Depth = 0) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Depth > 3)
    return false;
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
    if (A.getKind() != TemplateArgument::Type)
      continue;
    QualType T = A.getAsType().getCanonicalType().getUnqualifiedType();
    if (T == Ptr || mentionsType(T->getAsCXXRecordDecl(), Ptr, Depth + 1))
      return true;
  }
  return false;
}

/// A standard library call or construction that is handed the pointer
/// value Arg to keep, not to read through: a container's or a pair's,
/// tuple's or optional's constructor or member (`std::pair<float *,
/// cudaStream_t> job{h, s}`, `pending.push_back(h)`, `emplace_back(h, s)`)
/// whose parameter takes the pointer itself (its type, by value or by
/// reference) where the pointer type is one of the class's element types,
/// or `std::make_pair` / `make_tuple` / `tie` / `forward_as_tuple` / `ref`
/// / `cref` / `make_optional`. An iterator range of the elements
/// (`std::vector<float> v(h, h + n)`, `std::copy(h, h + n, out)`) is read:
/// the pointer type is not an element type there.
static bool storedAsValue(const Expr *Call, const Expr *Arg) {
  QualType Ptr = Arg->getType().getCanonicalType().getUnqualifiedType();
  if (!Ptr->isPointerType())
    return false;
  const FunctionDecl *FD = nullptr;
  llvm::SmallVector<const Expr *, 4> Args;
  unsigned Shift = 0;
  if (const auto *CC = dyn_cast<CXXConstructExpr>(Call)) {
    FD = CC->getConstructor();
    Args.append(CC->arg_begin(), CC->arg_end());
  } else if (const auto *C = dyn_cast<CallExpr>(Call)) {
    FD = C->getDirectCallee();
    Args.append(C->arg_begin(), C->arg_end());
    // A member operator's object is its first argument.
    if (isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(FD))
      Shift = 1;
  }
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!FD || !(Method ? Method->getParent()->isInStdNamespace()
                      : FD->isInStdNamespace()))
    return false;
  for (unsigned I = Shift; I < Args.size(); ++I) {
    if (Args[I]->IgnoreImpCasts() != Arg->IgnoreImpCasts())
      continue;
    if (I - Shift >= FD->getNumParams())
      return false;
    QualType Param = FD->getParamDecl(I - Shift)
                         ->getType()
                         .getNonReferenceType()
                         .getCanonicalType()
                         .getUnqualifiedType();
    if (Param != Ptr)
      return false;
    if (Method)
      return mentionsType(Method->getParent(), Ptr);
    return FD->getIdentifier() &&
           llvm::is_contained({"make_pair", "make_tuple", "tie",
                               "forward_as_tuple", "ref", "cref",
                               "make_optional"},
                              FD->getName());
  }
  return false;
}

std::optional<HostAccess> classifyHostAccess(const Expr *Node,
                                             const HostAccessContext &Ctx) {
  const ParentMap &PM = Ctx.PM;
  const Stmt *Cur = Node;
  // Cur denotes storage (an element, or a scalar destination such as `v` of
  // `cudaMemcpyAsync(&v, ...)`), not a pointer or an object holding one.
  bool Element = Node->getType()->isArithmeticType() ||
                 Node->getType()->isEnumeralType();
  auto Emit = [&](AccessKind K, const Stmt *Anchor,
                  const NamedDecl *Callee = nullptr) {
    return std::optional<HostAccess>(
        HostAccess{K, Anchor, cast<Expr>(Cur), Callee});
  };
  for (unsigned Steps = 0; Steps < 64; ++Steps) {
    const Stmt *P = PM.getParent(Cur);
    if (!P)
      return std::nullopt;
    if (isa<ParenExpr, ExplicitCastExpr, ConditionalOperator,
            MaterializeTemporaryExpr, ExprWithCleanups,
            CXXBindTemporaryExpr>(P)) {
      if (const auto *CO = dyn_cast<ConditionalOperator>(P);
          CO && CO->getCond() == Cur)
        return std::nullopt;
      Cur = P;
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue && Element)
        return Emit(AccessKind::Read, P);
      Cur = P;
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      bool IsLhs = B->getLHS()->IgnoreParens() == Cur;
      if (B->isAdditiveOp() && B->getType()->isPointerType()) {
        Cur = P;
        continue;
      }
      if (B->isAssignmentOp()) {
        if (IsLhs && Element)
          return Emit(AccessKind::Write, P);
        if (!IsLhs && Element)
          return Emit(AccessKind::Read, P);
        // The pointer itself is rebound or copied (an alias).
        return std::nullopt;
      }
      if (B->getOpcode() == BO_Comma && !IsLhs) {
        Cur = P;
        continue;
      }
      if (Element)
        return Emit(AccessKind::Read, P);
      return std::nullopt; // comparisons and tests of the pointer value
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P)) {
      switch (U->getOpcode()) {
      case UO_Deref:
        if (Element)
          return Emit(AccessKind::Read, P);
        Element = true;
        Cur = P;
        continue;
      case UO_AddrOf:
        if (!Element)
          return std::nullopt; // &p: the pointer variable's own address
        Element = false;
        Cur = P;
        continue;
      case UO_PreInc:
      case UO_PreDec:
      case UO_PostInc:
      case UO_PostDec:
        if (Element)
          return Emit(AccessKind::Write, P);
        return std::nullopt;
      default:
        if (Element)
          return Emit(AccessKind::Read, P);
        return std::nullopt;
      }
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(P)) {
      if (A->getBase()->IgnoreParenImpCasts() != Cur &&
          A->getBase()->IgnoreParens() != Cur)
        return std::nullopt; // used as an index
      if (Element)
        return Emit(AccessKind::Read, P);
      Element = true;
      Cur = P;
      continue;
    }
    if (const auto *M = dyn_cast<MemberExpr>(P)) {
      if (M->isArrow() && !Element) { // h->x
        Element = true;
        Cur = P;
        continue;
      }
      if (Element) { // h[i].x, h[i].method()
        if (const auto *MC =
                dyn_cast_or_null<CXXMemberCallExpr>(PM.getParent(P));
            MC && MC->getCallee()->IgnoreParens() == P)
          return Emit(AccessKind::Read, MC);
        Cur = P;
        continue;
      }
      // v.method(): a container or tensor object.
      const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(PM.getParent(P));
      const CXXMethodDecl *Method = MC ? MC->getMethodDecl() : nullptr;
      if (!Method || !Method->getIdentifier())
        return Emit(AccessKind::Read, P);
      llvm::StringRef Name = Method->getName();
      if (isDataAccessor(Name)) {
        Cur = MC;
        continue;
      }
      // An iterator compared or subtracted (`it - v.begin()`, `v.begin() ==
      // v.end()`) reads no element; kept or handed on, it is a use.
      if (llvm::is_contained({"begin", "end", "cbegin", "cend", "rbegin",
                              "rend", "crbegin", "crend"},
                             Name) &&
          Method->getParent()->isInStdNamespace()) {
        const Stmt *Use = PM.getParent(MC);
        while (isa_and_nonnull<ImplicitCastExpr, MaterializeTemporaryExpr,
                                CXXBindTemporaryExpr, CXXConstructExpr>(Use))
          Use = PM.getParent(Use);
        if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Use);
            Op && (Op->isComparisonOp() ||
                   (Op->getOperator() == OO_Minus &&
                    Op->getType()->isIntegerType())))
          return std::nullopt;
        if (const auto *B = dyn_cast_or_null<BinaryOperator>(Use);
            B && (B->isComparisonOp() ||
                  (B->getOpcode() == BO_Sub && B->getType()->isIntegerType())))
          return std::nullopt;
      }
      // Metadata, not storage (containers and tensors).
      if (isMetadataMethod(Name))
        return std::nullopt;
      // A copy to the GPU on the current stream is ordered after the
      // copy that produced the tensor; so is a copy from the GPU into it.
      if (Name == "cuda" || (Name == "to" && targetsCuda(MC)) ||
          Ctx.DeviceWrites.count(MC))
        return std::nullopt;
      // A view shares the storage: what is done with it decides.
      if ((isTensorType(MC->getType()) || isTensorVector(MC->getType())) &&
          isTensorView(Name)) {
        Cur = MC;
        continue;
      }
      Cur = MC;
      bool Mutates = isMutatingMethod(Name);
      return Emit(Mutates ? AccessKind::Write : AccessKind::Read, MC);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P);
        Op && Op->getOperator() != OO_Call) {
      if (Op->getOperator() == OO_Subscript && Op->getArg(0) == Cur &&
          isTensorType(Op->getType())) {
        Cur = P; // t[0] is a view of t's storage
        continue;
      }
      if (Op->isAssignmentOp() && Op->getArg(0) == Cur &&
          Ctx.BindingAssignments.count(Op))
        // `t = b.to(kCPU, true)`: binds the copy's destination.
        return std::nullopt;
      if (Op->getOperator() == OO_Subscript && Op->getArg(0) == Cur) {
        if (Element)
          return Emit(AccessKind::Read, P);
        Element = true;
        Cur = P;
        continue;
      }
      if (Op->isAssignmentOp() && Op->getArg(0) == Cur)
        return Emit(AccessKind::Write, P);
      return Emit(AccessKind::Read, P);
    }
    if (const auto *C = dyn_cast<CallExpr>(P)) {
      if (C->getCallee()->IgnoreParenImpCasts() == Cur)
        return std::nullopt;
      if (isStdCast(C)) {
        Cur = P;
        continue;
      }
      // A kernel's by-value argument is read on the host at the launch.
      if (Element && isa<CUDAKernelCallExpr>(C))
        return Emit(AccessKind::Read, C);
      if (Ctx.isModelledCall(C))
        return std::nullopt; // its own transfer function handles the argument
      if (!Element && !pointerExchanges(C).empty())
        return std::nullopt; // std::swap(a, b): rebinds, reads nothing
      if (!Element && printedAsAddress(C, cast<Expr>(Cur)))
        return std::nullopt; // printf("%p", (void *)h)
      if (!Element && storedAsValue(C, cast<Expr>(Cur)))
        return std::nullopt; // pending.push_back(h): keeps the pointer
      if (!Element &&
          Ctx.isSummarizable(C->getDirectCallee()))
        return std::nullopt; // applyHelper decides from the helper's summary
      // A tensor handle stored in a container (outs.push_back(t)) is
      // another handle to the storage, not a read of it.
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
          MC && !Element && isTensorType(cast<Expr>(Cur)->getType()) &&
          MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
          isHandleStore(MC->getMethodDecl()->getName()))
        return std::nullopt;
      // The pointer, or an element bound to a reference parameter.
      return Emit(AccessKind::PassedToFunction, C, C->getDirectCallee());
    }
    if (isa<InitListExpr, CXXStdInitializerListExpr>(P) && !Element &&
        !cast<Expr>(Cur)->getType()->isPointerType()) {
      Cur = P; // torch::cat({a, b}): the list is what is passed
      continue;
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(P)) {
      if (isTensorType(CC->getType()) && !Element) {
        // Another handle to the same storage: an alias where it is bound
        // to a variable or returned; passed on (by value, in a list),
        // what it is passed to decides.
        if (isa_and_nonnull<DeclStmt, ReturnStmt>(PM.getParent(CC)))
          return std::nullopt;
        Cur = P;
        continue;
      }
      // A wrapper built only to be passed on (an ArrayRef or list of
      // tensors for torch::cat): the call it is passed to is the consumer.
      const Stmt *Up = PM.getParent(CC);
      while (isa_and_nonnull<MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                              ImplicitCastExpr>(Up))
        Up = PM.getParent(Up);
      if (!Element && isa_and_nonnull<CallExpr>(Up)) {
        Cur = P;
        continue;
      }
      const CXXConstructorDecl *Ctor = CC->getConstructor();
      if (!Element && storedAsValue(CC, cast<Expr>(Cur)))
        return std::nullopt; // std::pair<float *, S> job{h, s}
      // A handle to the storage (a class copied as its bits, holding the
      // pointer) moved on reads none of it, as a returned pointer does not:
      // `return h;` of a local (an implicit move, [class.copy.elision]),
      // `T g = std::move(h);`. An object that owns its storage
      // (`Eigen::MatrixXd`, `std::vector`) returned with the copy into it in
      // flight hands the caller a container that is not ready: a read.
      if (Ctor && Ctor->isMoveConstructor() && !Element &&
          Ctor->getParent()->isTriviallyCopyable())
        return std::nullopt;
      if (Ctor && (Ctor->isCopyConstructor() || Element))
        return Emit(AccessKind::Read, P);
      return Emit(AccessKind::PassedToFunction, P,
                  Ctor ? Ctor->getParent() : nullptr);
    }
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      if (const auto *For = dyn_cast_or_null<CXXForRangeStmt>(PM.getParent(DS));
          For && For->getRangeStmt() == DS)
        return Emit(AccessKind::Read, Cur);
      if (Element) {
        const auto *V = DS->isSingleDecl()
                            ? dyn_cast<VarDecl>(DS->getSingleDecl())
                            : nullptr;
        if (V && V->getType()->isReferenceType())
          return std::nullopt; // float &r = h[0]: an alias of the element
        return Emit(AccessKind::Read, Cur);
      }
      return std::nullopt; // float *p = h + k: an alias
    }
    if (isa<CXXForRangeStmt>(P))
      return Emit(AccessKind::Read, Cur);
    if (Element)
      return Emit(AccessKind::Read, Cur);
    return std::nullopt; // return p; if (p); init lists; ...
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda
