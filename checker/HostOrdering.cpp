//===--- HostOrdering.cpp - Host threads and host functions that order ---===//
//
// Host-side ordering, as effects (EffectBuilder::collectHostOrdering) and
// the edge that leaves a polling loop (Solver::pollExit):
//  - a std::thread / std::jthread started with a function, or std::async
//    given one, whose summary synchronizes streams or the device on every
//    path: a ThreadStart, a signal (PendingState::EventInfo::HostSignal)
//    covering what those streams have in flight when the thread starts,
//    and a HostWait where the host joins it (`t.join()`, `f.get()`,
//    `f.wait()`) or a loop polls its future. The thread's completion
//    "synchronizes with" the join's return ([thread.thread.member]) and the
//    future's readiness with get/wait ([futures.async]); what the thread
//    synchronized before it returned is complete there;
//  - a host function enqueued on a stream (cudaLaunchHostFunc,
//    cudaStreamAddCallback: ApiEntry::UserDataArg) runs after the stream's
//    earlier work; the object handed to it (`&done`, `&promise`, `state`)
//    is its signal (Solver::applyApi records it). A loop whose condition
//    reads that object waits for it on its exit edge; `f.get()` /
//    `f.wait()` of a future made by `p.get_future()` waits for the promise
//    p handed to it.
// Copies a thread issues, and a thread's event syncs, are not followed.
//
// May call: what Effects.h may call; the Solver's transfers.
//
//===----------------------------------------------------------------------===//

#include "EffectBuilder.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "HostOrdering.h"
#include "Solver.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {
namespace {

/// Is R std::<one of Names> (any inline namespace)?
bool isStdRecord(const CXXRecordDecl *R,
                 std::initializer_list<llvm::StringRef> Names) {
  return R && R->isInStdNamespace() && R->getIdentifier() &&
         llvm::is_contained(Names, R->getName());
}

const CXXRecordDecl *recordOf(const Expr *E) {
  return E ? E->getType().getNonReferenceType()->getAsCXXRecordDecl()
           : nullptr;
}

} // namespace

/// The variable whose initialiser Start is (`std::thread t(f);`, `auto f =
/// std::async(g);`), looking through the implicit nodes around it.
const VarDecl *EffectBuilder::initialisedBy(const Expr *Start) const {
  const Stmt *S = Start;
  for (const Stmt *P = F.PM.getParent(S); P; S = P, P = F.PM.getParent(P)) {
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit() == S)
          return V;
      return nullptr;
    }
    if (!isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             ImplicitCastExpr, ParenExpr, CXXConstructExpr>(P))
      return nullptr;
  }
  return nullptr;
}

/// `fn(args...)` as the thread will call it (std::thread and std::async
/// decay-copy the arguments: the same streams and pointers): a member call
/// of the lambda's operator() on the lambda, or a call of the named
/// function. Null for anything else (a functor, a member pointer).
const CallExpr *EffectBuilder::threadCall(const Expr *Fn,
                                          llvm::ArrayRef<const Expr *> Args,
                                          SourceLocation At) const {
  if (const CXXMethodDecl *Op = lambdaOf(Fn))
    return syntheticMemberCall(Ctx, Fn, Op, Args, At);
  const Expr *X = addressedObject(Fn);
  const auto *D = dyn_cast_or_null<DeclRefExpr>(X ? X : strip(Fn));
  const auto *FD = D ? dyn_cast<FunctionDecl>(D->getDecl()) : nullptr;
  if (!FD || isa<CXXMethodDecl>(FD) || FD->getNumParams() != Args.size())
    return nullptr;
  llvm::SmallVector<Expr *, 4> Mutable;
  for (const Expr *A : Args)
    Mutable.push_back(const_cast<Expr *>(A));
  return CallExpr::Create(Ctx, const_cast<DeclRefExpr *>(D), Mutable,
                          FD->getReturnType(), VK_PRValue, At,
                          FPOptionsOverride());
}

/// A thread (or std::async) starting Fn(Args...) at Start into the
/// variable V: a ThreadStart when Fn's summary synchronizes something.
void EffectBuilder::addThreadStart(const Expr *Start, const Expr *Fn,
                                   llvm::ArrayRef<const Expr *> Args) {
  const VarDecl *V = initialisedBy(Start);
  const CallExpr *C = V ? threadCall(Fn, Args, Start->getBeginLoc()) : nullptr;
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  if (!Callee || !summarizable(Callee, Ctx.getSourceManager()))
    return;
  const HelperSummary *S = lambdaOperator(Callee)
                               ? R.summaryOf(Callee)
                               : R.summaryOf(Callee, bindings(C, Callee));
  if (!S || S->TooCostly ||
      (!S->SyncsDevice && S->SyncsStreams.empty() &&
       llvm::none_of(S->SyncsStreamParam, [](bool B) { return B; }) &&
       llvm::none_of(S->SyncsStreamParamIfBlocking, [](bool B) { return B; })))
    return;
  Effect Ev(Effect::ThreadStart);
  Ev.Anchor = Start;
  Ev.CE = C;
  Ev.Summary = S;
  Ev.Var = V;
  Out.List.push_back(std::move(Ev));
  Started.insert(V);
}

