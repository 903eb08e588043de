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

bool isTensorVector(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  return Spec && Spec->isInStdNamespace() && Spec->getIdentifier() &&
         Spec->getName() == "vector" && Spec->getTemplateArgs().size() > 0 &&
         Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         isTensorType(Spec->getTemplateArgs()[0].getAsType());
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

const Expr *subscriptedTensor(const Expr *E) {
  const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(strip(E));
  if (!Op || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2 ||
      !isTensorType(Op->getType()) || !isTensorType(Op->getArg(0)->getType()))
    return nullptr;
  return strip(Op->getArg(0));
}

TensorOrigin tensorOrigin(const Expr *Rhs) {
  TensorOrigin O;
  const Expr *E = strip(Rhs);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1)
    E = strip(CE->getArg(0));
  if (!E)
    return O;
  if (isa<DeclRefExpr, MemberExpr>(E) && isTensorType(E->getType())) {
    O.K = TensorOrigin::SameStorage;
    O.Of = E;
    return O;
  }
  // t[i]: a view of t's storage (Tensor::operator[] returns select(0, i)).
  if (const Expr *Of = subscriptedTensor(E)) {
    if (const Expr *Root = bufferRoot(Of)) {
      O.K = TensorOrigin::SameStorage;
      O.Of = Root;
    }
    return O;
  }
  const auto *C = dyn_cast<CallExpr>(E);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier())
    return O;
  llvm::StringRef Name = F->getName();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Name == "pin_memory")
      O.K = TensorOrigin::Pinned;
    else if (Name == "cuda")
      O.K = TensorOrigin::Device;
    else if (Name == "cpu")
      O.K = TensorOrigin::Pageable;
    else if (Name == "to") {
      // Otherwise a dtype conversion: same device, new storage (unknown).
      if (targetsCuda(C))
        O.K = TensorOrigin::Device;
      else if (targetsCpu(C)) {
        O.K = TensorOrigin::CpuCopy;
        O.NonBlocking = nonBlockingArg(C);
      }
    } else if (isTensorView(Name) && Obj && isTensorType(Obj->getType())) {
      if (const Expr *Root = bufferRoot(Obj)) {
        O.K = TensorOrigin::SameStorage;
        O.Of = Root;
      }
    }
    return O;
  }
  if (Name == "from_blob" && !F->isInStdNamespace() && C->getNumArgs() > 0) {
    if (const Expr *Root = bufferRoot(C->getArg(0))) {
      O.K = TensorOrigin::Blob;
      O.Of = Root;
      O.Cuda = mentions(C, Mention::Cuda);
    }
    return O;
  }
  // Factories: CPU memory unless the options say otherwise.
  if (F->isInStdNamespace() || !llvm::is_contained(
          {"empty", "zeros", "ones", "full", "rand", "randn", "randint",
           "arange", "linspace", "empty_strided", "tensor"},
          Name))
    return O;
  O.K = mentions(C, Mention::Pinned) ? TensorOrigin::Pinned
        : mentions(C, Mention::Cuda) ? TensorOrigin::Device
                                     : TensorOrigin::Pageable;
  return O;
}

bool isMetadataMethod(llvm::StringRef Method) {
  return llvm::is_contained(
      {"size", "capacity", "empty", "length", "max_size", "get_allocator",
       "sizes", "numel", "dim", "dtype", "scalar_type", "device", "is_pinned",
       "is_cuda", "is_cpu", "options", "defined", "stride", "strides",
       "element_size", "nbytes", "itemsize", "get_device", "layout",
       "requires_grad", "is_contiguous"},
      Method);
}

bool isMutatingMethod(llvm::StringRef Method) {
  return Method.ends_with("_") || // in-place tensor operations
         llvm::is_contained({"push_back", "emplace_back", "pop_back",
                             "resize", "assign", "clear", "insert", "emplace",
                             "erase", "fill", "swap", "append", "replace"},
                            Method);
}

bool isHandleStore(llvm::StringRef Method) {
  return llvm::is_contained({"push_back", "emplace_back", "insert", "emplace",
                             "push", "push_front"},
                            Method);
}

bool changesDevice(llvm::StringRef Method) {
  return llvm::is_contained({"to", "cpu", "cuda", "pin_memory"}, Method);
}

} // namespace clang::tidy::cuda
