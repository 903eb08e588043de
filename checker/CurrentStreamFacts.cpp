//===--- CurrentStreamFacts.cpp - libtorch's current stream -------------===//
//
// FunctionFacts' model of libtorch's current CUDA stream: where it changes
// (stream guards, reset_stream, setCurrentCUDAStream, helpers that set
// it), the stream a guard's argument makes current, and the current
// stream at a point.
//
//===----------------------------------------------------------------------===//

#include "FunctionFacts.h"
#include "ExprUtils.h"
#include "LibraryCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// The current stream
//===----------------------------------------------------------------------===//

/// E, or the initialiser of the unchanged local variable E names (through
/// a one-argument construction).
const Expr *FunctionFacts::streamSource(const Expr *E) const {
  E = strip(E);
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && V->hasLocalStorage() && V->getInit() && !MutatedVars.count(V))
      E = strip(V->getInit());
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1)
    E = strip(CE->getArg(0));
  return E;
}

/// `getCurrentCUDAStream()`, or a variable initialised from it: the call.
const Expr *FunctionFacts::currentStreamSource(const Expr *E) const {
  E = streamSource(E);
  const auto *C = dyn_cast_or_null<CallExpr>(E);
  const ApiEntry *A = C ? lookup(C) : nullptr;
  return A && A->Role == ApiRole::CurrentStream ? C : nullptr;
}

StreamRef FunctionFacts::currentStreamAt(SourceLocation L) {
  const SourceManager &SM = Ctx.getSourceManager();
  StreamRef Best = streamOf(nullptr);
  for (const StreamSetter &Set : Setters) {
    if (!SM.isBeforeInTranslationUnit(Set.Begin, L))
      continue;
    if (Set.Scope && !SM.isBeforeInTranslationUnit(L, Set.Scope->getEndLoc()))
      continue;
    Best = Set.Stream;
  }
  return Best;
}

/// Does Body call setCurrentCUDAStream (a SetCurrentStream call, not a
/// guard)? Lambdas and local classes in it are not looked into.
static bool setsCurrentStream(const Stmt *Body, const ApiModel &Model) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ApiModel &Model;
    bool Found = false;
    explicit Finder(const ApiModel &M) : Model(M) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
    bool VisitCallExpr(CallExpr *C) {
      const ApiEntry *E = Model.lookup(C->getDirectCallee());
      if (E && E->Role == ApiRole::SetCurrentStream)
        Found = true;
      return !Found;
    }
  } F(Model);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

/// The stream a guard's argument makes current: a stream or a wrapper of
/// one; an optional built from one (`optional<Stream>(s)`,
/// `make_optional(s)`); the single element of a braced list
/// (`CUDAMultiStreamGuard g({s})`). Anything else (an optional or a list
/// the check cannot read) may be any stream: a Named stream whose path
/// relates to every other as MayAlias, so that no claim rests on it.
StreamRef FunctionFacts::guardStream(const Expr *Arg) {
  const Expr *E = strip(Arg);
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    if (isStreamOrWrapper(E->getType()))
      return streamOf(E);
    const Expr *Inner = nullptr;
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *F = C->getDirectCallee();
      if (F && F->getIdentifier() && F->getName() == "make_optional" &&
          C->getNumArgs() == 1)
        Inner = C->getArg(0);
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *R = C->getConstructor()->getParent();
      bool Wraps = R->getIdentifier() && (R->getName() == "optional" ||
                                          R->getName() == "ArrayRef");
      if (Wraps && C->getNumArgs() >= 1 &&
          llvm::all_of(llvm::drop_begin(C->arguments()), [](const Expr *A) {
            return isa<CXXDefaultArgExpr>(A);
          }))
        Inner = C->getArg(0);
    } else if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E)) {
      Inner = IL->getSubExpr();
    } else if (const auto *L = dyn_cast<InitListExpr>(E)) {
      if (L->getNumInits() == 1)
        Inner = L->getInit(0);
    }
    E = strip(Inner);
  }
  return anyStream(Arg);
}

