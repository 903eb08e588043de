//===--- HostOrdering.cpp - Host threads and host functions that order ---===//
//
// Host-side ordering, as effects (EffectBuilder::collectHostOrdering) and
// the edge that leaves a polling loop (Solver::pollExit):
//  - a std::thread / std::jthread started with a function, or std::async
//    given one, whose summary synchronizes streams or the device on every
//    path: a ThreadStart, a signal (PendingState::EventInfo::HostSignal)
//    covering what those streams have in flight when the thread starts,
//    and a HostWait where the host joins it (`t.join()`, `f.get()`,
//    `f.wait()`) or a loop polls its future. Threads and futures put into
//    a local container (`ts.emplace_back(f, s)`, `fs.push_back(std::async(
//    g))`) share the container's signal, which covers what each covered;
//    a loop that joins every element (`for (auto &t : ts) t.join();`, also
//    under `if (t.joinable())`, or `ts[i]` for `i < ts.size()`) waits for
//    it on its exit edge (CallableEffects::JoinLoops). The thread's completion
//    "synchronizes with" the join's return ([thread.thread.member]) and the
//    future's readiness with get/wait ([futures.async]); what the thread
//    synchronized before it returned is complete there;
//  - a host function enqueued on a stream (cudaLaunchHostFunc,
//    cudaStreamAddCallback: ApiEntry::UserDataArg) runs after the stream's
//    earlier work; the object handed to it (`&done`, `&promise`, `state`)
//    is its signal (Solver::applyApi records it). A loop whose condition
//    reads that object waits for it on its exit edge; `f.get()` /
//    `f.wait()` of a future made by `p.get_future()` waits for the promise
//    p handed to it; `cv.wait(lock, pred)` of a condition variable polls
//    what its predicate (a lambda) reads.
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

bool isThreadOrFuture(const CXXRecordDecl *R) {
  return isStdRecord(R, {"thread", "jthread", "future", "shared_future"});
}

/// The container variable of `ts.push_back(..)` / `ts.emplace_back(..)`
/// whose elements (its first template argument) are threads or futures.
const VarDecl *containerVar(const CXXMemberCallExpr *M) {
  const CXXMethodDecl *Method = M ? M->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier() ||
      (Method->getName() != "push_back" && Method->getName() != "emplace_back"))
    return nullptr;
  const auto *V = dyn_cast_or_null<VarDecl>(
      namedDecl(M->getImplicitObjectArgument()));
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      V ? V->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr);
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return nullptr;
  const TemplateArgument &Elem = Spec->getTemplateArgs()[0];
  return Elem.getKind() == TemplateArgument::Type &&
                 isThreadOrFuture(Elem.getAsType()->getAsCXXRecordDecl())
             ? V
             : nullptr;
}

