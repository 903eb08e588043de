//===--- TorchModel.cpp - libtorch tensors and devices ------------------===//

#include "TorchModel.h"
#include "ExprUtils.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

bool isTensorView(llvm::StringRef Method) {
  return llvm::is_contained({"view", "slice", "narrow", "select", "reshape",
                             "view_as", "flatten", "squeeze", "unsqueeze",
                             "transpose", "t", "permute", "expand",
                             "as_strided", "detach", "alias", "index",
                             "operator[]", "unflatten", "split", "chunk",
                             "unbind"},
                            Method);
}

bool isTensorType(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() ||
      (RD->getName() != "Tensor" && RD->getName() != "TensorBase"))
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "at";
}

bool mentions(const Stmt *S, Mention M, unsigned Depth) {
  if (!S || Depth > 16)
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(S)) {
    const NamedDecl *ND = D->getDecl();
    // auto opts = TensorOptions().device(kCUDA); torch::empty(n, opts)
    if (const auto *V = dyn_cast<VarDecl>(ND);
        V && V->hasLocalStorage() && V->getInit())
      return mentions(V->getInit(), M, Depth + 1);
    if (!ND->getIdentifier())
      return false;
    llvm::StringRef N = ND->getName();
    return M == Mention::Cpu    ? (N == "kCPU" || N == "CPU")
           : M == Mention::Cuda ? (N == "kCUDA" || N == "CUDA")
                                : false;
  }
  if (const auto *L = dyn_cast<StringLiteral>(S))
    return (M == Mention::Cpu && L->getString().starts_with("cpu")) ||
           (M == Mention::Cuda && L->getString().starts_with("cuda"));
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S); MC && M == Mention::Pinned)
    if (const auto *Method = MC->getMethodDecl();
        Method && Method->getIdentifier() &&
        Method->getName() == "pinned_memory")
    {
      if (MC->getNumArgs() == 0)
        return true;
      // pinned_memory(true), or through c10::optional<bool>(true).
      const Expr *A = MC->getArg(0);
      while (true) {
        A = strip(A);
        const auto *CE = dyn_cast_or_null<CXXConstructExpr>(A);
        if (!CE || CE->getNumArgs() != 1)
          break;
        A = CE->getArg(0);
      }
      const auto *B = dyn_cast_or_null<CXXBoolLiteralExpr>(A);
      return B && B->getValue();
    }
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (mentions(Child, M, Depth + 1))
      return true;
  return false;
}

const Expr *nonBlockingArg(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F)
    return nullptr;
  for (unsigned I = 0; I < F->getNumParams() && I < C->getNumArgs(); ++I)
    if (const IdentifierInfo *Id = F->getParamDecl(I)->getIdentifier();
        Id && Id->getName() == "non_blocking")
      return C->getArg(I);
  return nullptr;
}

bool targetsCpu(const CallExpr *C) {
  for (const Expr *A : C->arguments())
    if (A != nonBlockingArg(C) && mentions(A, Mention::Cpu))
      return true;
  return false;
}
bool targetsCuda(const CallExpr *C) {
  for (const Expr *A : C->arguments())
    if (A != nonBlockingArg(C) && mentions(A, Mention::Cuda))
      return true;
  return false;
}

} // namespace clang::tidy::cuda