/// A stream the check cannot name, spelled as E: Named, with a path that
/// relates to every other as MayAlias.
StreamRef FunctionFacts::anyStream(const Expr *E) const {
  StreamRef Any;
  Any.K = StreamRef::Named;
  Any.Path = AccessPath::temporary(E);
  Any.Spelling = spelling(E, Ctx);
  return Any;
}

/// The construction of the stream guard variable Object names, if it is one.
const CXXConstructExpr *FunctionFacts::guardOf(const Expr *Object) const {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(Object));
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  for (const CXXConstructExpr *G : StreamGuards)
    if (V && V->getInit() && strip(V->getInit()) == G)
      return G;
  return nullptr;
}

void FunctionFacts::collectStreamSetters() {
  auto Add = [&](const Expr *At, const Expr *StreamE, const Stmt *Scope) {
    Setters.push_back({At->getBeginLoc(), Scope, guardStream(StreamE)});
  };
  for (const CXXConstructExpr *G : StreamGuards) {
    if (G->getNumArgs() == 0)
      continue; // sets nothing until reset_stream
    const Stmt *Scope = G;
    while (Scope && !isa<CompoundStmt>(Scope))
      Scope = PM.getParent(Scope);
    Add(G, G->getArg(0), Scope);
  }
  // The scope of a guard variable (its declaration's block).
  auto ScopeOf = [&](const Expr *Object) -> const Stmt * {
    const Stmt *Scope = guardOf(Object);
    while (Scope && !isa<CompoundStmt>(Scope))
      Scope = PM.getParent(Scope);
    return Scope;
  };
  for (const CallExpr *C : Calls) {
    const ApiEntry *E = lookup(C);
    if (E && E->Role == ApiRole::SetCurrentStream && C->getNumArgs() > 0) {
      Add(C, C->getArg(0), nullptr);
      continue;
    }
    // g.reset_stream(s) of a guard: s is current for the rest of g's scope.
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(C);
        M && M->getMethodDecl() && M->getMethodDecl()->getIdentifier() &&
        M->getMethodDecl()->getName() == "reset_stream" && M->getNumArgs() == 1)
      if (const Stmt *Scope = ScopeOf(M->getImplicitObjectArgument())) {
        Add(C, M->getArg(0), Scope);
        continue;
      }
    // A helper that sets the current stream (setCurrentCUDAStream in its
    // body) leaves it set: which stream, the check does not follow.
    const FunctionDecl *Callee = C->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    auto SetsCurrent = [&] {
      if (!SetsCurrentStreamCache)
        return setsCurrentStream(Def->getBody(), Model);
      auto [It, New] = SetsCurrentStreamCache->try_emplace(Def, false);
      if (New)
        It->second = setsCurrentStream(Def->getBody(), Model);
      return It->second;
    };
    if (!E && Callee && Callee->hasBody(Def) && Def &&
        !isToolchainCode(Def, Ctx.getSourceManager()) &&
        SetsCurrent()) {
      Setters.push_back({C->getBeginLoc(), nullptr, anyStream(C)});
    }
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Setters, [&](const StreamSetter &A, const StreamSetter &B) {
    return SM.isBeforeInTranslationUnit(A.Begin, B.Begin);
  });
  // A guard's destructor restores the stream current at its construction:
  // a setCurrentCUDAStream inside its scope ends with it.
  for (StreamSetter &Set : Setters) {
    if (Set.Scope)
      continue;
    for (const StreamSetter &G : Setters)
      if (G.Scope && SM.isBeforeInTranslationUnit(G.Begin, Set.Begin) &&
          SM.isBeforeInTranslationUnit(Set.Begin, G.Scope->getEndLoc()) &&
          (!Set.Scope || SM.isBeforeInTranslationUnit(
                             Set.Scope->getBeginLoc(), G.Scope->getBeginLoc())))
        Set.Scope = G.Scope; // the innermost such guard
  }
}

} // namespace clang::tidy::cuda
