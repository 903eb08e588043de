//===--- Exceptions.cpp - Calls that may throw to a handler --------------===//
//
// throwingCall (Exceptions.h): a walk of a callee's body for `throw`
// expressions outside its own try blocks, and for calls of functions that
// visibly throw, to a bounded depth, cached per definition.
//
//===----------------------------------------------------------------------===//

#include "Exceptions.h"
#include "HelperSummaries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda {
namespace {

const FunctionDecl *calleeOfCall(const Expr *E) {
  if (const auto *C = dyn_cast_or_null<CallExpr>(E))
    return isa<CUDAKernelCallExpr>(C) ? nullptr : C->getDirectCallee();
  if (const auto *K = dyn_cast_or_null<CXXConstructExpr>(E))
    return K->getConstructor();
  return nullptr;
}

bool visiblyThrows(const FunctionDecl *Def, ASTContext &Ctx, unsigned Depth,
                   ThrowCache &Cache);

/// The walk of one body: a throw outside its try blocks (a throw inside a
/// try block is taken as handled there), or a call that throws.
class ThrowWalk : public RecursiveASTVisitor<ThrowWalk> {
public:
  ThrowWalk(ASTContext &Ctx, unsigned Depth, ThrowCache &Cache)
      : Ctx(Ctx), Depth(Depth), Cache(Cache) {}
  bool Throws = false;

  bool TraverseCXXTryStmt(CXXTryStmt *T) {
    // Handlers may rethrow; the try block's throws are caught (or not: a
    // miss, never a false claim).
    for (unsigned I = 0; I < T->getNumHandlers(); ++I)
      if (!TraverseStmt(T->getHandler(I)->getHandlerBlock()))
        return false;
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *) {
    Throws = true;
    return false;
  }
  bool VisitCallExpr(CallExpr *C) { return call(C); }
  bool VisitCXXConstructExpr(CXXConstructExpr *K) { return call(K); }
  // Lambdas and local classes defined here run only where called.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }

private:
  bool call(const Expr *E) {
    if (Depth > 0 && throwingCall(E, Ctx, Depth - 1, Cache)) {
      Throws = true;
      return false;
    }
    return true;
  }
  ASTContext &Ctx;
  unsigned Depth;
  ThrowCache &Cache;
};

bool visiblyThrows(const FunctionDecl *Def, ASTContext &Ctx, unsigned Depth,
                   ThrowCache &Cache) {
  auto [It, New] = Cache.try_emplace(Def, false); // recursion: not (yet)
  if (!New)
    return It->second;
  ThrowWalk W(Ctx, Depth, Cache);
  W.TraverseStmt(Def->getBody());
  Cache[Def] = W.Throws;
  return W.Throws;
}

} // namespace

bool throwingCall(const Expr *Call, ASTContext &Ctx, unsigned Depth,
                  ThrowCache &Cache) {
  const FunctionDecl *Callee = calleeOfCall(Call);
  if (!Callee)
    return false;
  const auto *Proto = Callee->getType()->getAs<FunctionProtoType>();
  if (Proto && Proto->isNothrow())
    return false;
  const FunctionDecl *Def = summarizable(Callee, Ctx.getSourceManager());
  return Def && visiblyThrows(Def, Ctx, Depth, Cache);
}

} // namespace clang::tidy::cuda