void EffectBuilder::collectHostOrdering() {
  for (const CXXConstructExpr *T : F.ThreadStarts) {
    llvm::SmallVector<const Expr *, 4> Args(T->arguments());
    addThreadStart(T, Args.front(), llvm::ArrayRef(Args).drop_front());
  }
  for (const CallExpr *C : F.Calls) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (isStdFunction(Callee, {"async"}) && C->getNumArgs() > 0) {
      // std::async([policy,] f, args...)
      llvm::SmallVector<const Expr *, 4> Args(C->arguments());
      llvm::ArrayRef<const Expr *> Rest(Args);
      const auto *Policy = dyn_cast_or_null<EnumDecl>(
          Rest.front()->getType()->getAsTagDecl());
      if (Policy && Policy->getName() == "launch")
        Rest = Rest.drop_front();
      if (!Rest.empty())
        addThreadStart(C, Rest.front(), Rest.drop_front());
    }
  }
  // `p.get_future()` of a std::promise: the promise, whose fulfilment the
  // future waits for.
  auto PromiseOf = [&](const Expr *E) -> const Expr * {
    const auto *Get = dyn_cast_or_null<CXXMemberCallExpr>(strip(E));
    const CXXMethodDecl *M = Get ? Get->getMethodDecl() : nullptr;
    if (!M || !M->getIdentifier() || M->getName() != "get_future" ||
        !isStdRecord(recordOf(strip(Get->getImplicitObjectArgument())),
                     {"promise"}))
      return nullptr;
    return Get->getImplicitObjectArgument();
  };
  for (const CallExpr *C : F.Calls) {
    const auto *M = dyn_cast<CXXMemberCallExpr>(C);
    const CXXMethodDecl *Method = M ? M->getMethodDecl() : nullptr;
    if (!Method || !Method->getIdentifier())
      continue;
    const Expr *Object = M->getImplicitObjectArgument();
    const auto *V = dyn_cast_or_null<VarDecl>(namedDecl(Object));
    llvm::StringRef Name = Method->getName();
    // The object's class: future<T>::wait is its base class's.
    const CXXRecordDecl *Of =
        (V ? V->getType() : strip(Object)->getType())
            .getNonReferenceType()
            ->getAsCXXRecordDecl();
    bool Joins = isStdRecord(Of, {"thread", "jthread"}) && Name == "join";
    bool Waits = isStdRecord(Of, {"future", "shared_future"}) &&
                 (Name == "get" || Name == "wait");
    if ((!Joins && !Waits) || (Joins && !V))
      continue;
    Effect Ev(Effect::HostWait);
    Ev.Anchor = C;
    if (V && Started.count(V)) {
      Ev.Var = V;
    } else {
      // `auto f = p.get_future(); f.get();` or `p.get_future().get()`: a
      // wait for the promise p.
      const Expr *Promise = !V ? PromiseOf(Object)
                            : F.MutatedVars.count(V) ? nullptr
                                                     : PromiseOf(V->getInit());
      if (!Waits || !Promise)
        continue;
      Ev.Loc = Promise;
    }
    Out.List.push_back(std::move(Ev));
  }
}

/// The signal a host function's argument names: the object `&x` points to,
/// or the pointer variable's (`state`, whose `state->done` a loop reads).
std::optional<AccessPath> hostSignalOf(const Expr *UserData) {
  const Expr *X = addressedObject(UserData);
  if (!X) { // a pointer handed over
    X = strip(UserData);
    if (!X || !X->getType()->isPointerType())
      return std::nullopt;
  }
  AccessPath P = AccessPath::of(X);
  if (P.rootKind() != AccessPath::RootKind::Decl &&
      P.rootKind() != AccessPath::RootKind::This)
    return std::nullopt;
  return P;
}

void applyThreadStart(Solver &Sv, PendingState &St, const Effect &Ev) {
  std::vector<StreamRef> Streams = syncedStreamsAtCall(
      Sv.facts(), *Ev.Summary, Ev.CE);
  Sv.recordSignal(St, AccessPath::ofDecl(Ev.Var), Streams,
                  Ev.Summary->SyncsDevice, cast<Expr>(Ev.Anchor));
}

void applyHostWait(Solver &Sv, PendingState &St, const Effect &Ev) {
  Sv.waitSignal(St, Ev.Var ? AccessPath::ofDecl(Ev.Var)
                           : AccessPath::of(Ev.Loc));
}

void Solver::pollExit(PendingState &Edge, const Expr *Cond) {
  llvm::SmallVector<AccessPath, 2> Signals;
  for (const auto &[Key, Info] : Edge.Events)
    if (Info.HostSignal)
      Signals.push_back(Key);
  if (Signals.empty() || !Cond)
    return;
  llvm::SmallVector<const Stmt *, 8> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (isa<DeclRefExpr, MemberExpr, CXXMemberCallExpr>(S)) {
      AccessPath P = AccessPath::of(cast<Expr>(S));
      for (const AccessPath &Key : Signals)
        if (P.within(Key))
          waitSignal(Edge, Key);
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
}

} // namespace clang::tidy::cuda
