//===--- LibraryCode.cpp - Whose function bodies the check follows --------===//

#include "LibraryCode.h"
#include "ExprUtils.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::cuda {

namespace {

/// The outermost namespace D is in, or D itself when D is a namespace at
/// the top level: `namespace raft { ... }` is raft's.
llvm::StringRef outermostNamespaceOf(const Decl *D) {
  llvm::StringRef Outer = outermostNamespace(D);
  if (!Outer.empty())
    return Outer;
  if (const auto *NS = dyn_cast<NamespaceDecl>(D);
      NS && NS->getIdentifier() && NS->getDeclContext()->isFileContext())
    return NS->getName();
  return {};
}

bool isToolchainNamespace(llvm::StringRef NS) {
  if (NS.empty())
    return true; // the global namespace, or an anonymous one
  // Reserved for the implementation ([lex.name]): libstdc++'s __gnu_cxx,
  // __cxxabiv1, CCCL's and the compilers' internals.
  if (NS.starts_with("__") ||
      (NS.size() > 1 && NS[0] == '_' && llvm::isUpper(NS[1])))
    return true;
  return llvm::is_contained({"std", "thrust", "cub", "cuda", "nv", "hip",
                             "hipcub", "rocprim", "c10", "at", "torch",
                             "caffe2"},
                            NS);
}

} // namespace

bool isToolchainCode(const Decl *D, const SourceManager &SM) {
  if (!D)
    return true;
  if (!SM.isInSystemHeader(D->getLocation()))
    return false;
  return isToolchainNamespace(outermostNamespaceOf(D));
}

bool isLibraryCode(const Decl *D, const SourceManager &SM) {
  return D && SM.isInSystemHeader(D->getLocation()) && !isToolchainCode(D, SM);
}

} // namespace clang::tidy::cuda