/// `t.joinable()` / `f.valid()`: true for a thread not joined yet, a future
/// not waited for (the `if` around a join that runs for each started one).
bool isJoinableTest(const Expr *Cond) {
  const auto *M = dyn_cast_or_null<CXXMemberCallExpr>(
      Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  const CXXMethodDecl *Method = M ? M->getMethodDecl() : nullptr;
  return Method && Method->getIdentifier() &&
         (Method->getName() == "joinable" || Method->getName() == "valid");
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

const VarDecl *EffectBuilder::containerOf(const Expr *Start) const {
  const Stmt *S = Start;
  for (const Stmt *P = F.PM.getParent(S); P; S = P, P = F.PM.getParent(P)) {
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(P))
      return M->getNumArgs() == 1 && M->getArg(0) == S ? containerVar(M)
                                                        : nullptr;
    if (!isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             ImplicitCastExpr, ParenExpr, CXXConstructExpr,
             CXXFunctionalCastExpr>(P))
      return nullptr;
  }
  return nullptr;
}

bool EffectBuilder::addJoinLoop(const CXXMemberCallExpr *Wait,
                                const Expr *Object) {
  const Expr *X = Object->IgnoreParenImpCasts();
  const Stmt *Loop = nullptr;
  const VarDecl *Container = nullptr;
  if (const auto *D = dyn_cast<DeclRefExpr>(X)) {
    // `for (auto &t : ts) t.join();`
    for (const Stmt *P = F.PM.getParent(Wait); P; P = F.PM.getParent(P))
      if (const auto *R = dyn_cast<CXXForRangeStmt>(P)) {
        if (R->getLoopVariable() == D->getDecl()) {
          Loop = R;
          Container = dyn_cast_or_null<VarDecl>(namedDecl(R->getRangeInit()));
        }
        break;
      }
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(X);
             Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
    // `for (size_t i = 0; i < ts.size(); ++i) ts[i].join();`
    Container = dyn_cast_or_null<VarDecl>(namedDecl(Op->getArg(0)));
    const auto *Index = dyn_cast<DeclRefExpr>(Op->getArg(1)->IgnoreParenImpCasts());
    const ForStmt *For = nullptr;
    for (const Stmt *P = F.PM.getParent(Wait); P && !For; P = F.PM.getParent(P))
      For = dyn_cast<ForStmt>(P);
    const auto *Cond = For ? dyn_cast_or_null<BinaryOperator>(
                                 For->getCond()->IgnoreParenImpCasts())
                           : nullptr;
    const auto *I = Cond ? dyn_cast<DeclRefExpr>(
                               Cond->getLHS()->IgnoreParenImpCasts())
                         : nullptr;
    const auto *Size = Cond ? dyn_cast<CXXMemberCallExpr>(
                                  Cond->getRHS()->IgnoreParenImpCasts())
                            : nullptr;
    if (Index && I && Size && Cond->getOpcode() == BO_LT &&
        I->getDecl() == Index->getDecl() && Size->getMethodDecl() &&
        Size->getMethodDecl()->getIdentifier() &&
        Size->getMethodDecl()->getName() == "size" &&
        namedDecl(Size->getImplicitObjectArgument()) == Container)
      Loop = For;
  }
  if (!Loop || !Container || !Started.count(Container))
    return false;
  // The wait runs in every iteration: between it and the loop's body only
  // expressions that evaluate it, blocks, and `if (t.joinable())`.
  const Stmt *Body = isa<ForStmt>(Loop) ? cast<ForStmt>(Loop)->getBody()
                                        : cast<CXXForRangeStmt>(Loop)->getBody();
  for (const Stmt *S = Wait; S != Body;) {
    const Stmt *P = F.PM.getParent(S);
    if (!P)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->getThen() != S || !isJoinableTest(If->getCond()))
        return false;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P);
               (B && B->isLogicalOp()) || isa<AbstractConditionalOperator>(P) ||
               (!isa<Expr>(P) && !isa<CompoundStmt>(P) && P != Loop)) {
      return false;
    }
    S = P;
    if (S == Loop)
      return false;
  }
  Out.JoinLoops[Loop] = Container;
  return true;
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
                                   llvm::ArrayRef<const Expr *> Args,
                                   const VarDecl *Into) {
  const VarDecl *V = Into ? Into : initialisedBy(Start);
  if (!V)
    V = Into = containerOf(Start);
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
  Ev.IntoContainer = Into != nullptr;
  Out.List.push_back(std::move(Ev));
  Started.insert(V);
}

