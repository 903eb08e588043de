//===--- LibraryProducers.cpp - Library calls that write device buffers ---===//
//
// The rows of LibraryProducers.h: which library a callee belongs to (by its
// outermost namespace, or its name for NCCL's C API), and its outputs and
// stream by parameter name.
//
//===----------------------------------------------------------------------===//

#include "LibraryProducers.h"
#include "ExprUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::cuda {
namespace {

enum class Library { None, Cub, Rocprim, Nccl };

/// The outermost named namespace around D, or null.
const NamespaceDecl *outermostNamespace(const Decl *D) {
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isInline() &&
                                                       NS->getIdentifier())
      Outer = NS;
  return Outer;
}

Library libraryOf(const FunctionDecl *F) {
  if (!F->getIdentifier())
    return Library::None;
  if (F->getName().starts_with("nccl") &&
      F->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      !outermostNamespace(F))
    return Library::Nccl;
  const NamespaceDecl *NS = outermostNamespace(F);
  if (!NS)
    return Library::None;
  llvm::StringRef Name = NS->getName();
  if (Name == "cub" || Name == "hipcub") {
    // A device-wide primitive: a static member of DeviceReduce, DeviceScan, ...
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    const CXXRecordDecl *Class = M ? M->getParent() : nullptr;
    return M && M->isStatic() && Class->getIdentifier() &&
                   Class->getName().starts_with("Device")
               ? Library::Cub
               : Library::None;
  }
  if (Name == "rocprim" && F->getDeclContext()->isNamespace() &&
      cast<NamespaceDecl>(F->getDeclContext())->getName() != "detail")
    return Library::Rocprim;
  return Library::None;
}

bool isOutput(Library L, llvm::StringRef Param) {
  switch (L) {
  case Library::Cub:
    return Param.starts_with("d_") && Param.contains("out");
  case Library::Rocprim:
    return Param == "output" || Param.ends_with("_output");
  case Library::Nccl:
    return Param == "recvbuff";
  case Library::None:
    break;
  }
  return false;
}

/// The size query: temporary storage given as a null pointer constant.
bool isSizeQuery(Library L, const CallExpr *C, const ASTContext &Ctx) {
  return L != Library::Nccl && C->getNumArgs() > 0 &&
         C->getArg(0)->IgnoreParenImpCasts()->isNullPointerConstant(
             const_cast<ASTContext &>(Ctx), Expr::NPC_ValueDependentIsNotNull);
}

} // namespace

bool isStreamOrderedLibraryCall(const CallExpr *C, const FunctionDecl *Callee,
                                const ASTContext &Ctx) {
  if (!C || !Callee)
    return false;
  Library L = libraryOf(Callee);
  return L != Library::None &&
         (isSizeQuery(L, C, Ctx) || libraryProduction(C, Callee, Ctx));
}

std::optional<LibraryProduction> libraryProduction(const CallExpr *C,
                                                   const FunctionDecl *Callee,
                                                   const ASTContext &Ctx) {
  if (!C || !Callee)
    return std::nullopt;
  Library L = libraryOf(Callee);
  if (L == Library::None)
    return std::nullopt;
  if (isSizeQuery(L, C, Ctx))
    return std::nullopt;
  LibraryProduction P;
  bool Stream = false;
  unsigned N = std::min(C->getNumArgs(), Callee->getNumParams());
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *Param = Callee->getParamDecl(I);
    if (!Param->getIdentifier())
      continue;
    llvm::StringRef Name = Param->getName();
    if (Name == "stream" && isStreamOrWrapper(Param->getType())) {
      P.StreamArg = I;
      Stream = true;
    } else if (isOutput(L, Name) && Param->getType()->isPointerType()) {
      P.Outputs.push_back(I);
    }
  }
  if (!Stream || P.Outputs.empty())
    return std::nullopt;
  return P;
}

} // namespace clang::tidy::cuda
