//===--- Solver.cpp - The data flow over one callable's CFG -------------===//
//
// The run of the data flow: the order in which the worklist hands out
// blocks, the fixed point under the budgets, loops whose exit carries
// their back edges' state, the propagation along edges (with branch
// refinement), the reporting pass, and the join's choice of note. The
// transfers are in SolverTransfers.cpp, the reading of branch conditions
// in SolverBranches.cpp, the findings in SolverReport.cpp.
//
//===----------------------------------------------------------------------===//

#include "Solver.h"
#include "Exceptions.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <memory>
#include <tuple>

namespace clang::tidy::cuda {
namespace {

/// The order in which the worklist hands out blocks: reverse post-order of
/// a depth-first walk that takes a block's successors last to first, so that
/// a loop's exit comes after its body and the body converges before the
/// code after the loop runs. (PostOrderCFGView takes them first to last,
/// which puts the exit first: 1.5x the time on 10,000 sequential loops;
/// clang's weak topological order, getIntervalWTO, grows faster than
/// linearly there: 3.3x.)
class BodyFirstOrder {
public:
  explicit BodyFirstOrder(const CFG &Cfg)
      : Index(std::make_shared<std::vector<unsigned>>(Cfg.getNumBlockIDs(),
                                                      ~0u)) {
    std::vector<const CFGBlock *> Post;
    std::vector<bool> Seen(Cfg.getNumBlockIDs(), false);
    std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
    Stack.push_back({&Cfg.getEntry(), 0});
    Seen[Cfg.getEntry().getBlockID()] = true;
    while (!Stack.empty()) {
      auto &[B, Next] = Stack.back();
      if (Next < B->succ_size()) {
        // Successors of pruned edges are null.
        const CFGBlock *S = *(B->succ_begin() + (B->succ_size() - 1 - Next++));
        if (S && !Seen[S->getBlockID()]) {
          Seen[S->getBlockID()] = true;
          Stack.push_back({S, 0});
        }
        continue;
      }
      Post.push_back(B);
      Stack.pop_back();
    }
    unsigned N = 0;
    for (auto It = Post.rbegin(); It != Post.rend(); ++It)
      (*Index)[(*It)->getBlockID()] = N++;
  }
  /// The priority queue's "less": the block later in the order.
  bool operator()(const CFGBlock *A, const CFGBlock *B) const {
    return (*Index)[A->getBlockID()] > (*Index)[B->getBlockID()];
  }
  /// An edge From -> To that goes back to a block no later in the order: a
  /// loop's back edge.
  bool isBackEdge(const CFGBlock *From, const CFGBlock *To) const {
    return (*Index)[From->getBlockID()] >= (*Index)[To->getBlockID()];
  }

private:
  std::shared_ptr<std::vector<unsigned>> Index; ///< reverse post-order index
};

/// clang's dataflow worklist (each block at most once in the queue), in
/// BodyFirstOrder.
struct BodyFirstWorklist : DataflowWorklistBase<BodyFirstOrder, 20> {
  BodyFirstWorklist(const CFG &Cfg, const BodyFirstOrder &Order)
      : DataflowWorklistBase(Cfg, Order) {}
};

} // namespace

Solver::Solver(CallableRun &R, FunctionFacts &F, CallableEffects &E)
    : R(R), F(F), Effects(E), Ctx(R.context()), Model(R.model()),
      Opts(R.options()) {}

bool Solver::preferNote(const MissNote &A, const MissNote &B) const {
  // Some note beats none; of two, the call that comes first in the source
  // (then by reason and text): an order on notes, so that the note printed
  // does not depend on the order in which paths reach a join.
  if ((A.Reason == MissReason::None) != (B.Reason == MissReason::None))
    return B.Reason == MissReason::None;
  if (A.Reason == MissReason::None)
    return false;
  if (A.Where != B.Where) {
    if (!A.Where || !B.Where)
      return A.Where != nullptr;
    SourceLocation LA = A.Where->getBeginLoc(), LB = B.Where->getBeginLoc();
    if (LA != LB)
      return Ctx.getSourceManager().isBeforeInTranslationUnit(LA, LB);
  }
  return std::tie(A.Reason, A.Detail) < std::tie(B.Reason, B.Detail);
}

/// Runs to a fixed point, then one reporting pass. Returns the state at
/// the exit block, or nullopt when over budget or not analysable.
std::optional<PendingState> Solver::run() {
  // (A helper's producers are part of its summary.)
  if (Effects.Copies.empty() &&
      llvm::none_of(Effects.List, [&](const Effect &E) {
        return E.K == Effect::Consume ||
               (R.SummaryMode && E.K == Effect::Produce);
      }))
    return PendingState{};
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  // Destructors of local objects where they go out of scope (Effects
  // summarizes those with visible bodies).
  BO.AddImplicitDtors = !F.DestroyedVars.empty();
  std::unique_ptr<CFG> Cfg =
      CFG::buildCFG(F.FD, const_cast<Stmt *>(F.Body), &Ctx, BO);
  if (!Cfg)
    return std::nullopt;
  findCorrelated(*Cfg);

  // Effects attach to the CFG element of their anchor (or its nearest
  // ancestor that is one); a destructor's, to each element where its
  // variable is destroyed (every exit from its scope).
  llvm::DenseMap<const Stmt *, std::pair<unsigned, unsigned>> ElementOf;
  llvm::DenseMap<const VarDecl *,
                 llvm::SmallVector<std::pair<unsigned, unsigned>, 2>>
      DestroyedAt;
  for (const CFGBlock *B : *Cfg)
    for (unsigned I = 0; I < B->size(); ++I) {
      if (auto S = (*B)[I].getAs<CFGStmt>())
        ElementOf.try_emplace(S->getStmt(), B->getBlockID(), I);
      else if (auto D = (*B)[I].getAs<CFGAutomaticObjDtor>())
        DestroyedAt[D->getVarDecl()].emplace_back(B->getBlockID(), I);
    }
  // Calls that visibly throw inside a try block: an edge from just before
  // each to the try's dispatch block (Exceptions.h), which clang's CFG links
  // to the handlers.
  // An error check (`check(cudaStreamSynchronize(s))`) throws when the GPU
  // call failed: its effects may not have happened, and after a failed
  // CUDA call the check claims nothing.
  auto ChecksGpuResult = [&](const Expr *Call) {
    const auto *C = dyn_cast<CallExpr>(Call);
    return C && llvm::any_of(C->arguments(), [&](const Expr *A) {
             const auto *Inner = dyn_cast_or_null<CallExpr>(strip(A));
             const FunctionDecl *Fn = Inner ? F.calleeOf(Inner) : nullptr;
             return Fn && (F.Model.lookup(Fn) || isUnmodelledGpuApi(Fn));
           });
  };
  llvm::DenseMap<const Stmt *, const CFGBlock *> DispatchOf;
  for (const CFGBlock *B : *Cfg)
    if (const auto *T = dyn_cast_or_null<CXXTryStmt>(B->getTerminatorStmt()))
      DispatchOf[T] = B;
  llvm::DenseMap<std::pair<unsigned, unsigned>, const CFGBlock *> ThrowsTo;
  if (!DispatchOf.empty())
    for (const CFGBlock *B : *Cfg)
      for (unsigned I = 0; I < B->size(); ++I) {
        auto S = (*B)[I].getAs<CFGStmt>();
        const auto *Call = S ? dyn_cast<Expr>(S->getStmt()) : nullptr;
        if (!Call || !isa<CallExpr, CXXConstructExpr>(Call) ||
            ChecksGpuResult(Call) ||
            !throwingCall(Call, Ctx, Opts.MaxHelperDepth,
                          R.Owner.throwCache()))
          continue;
        // The innermost try whose try block (not a handler) holds it.
        const Stmt *Child = Call;
        for (const Stmt *P = F.PM.getParent(Call); P;
             Child = P, P = F.PM.getParent(P))
          if (const auto *T = dyn_cast<CXXTryStmt>(P);
              T && T->getTryBlock() == Child) {
            if (const CFGBlock *D = DispatchOf.lookup(T))
              ThrowsTo[{B->getBlockID(), I}] = D;
            break;
          }
      }
  std::vector<const CFGBlock *> Thrown; // dispatch blocks whose state grew

  std::vector<std::vector<std::vector<unsigned>>> At(Cfg->getNumBlockIDs());
  for (const CFGBlock *B : *Cfg)
    At[B->getBlockID()].resize(B->size());
  // Accesses first: arguments are evaluated before the call that
  // receives them, which may be a sync.
  for (bool Accesses : {true, false})
    for (unsigned N = 0; N < Effects.List.size(); ++N) {
      if ((Effects.List[N].K == Effect::Access) != Accesses)
        continue;
      if (Effects.List[N].K == Effect::Call && Effects.List[N].Var) {
        for (auto [Block, Index] : DestroyedAt.lookup(Effects.List[N].Var))
          At[Block][Index].push_back(N);
        continue;
      }
      const Stmt *S = Effects.List[N].Anchor;
      while (S && !ElementOf.count(S))
        S = F.PM.getParent(S);
      if (!S)
        continue; // unevaluated or unreachable
      auto [Block, Index] = ElementOf.lookup(S);
      At[Block][Index].push_back(N);
    }

  std::vector<PendingState> In(Cfg->getNumBlockIDs());
  PendingState &Entry = In[Cfg->getEntry().getBlockID()];
  auto Prefer = [&](const MissNote &A, const MissNote &B) {
    return preferNote(A, B);
  };
  Entry.Reached = true;
  SummarySeeds::seedEntry(Effects, Entry);

  // Loops that run their body once before they exit on some paths: a loop
  // that certainly runs (FunctionFacts::certainlyRuns) exits only after an
  // iteration, and a loop over a container (loopContainer) skips its body
  // only when the container is empty, when no copy was issued on a stream
  // among its elements. For these the exit edge carries the state of the
  // back edges (LoopBack) joined with the state from before the loop
  // (LoopEntry) less what such a skip cannot leave pending.
  BodyFirstOrder Order(*Cfg);
  struct LoopHead {
    bool Certain = false;
    /// One iteration only: the back edge's state reaches the exit, never
    /// the body again (`for (int i = 0; i < 1; ++i)`).
    bool Once = false;
    std::optional<AccessPath> Container;
    /// Skipped only when a loop with this first test did not run either.
    std::optional<FunctionFacts::FirstTest> First;
    /// The copies issued in a loop with that first test: not pending on a
    /// skip (a loop that issued one ran, so this one does not skip).
    std::set<unsigned> IssuedWhereFirstRan;
    std::optional<PendingState> Entry, Back;
  };
  std::vector<std::optional<LoopHead>> Loops(Cfg->getNumBlockIDs());
  for (const CFGBlock *B : *Cfg) {
    if (B->succ_size() != 2 || !B->getTerminatorStmt())
      continue;
    const Stmt *Loop = B->getTerminatorStmt();
    LoopHead H;
    H.Certain = F.certainlyRuns(Loop);
    H.Once = H.Certain && F.runsOnce(Loop);
    H.Container = F.loopContainer(Loop);
    H.First = F.firstTest(Loop);
    if (H.First)
      for (unsigned Id = 0; Id < Effects.Copies.size(); ++Id)
        if (F.inLoopWithFirstTest(Effects.Copies[Id]->Call, *H.First))
          H.IssuedWhereFirstRan.insert(Id);
    if (H.Certain || H.Container || H.First)
      Loops[B->getBlockID()] = std::move(H);
  }
  // Joins From into Into; true when Into changed.
  auto JoinChanged = [&](PendingState &Into, const PendingState &From) {
    PendingState Before = Into;
    Into.join(From, Prefer);
    return !(Into == Before);
  };
  auto JoinInto = [&](std::optional<PendingState> &Into,
                      const PendingState &From) {
    if (!Into) {
      Into = From;
      return true;
    }
    return JoinChanged(*Into, From);
  };

  auto RunBlock = [&](const CFGBlock &B, bool Reporting,
                      const PendingState *From = nullptr) {
    PendingState St = From ? *From : In[B.getBlockID()];
    size_t Before = St.size();
    for (unsigned I = 0; I < B.size(); ++I) {
      if (!Reporting && !ThrowsTo.empty())
        if (const CFGBlock *D = ThrowsTo.lookup({B.getBlockID(), I});
            D && JoinChanged(In[D->getBlockID()], St))
          Thrown.push_back(D);
      for (unsigned Ev : At[B.getBlockID()][I])
        transfer(St, Effects.List[Ev], Reporting);
    }
    // The work of a visit: copying and joining the state it carries (the
    // larger of the two ends: a long block may grow it), which also bounds
    // the memory of the states kept per block, plus the transfers, each
    // about as costly as the copies in flight.
    R.Owner.spendWork(1 + std::max(Before, St.size()) +
                      B.size() * (1 + St.Pending.size()));
    return St;
  };
  // A block ending in `throw` (clang's CFG makes it an element, with an
  // edge to the exit outside a try).
  auto Throws = [](const CFGBlock &B) {
    for (auto It = B.rbegin(); It != B.rend(); ++It)
      if (auto S = It->getAs<CFGStmt>())
        return isa<CXXThrowExpr>(S->getStmt());
    return false;
  };
  auto Propagate = [&](const CFGBlock &B, const PendingState &Out,
                       const PendingState *ExitOut,
                       llvm::function_ref<void(const CFGBlock *)> Enqueue) {
    std::optional<std::pair<const CallExpr *, unsigned>> Query;
    std::optional<bool> Known; // a condition on a variable of known value
    const Expr *Cond = B.succ_size() == 2 ? B.getLastCondition() : nullptr;
    if (Cond) {
      Query = querySuccessEdge(Cond);
      Known = boundCondition(Cond);
    }
    unsigned SuccIndex = 0;
    for (const CFGBlock *Succ : B.succs()) {
      unsigned Index = SuccIndex++;
      if (!Succ)
        continue;
      // A path through abort() or a throw never returns to the caller:
      // what it leaves pending is not the helper's result.
      if (Succ == &Cfg->getExit() &&
          (B.hasNoReturnElement() || Throws(B) ||
           isa_and_nonnull<CXXTryStmt>(B.getTerminatorStmt())))
        continue; // (a try's dispatch block: an exception no handler took)
      bool LoopExit = Loops[B.getBlockID()] && Index == 1;
      if (LoopExit && !ExitOut)
        continue; // not reachable yet
      PendingState Edge = LoopExit ? *ExitOut : Out;
      if (Query && Query->second == Index) {
        auto Done = Edge.Queried.find(Query->first);
        if (Done != Edge.Queried.end())
          for (unsigned Id : Done->second)
            Edge.Pending.erase(Id);
        auto Found = Edge.QueriedProducers.find(Query->first);
        if (Found != Edge.QueriedProducers.end())
          for (const ProducerKey &K : Found->second)
            Edge.Producers.erase(K);
      }
      if (Cond && Index < 2) {
        if (Known && *Known != (Index == 0))
          continue; // the caller's constant argument takes the other edge
        if (auto L = conditionLiteral(Cond, /*OnTrue=*/Index == 0))
          if (!Edge.assume(*L))
            continue; // contradicts what this path already assumed
        nullStreamEdge(Edge, Cond, /*OnTrue=*/Index == 0);
      }
      if (Index == 1 && isa_and_nonnull<WhileStmt, DoStmt, ForStmt>(
                            B.getTerminatorStmt()))
        pollExit(Edge, Cond);
      if (Index == 1)
        if (auto J = Effects.JoinLoops.find(B.getTerminatorStmt());
            J != Effects.JoinLoops.end())
          waitSignal(Edge, AccessPath::ofDecl(J->second));
      bool Changed = false;
      bool BackToOnce = false;
      if (std::optional<LoopHead> &H = Loops[Succ->getBlockID()]) {
        bool Back = Order.isBackEdge(&B, Succ);
        Changed = JoinInto(Back ? H->Back : H->Entry, Edge);
        BackToOnce = Back && H->Once;
      }
      if ((!BackToOnce && JoinChanged(In[Succ->getBlockID()], Edge)) ||
          Changed)
        Enqueue(Succ);
    }
  };

  BodyFirstWorklist Worklist(*Cfg, Order);
  Worklist.enqueueBlock(&Cfg->getEntry());
  unsigned Visits =
      std::max(2000u, Opts.BlockVisitFactor * Cfg->getNumBlockIDs());
  while (const CFGBlock *B = Worklist.dequeue()) {
    if (Visits-- == 0) {
      R.Owner.visitCapReached(R.Depth); // pathological: skip
      return std::nullopt;
    }
    if (!R.Owner.withinWorkLimit())
      return std::nullopt;
    std::optional<PendingState> ExitOut;
    if (const std::optional<LoopHead> &H = Loops[B->getBlockID()]) {
      if (H->Back)
        ExitOut = RunBlock(*B, false, &*H->Back);
      if (H->Entry && !H->Certain) {
        PendingState Skip = RunBlock(*B, false, &*H->Entry);
        // A stream of an element of the container (`s[0]`, `objs[0].s_`):
        // where the loop runs no iteration, the container has none.
        auto OfElement = [&](const StreamRef &On) {
          if (!H->Container)
            return false;
          if (On.Elements && On.Elements->Array == *H->Container)
            return true;
          size_t N = H->Container->steps().size();
          return On.K == StreamRef::Named && On.Path.within(*H->Container) &&
                 On.Path.steps().size() > N &&
                 On.Path.steps()[N].K == PathStep::Index;
        };
        for (auto It = Skip.Pending.begin(); It != Skip.Pending.end();) {
          const StreamRef &On = Effects.Copies[It->first]->Stream;
          // `for (i < n) copy(s[i]); for (i < n) sync(s[i]);`
          if (OfElement(On) || H->IssuedWhereFirstRan.count(It->first))
            It = Skip.Pending.erase(It);
          else
            ++It;
        }
        JoinInto(ExitOut, Skip);
      }
    }
    Propagate(*B, RunBlock(*B, false), ExitOut ? &*ExitOut : nullptr,
              [&](const CFGBlock *S) { Worklist.enqueueBlock(S); });
    for (const CFGBlock *D : Thrown)
      Worklist.enqueueBlock(D);
    Thrown.clear();
  }
  for (const CFGBlock *B : *Cfg)
    if (In[B->getBlockID()].Reached)
      RunBlock(*B, true);
  return In[Cfg->getExit().getBlockID()];
}

} // namespace clang::tidy::cuda
