//===--- CallableWalker.h - One walk of a unit's callables -*- C++ -*-===//
//
// One concern: the walk of a translation unit that the pre-filter
// (CallableSelection) and the callers' contexts (CallerContexts) share: the
// project's own declarations and libraries' in system headers, not the
// toolchain's (LibraryCode.h); template instantiations, not their dependent
// patterns; with the callable each node is in (a function with a body, or
// a lambda's call operator), innermost last.
//
// A RecursiveASTVisitor base (CRTP): the derived walker adds Visit*
// methods, reads current(), and may define enterCallable / leaveCallable.
//
// May call: LibraryCode, clang's AST.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_CALLABLEWALKER_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_CALLABLEWALKER_H

#include "LibraryCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <vector>

namespace clang::tidy::cuda {

template <class Derived>
class CallableWalker : public RecursiveASTVisitor<Derived> {
  using Base = RecursiveASTVisitor<Derived>;

public:
  explicit CallableWalker(const SourceManager &SM) : SM(SM) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (Callables.empty() && !isa<TranslationUnitDecl>(D) &&
        isToolchainCode(D, SM))
      return true;
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    // A dependent body is never analysed; its instantiations are walked
    // where RecursiveASTVisitor lists them.
    if (FD->isTemplated())
      return true;
    enter(FD);
    bool Result = Base::TraverseDecl(D);
    leave();
    return Result;
  }

  bool TraverseLambdaExpr(LambdaExpr *LE) {
    enter(LE->getCallOperator());
    bool Result = Base::TraverseLambdaExpr(LE);
    leave();
    return Result;
  }

  /// Hooks, called as a callable's body is entered and left.
  void enterCallable(const FunctionDecl *) {}
  void leaveCallable() {}

protected:
  /// The innermost callable being walked; null at namespace scope (a
  /// global's initializer).
  const FunctionDecl *current() const {
    return Callables.empty() ? nullptr : Callables.back();
  }

private:
  void enter(const FunctionDecl *FD) {
    static_cast<Derived *>(this)->enterCallable(FD);
    Callables.push_back(FD);
  }
  void leave() {
    Callables.pop_back();
    static_cast<Derived *>(this)->leaveCallable();
  }

  const SourceManager &SM;
  std::vector<const FunctionDecl *> Callables;
};

} // namespace clang::tidy::cuda

#endif