void EffectBuilder::collectHostOrdering() {
  for (const CXXConstructExpr *T : F.ThreadStarts) {
    llvm::SmallVector<const Expr *, 4> Args(T->arguments());
    addThreadStart(T, Args.front(), llvm::ArrayRef(Args).drop_front());
  }
  for (const CallExpr *C : F.Calls) {
    // `ts.emplace_back(f, args...)`: the container's element is constructed
    // as std::thread(f, args...).
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(C);
        M && M->getNumArgs() > 0)
      if (const VarDecl *Into = containerVar(M);
          Into && !isThreadOrFuture(recordOf(M->getArg(0)))) {
        llvm::SmallVector<const Expr *, 4> Args(M->arguments());
        addThreadStart(M, Args.front(), llvm::ArrayRef(Args).drop_front(),
                       Into);
        continue;
      }
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
    // `cv.wait(lock, pred)` returns once pred() is true: a loop polling
    // what pred reads ([thread.condition.condvar]: `while (!pred())
    // wait(lock);`).
    if (const CXXMethodDecl *Pred =
            isStdRecord(Of, {"condition_variable", "condition_variable_any"}) &&
                    Name == "wait" && M->getNumArgs() == 2
                ? lambdaOf(M->getArg(1))
                : nullptr;
        Pred && Pred->getBody()) {
      Effect Ev(Effect::HostWait);
      Ev.Anchor = C;
      Ev.Lambda = Pred;
      Out.List.push_back(std::move(Ev));
      continue;
    }
    bool Joins = isStdRecord(Of, {"thread", "jthread"}) && Name == "join";
    bool Waits = isStdRecord(Of, {"future", "shared_future"}) &&
                 (Name == "get" || Name == "wait");
    if (!Joins && !Waits)
      continue;
    if (!(V && Started.count(V)) && addJoinLoop(M, Object))
      continue;
    if (Joins && !V)
      continue;
    Effect Ev(Effect::HostWait);
    Ev.Anchor = C;
    if (V && Started.count(V)) {
      Ev.Var = V;
    } else {
      // `auto f = p.get_future(); f.get();` or `p.get_future().get()`: a
      // wait for the promise p.
      const Expr *Promise = promiseOfFuture(Object, F.MutatedVars);
      // `auto f = whenDone(s); f.wait();` or `whenDone(s).wait()`: a wait
      // for what the call returned (a helper's summary may say a host
      // function signals it: HelperSummary::ReturnsSignal).
      if (!Promise && Waits) {
        const Expr *Init = V ? (F.MutatedVars.count(V) ? nullptr
                                                        : V->getInit())
                             : Object;
        Promise = dyn_cast_or_null<CallExpr>(strip(Init));
        Ev.CE = dyn_cast_or_null<CallExpr>(Promise);
      }
      if (!Waits || !Promise)
        continue;
      Ev.Loc = Promise;
    }
    Out.List.push_back(std::move(Ev));
  }
}

const Expr *promiseOfFuture(const Expr *E,
                            const std::set<const VarDecl *> &MutatedVars) {
  const auto *V = dyn_cast_or_null<VarDecl>(namedDecl(E));
  if (V && !isa<ParmVarDecl>(V))
    E = MutatedVars.count(V) ? nullptr : V->getInit();
  const auto *Get = dyn_cast_or_null<CXXMemberCallExpr>(strip(E));
  const CXXMethodDecl *M = Get ? Get->getMethodDecl() : nullptr;
  // The promise's class (`p->get_future()` of a promise pointer: the
  // method's own class).
  if (!M || !M->getIdentifier() || M->getName() != "get_future" ||
      !isStdRecord(M->getParent(), {"promise"}))
    return nullptr;
  return Get->getImplicitObjectArgument();
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
                  Ev.Summary->SyncsDevice, cast<Expr>(Ev.Anchor),
                  /*Accumulate=*/Ev.IntoContainer);
}

void applyHostWait(Solver &Sv, PendingState &St, const Effect &Ev) {
  if (Ev.Lambda) // a condition variable's predicate, true on return
    Sv.pollExit(St, Ev.Lambda->getBody());
  else
    Sv.waitSignal(St, Ev.Var        ? AccessPath::ofDecl(Ev.Var)
                      : Ev.CE ? AccessPath::temporary(Ev.CE)
                                      : AccessPath::of(Ev.Loc));
}

void Solver::pollExit(PendingState &Edge, const Stmt *Cond) {
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
