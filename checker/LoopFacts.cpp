//===--- LoopFacts.cpp - Loops and the elements they run over -----------===//
//
// FunctionFacts' loops: constant bounds of `for` loops, the sizes of
// range-for ranges, loops that certainly run, the container a loop runs
// over, which elements of an array or container an expression names
// (elementsOf), and locals that stand for an element or its index
// (definedAs, expandAliases).
//
//===----------------------------------------------------------------------===//

#include "FunctionFacts.h"
#include "ElementIndices.h"
#include "ExprUtils.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// Loops and element ranges
//===----------------------------------------------------------------------===//

const VarDecl *varOf(const Expr *E) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts()
                                                  : nullptr);
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// `a[i]` of an array or `v[i]` of a class with operator[]: a and i, or
/// nulls.
static std::pair<const Expr *, const Expr *> subscriptOf(const Expr *E) {
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E))
    return {A->getBase(), A->getIdx()};
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
    return {Op->getArg(0), Op->getArg(1)};
  return {nullptr, nullptr};
}

std::pair<const VarDecl *, const Expr *> forInit(const ForStmt *L) {
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(L->getInit())) {
    const auto *V =
        DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    return {V, V ? V->getInit() : nullptr};
  }
  if (const auto *B =
          dyn_cast_or_null<BinaryOperator>(dyn_cast_or_null<Expr>(L->getInit()));
      B && B->getOpcode() == BO_Assign)
    return {varOf(B->getLHS()), B->getRHS()};
  return {nullptr, nullptr};
}

std::pair<BinaryOperatorKind, const Expr *>
counterTest(const ForStmt *L, const VarDecl *V) {
  const auto *C = dyn_cast_or_null<BinaryOperator>(
      L->getCond() ? L->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!C || !V)
    return {BO_Comma, nullptr};
  BinaryOperatorKind Op = C->getOpcode();
  if (varOf(C->getLHS()) == V)
    return {Op, C->getRHS()};
  if (varOf(C->getRHS()) == V && (Op == BO_GT || Op == BO_GE || Op == BO_NE))
    return {Op == BO_GT ? BO_LT : Op == BO_GE ? BO_LE : Op, C->getLHS()};
  return {BO_Comma, nullptr};
}

/// The element count of a range-for's range when it is an array of known
/// size (`cudaStream_t s[4]`), else nullopt.
std::optional<long long>
FunctionFacts::rangeArraySize(const CXXForRangeStmt *L) const {
  const Expr *Range = L->getRangeInit();
  const auto *CA = Range ? Ctx.getAsConstantArrayType(
                               Range->getType().getNonReferenceType())
                         : nullptr;
  if (!CA)
    return std::nullopt;
  return static_cast<long long>(CA->getSize().getZExtValue());
}

std::optional<FunctionFacts::LoopBounds>
FunctionFacts::forBounds(const ForStmt *L) const {
  // init: `int i = lo` or `i = lo`
  auto [V, Init] = forInit(L);
  std::optional<long long> Lo = constantArg(Init);
  if (!V || !Lo || !V->getType()->isIntegerType())
    return std::nullopt;
  // cond: i < hi, i <= hi, i != hi, hi > i, hi >= i
  auto [Op, Bound] = counterTest(L, V);
  std::optional<long long> B = constantArg(Bound); // `n` of `int n = 4;`
  if (!B)
    return std::nullopt;
  long long Hi;
  if (Op == BO_LT || (Op == BO_NE && *Lo <= *B))
    Hi = *B;
  else if (Op == BO_LE)
    Hi = *B + 1;
  else
    return std::nullopt;
  if (!stepsByOne(L, V))
    return std::nullopt;
  return LoopBounds{V, *Lo, Hi};
}

/// inc: ++i, i++, i += 1
bool FunctionFacts::stepsByOne(const ForStmt *L, const VarDecl *V) const {
  const Expr *Inc = L->getInc() ? L->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    return U->isIncrementOp() && varOf(U->getSubExpr()) == V;
  if (const auto *A = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    return A->getOpcode() == BO_AddAssign && varOf(A->getLHS()) == V &&
           evalInt(A->getRHS(), Ctx) == 1;
  return false;
}

std::optional<FunctionFacts::FirstTest>
FunctionFacts::firstTest(const Stmt *Loop) const {
  const auto *L = dyn_cast_or_null<ForStmt>(Loop);
  if (!L)
    return std::nullopt;
  auto [V, Init] = forInit(L);
  std::optional<long long> Lo = constantArg(Init);
  auto [Op, Bound] = counterTest(L, V);
  const VarDecl *N =
      Lo && (Op == BO_LT || Op == BO_LE) ? varOf(Bound) : nullptr;
  if (!N || N == V || !N->hasLocalStorage() ||
      !N->getType()->isIntegerType())
    return std::nullopt;
  if ((MutatedVars.count(N) || AddressTaken.count(N)) &&
      !changedOnlyBefore(N, L))
    return std::nullopt;
  return FirstTest{*Lo, N, Op == BO_LE};
}

std::optional<FunctionFacts::FirstTest>
FunctionFacts::countingUp(const ForStmt *L) const {
  std::optional<FirstTest> T = firstTest(L);
  const VarDecl *V = T ? forInit(L).first : nullptr;
  if (!V || !stepsByOne(L, V) || !counterKeptByBody(L, V))
    return std::nullopt;
  return T;
}

/// L has a body that never changes its counter V (only L's increment
/// does).
bool FunctionFacts::counterKeptByBody(const ForStmt *L,
                                      const VarDecl *V) const {
  return L->getBody() &&
         llvm::none_of(changesOf(V), [&](const DeclRefExpr *R) {
           return within(R, L->getBody());
         });
}

llvm::ArrayRef<const DeclRefExpr *>
FunctionFacts::changesOf(const VarDecl *V) const {
  auto [It, New] = ChangesIndex.try_emplace(V);
  if (!New)
    return It->second;
  struct Refs : RecursiveASTVisitor<Refs> {
    const VarDecl *V;
    llvm::SmallVector<const DeclRefExpr *, 4> Found;
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (D->getDecl() == V)
        Found.push_back(D);
      return true;
    }
  } W;
  W.V = V;
  W.TraverseStmt(const_cast<Stmt *>(Body));
  llvm::erase_if(W.Found, [&](const DeclRefExpr *R) {
    const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(PM.getParent(R));
    return Read && Read->getCastKind() == CK_LValueToRValue;
  });
  return ChangesIndex[V] = std::move(W.Found);
}

/// Every use of N other than a read of its value (a write, `&N`, a binding
/// to a reference) comes before Loop in the source and outside any loop:
/// N keeps one value from Loop on.
bool FunctionFacts::changedOnlyBefore(const VarDecl *N,
                                      const Stmt *Loop) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const DeclRefExpr *R : changesOf(N)) {
    if (!SM.isBeforeInTranslationUnit(R->getBeginLoc(), Loop->getBeginLoc()))
      return false;
    for (const Stmt *P = PM.getParent(R); P; P = PM.getParent(P))
      if (loopBody(P))
        return false;
  }
  return true;
}

bool FunctionFacts::runsOnce(const Stmt *Loop) const {
  const auto *L = dyn_cast_or_null<ForStmt>(Loop);
  std::optional<LoopBounds> B = L ? forBounds(L) : std::nullopt;
  return B && B->Hi - B->Lo == 1 && counterKeptByBody(L, B->Var);
}

bool FunctionFacts::inLoopWithFirstTest(const Stmt *S,
                                        const FirstTest &T) const {
  for (const Stmt *P = S ? PM.getParent(S) : nullptr; P; P = PM.getParent(P))
    if (const auto *L = dyn_cast<ForStmt>(P);
        L && L->getBody() && within(S, L->getBody()) && firstTest(L) == T)
      return true;
  return false;
}

bool FunctionFacts::certainlyRuns(const Stmt *Loop) const {
  if (const auto *L = dyn_cast_or_null<ForStmt>(Loop)) {
    auto Bounds = forBounds(L);
    return Bounds && Bounds->Lo < Bounds->Hi;
  }
  if (const auto *L = dyn_cast_or_null<CXXForRangeStmt>(Loop)) {
    std::optional<long long> Size = rangeArraySize(L);
    if (!Size)
      Size = rangeListSize(L);
    return Size && *Size > 0;
  }
  return false;
}

/// The element count of a range-for's range given by a braced list: `for
/// (auto s : {s1, s2})`, or a local container initialised from one and
/// never changed (`std::vector<cudaStream_t> all{s1, s2}; for (auto s :
/// all)`). nullopt otherwise.
std::optional<long long>
FunctionFacts::rangeListSize(const CXXForRangeStmt *L) const {
  const Expr *E = strip(L->getRangeInit());
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        V->getType()->isReferenceType() || !V->getInit() ||
        CapturedByRef.count(V))
      return std::nullopt;
    // Not assigned, changed by a member call (clear, pop_back), moved from
    // or passed on by reference (MutatedVars also holds the range-for's own
    // `auto &&__range = all`, hence the analyzer on each other use).
    ExprMutationAnalyzer Here(*Body, Ctx);
    for (const DeclRefExpr *R : refsOf(V))
      if (R != D && Here.isMutated(R))
        return std::nullopt;
    E = strip(V->getInit());
    // vector(initializer_list, const allocator & = {})
    if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(E);
        C && C->getNumArgs() >= 1 &&
        llvm::all_of(llvm::drop_begin(C->arguments()),
                     [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
      E = strip(C->getArg(0));
  }
  if (const auto *IL = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
    E = strip(IL->getSubExpr());
  if (const auto *M = dyn_cast_or_null<MaterializeTemporaryExpr>(E))
    E = strip(M->getSubExpr());
  const auto *List = dyn_cast_or_null<InitListExpr>(E);
  if (!List || List->getNumInits() == 0 ||
      llvm::any_of(List->inits(),
                   [](const Expr *I) { return isa<PackExpansionExpr>(I); }))
    return std::nullopt;
  return List->getNumInits();
}

bool jumpsOut(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S || isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return false;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !InLoop && !InSwitch;
  if (isa<ContinueStmt>(S))
    return !InLoop;
  InLoop = InLoop || isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
           isa<CXXForRangeStmt>(S);
  InSwitch = InSwitch || isa<SwitchStmt>(S);
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return jumpsOut(C, InLoop, InSwitch);
  });
}

bool onEveryPath(const ParentMap &PM, const ASTContext &Ctx, const Stmt *S,
                 const Stmt *Body) {
  for (const Stmt *P = nullptr; S != Body; S = P) {
    P = PM.getParent(S);
    if (!P)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (S != If->getCond() && S != If->getInit() &&
          S != If->getConditionVariableDeclStmt())
        return false;
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (S != Sw->getCond() && S != Sw->getInit())
        return false;
    } else if (const auto *Do = dyn_cast<DoStmt>(P)) {
      if (S != Do->getBody() || evalInt(Do->getCond(), Ctx) != 0 ||
          jumpsOut(Do->getBody()))
        return false;
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (S != CO->getCond())
        return false;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (B->isLogicalOp() && S != B->getLHS())
        return false;
    } else if (isa<ForStmt>(P) || isa<WhileStmt>(P) ||
               isa<CXXForRangeStmt>(P) || isa<LambdaExpr>(P) ||
               isa<BlockExpr>(P) || isa<CXXTryStmt>(P) ||
               isa<CXXCatchStmt>(P) || isa<SwitchCase>(P) ||
               isa<LabelStmt>(P)) {
      return false;
    }
  }
  return true;
}

std::optional<std::pair<const ForStmt *, long long>>
FunctionFacts::lastIterationElement(const Expr *EventE, const Expr *StreamE,
                                    const Stmt *Record) const {
  const Expr *E = strip(EventE);
  const VarDecl *V = varOf(subscriptOf(E).second);
  if (!V || !Record)
    return std::nullopt;
  // The innermost loop around the record runs over V.
  const auto *L = dyn_cast_or_null<ForStmt>(innermostLoop(Record));
  std::optional<LoopBounds> Bounds = L ? forBounds(L) : std::nullopt;
  if (!Bounds || Bounds->Var != V || !loopRange(V, E) ||
      jumpsOut(L->getBody()) ||
      !onEveryPath(PM, Ctx, Record, L->getBody()) ||
      !invariantIn(StreamE, L))
    return std::nullopt;
  return std::make_pair(L, Bounds->Hi - 1);
}

/// Does E (a stream expression) name the same object in every iteration of
/// L: a constant, `this`, a variable declared before L whose value L's body
/// neither writes nor hands out by address, members and constant elements
/// of one, a trivial accessor of one?
bool FunctionFacts::invariantIn(const Expr *E, const ForStmt *L) const {
  if (!E)
    return true; // an omitted stream: stream 0
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(E) || isa<CXXNullPtrLiteralExpr>(E) ||
      isa<GNUNullExpr>(E) || isa<CXXThisExpr>(E))
    return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(D->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    const SourceManager &SM = Ctx.getSourceManager();
    if (!V || !SM.isBeforeInTranslationUnit(
                  SM.getExpansionLoc(V->getLocation()),
                  SM.getExpansionLoc(L->getBeginLoc())))
      return false;
    if (llvm::any_of(writesOf(V), [&](const Stmt *W) {
          return within(W, L->getBody());
        }))
      return false;
    return llvm::none_of(refsOf(V), [&](const DeclRefExpr *R) {
      const auto *U = dyn_cast_or_null<UnaryOperator>(
          PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(R)));
      return U && U->getOpcode() == UO_AddrOf && within(R, L->getBody());
    });
  }
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return invariantIn(M->getBase(), L);
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return evalInt(A->getIdx(), Ctx) && invariantIn(A->getBase(), L);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return trivialAccessorResult(MC) &&
           invariantIn(MC->getImplicitObjectArgument(), L);
  return false;
}

std::optional<AccessPath>
FunctionFacts::loopContainer(const Stmt *Loop) const {
  if (const auto *L = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return L->getRangeInit() ? std::optional(AccessPath::of(L->getRangeInit()))
                             : std::nullopt;
  const auto *L = dyn_cast_or_null<ForStmt>(Loop);
  const auto *C = L && L->getCond() ? dyn_cast<BinaryOperator>(
                                          L->getCond()->IgnoreParenImpCasts())
                                    : nullptr;
  if (!C || (C->getOpcode() != BO_LT && C->getOpcode() != BO_NE))
    return std::nullopt;
  // i starts at 0
  auto [V, Init] = forInit(L);
  if (!V || V != varOf(C->getLHS()) || !Init || evalInt(Init, Ctx) != 0)
    return std::nullopt;
  const auto *Size = dyn_cast<CXXMemberCallExpr>(C->getRHS()->IgnoreParenImpCasts());
  const CXXMethodDecl *M = Size ? Size->getMethodDecl() : nullptr;
  if (!M || !M->getIdentifier() || M->getName() != "size" ||
      Size->getNumArgs() != 0)
    return std::nullopt;
  return AccessPath::of(Size->getImplicitObjectArgument());
}

std::optional<std::pair<long long, long long>>
FunctionFacts::loopRange(const VarDecl *V, const Stmt *At) const {
  if (AddressTaken.count(V))
    return std::nullopt;
  for (const Stmt *S = PM.getParent(At); S; S = PM.getParent(S)) {
    const auto *L = dyn_cast<ForStmt>(S);
    if (!L || !L->getBody() || !within(At, L->getBody()))
      continue;
    auto Bounds = forBounds(L);
    if (!Bounds || Bounds->Var != V) {
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(L->getInit());
          DS && llvm::is_contained(DS->decls(), V))
        return std::nullopt; // declared here, in a form not understood
      continue; // another loop's variable
    }
    if (Bounds->Lo >= Bounds->Hi)
      return std::nullopt;
    for (const Stmt *Where : writesOf(V))
      if (within(Where, L->getBody()))
        return std::nullopt; // changed in the body too
    return std::make_pair(Bounds->Lo, Bounds->Hi);
  }
  return std::nullopt;
}

/// A for loop's counter: `++i`, `i++`, `--i`, `i--`, `i += c` or `i -= c`
/// (c a non-zero constant) as its increment, written nowhere else in the
/// body and its address not taken: a different value in each iteration.
const VarDecl *FunctionFacts::counterOf(const ForStmt *L) const {
  const Expr *Inc = L->getInc() ? L->getInc()->IgnoreParenImpCasts() : nullptr;
  const VarDecl *V = nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
      U && U->isIncrementDecrementOp())
    V = varOf(U->getSubExpr());
  else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
           B && (B->getOpcode() == BO_AddAssign ||
                 B->getOpcode() == BO_SubAssign))
    if (auto C = evalInt(B->getRHS(), Ctx); C && *C != 0)
      V = varOf(B->getLHS());
  if (!V || AddressTaken.count(V) || !L->getBody())
    return nullptr;
  for (const Stmt *Where : writesOf(V))
    if (within(Where, L->getBody()))
      return nullptr;
  return V;
}

const Stmt *FunctionFacts::innermostLoop(const Stmt *S) const {
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (const Stmt *Body = loopBody(P); Body && within(S, Body))
      return P;
  return nullptr;
}

bool FunctionFacts::newBufferEachIteration(const VarDecl *V,
                                           const Stmt *At) {
  if (!V || !At || !V->hasLocalStorage() || !V->getType()->isPointerType())
    return false;
  // The innermost loop whose body holds the declaration.
  const Stmt *Loop = innermostLoop(At);
  if (!Loop)
    return false;
  const Expr *Init = V->getInit();
  if (!Init) {
    // Never assigned; its value comes from a pinned allocation of &V.
    if (llvm::any_of(Assigns, [&](const Assignment &A) { return A.Var == V; }))
      return false;
    return Aliases.provenance(AccessPath::ofVar(V)) == Provenance::Pinned;
  }
  // Down to the element: members (`.data`), subscripts, conversions.
  const Expr *E = strip(Init);
  while (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->isArrow())
      break;
    E = strip(M->getBase());
  }
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return varOf(E) == R->getLoopVariable();
  const auto *L = dyn_cast<ForStmt>(Loop);
  if (!L)
    return false;
  const VarDecl *Counter = counterOf(L);
  return Counter && varOf(subscriptOf(E).second) == Counter;
}

void FunctionFacts::indexRange(ElementRange &R, const Expr *Index,
                               const Stmt *At) const {
  if (auto C = evalInt(Index, Ctx)) {
    R.Known = true;
    R.Lo = *C;
    R.Hi = *C + 1;
  } else if (const VarDecl *V = varOf(Index)) {
    if (auto Range = loopRange(V, At)) {
      R.Known = true;
      std::tie(R.Lo, R.Hi) = *Range;
    }
  }
}

std::optional<ElementRange>
FunctionFacts::elementsOfPath(const AccessPath &P) const {
  if (P.steps().empty() || P.steps().back().K != PathStep::Index)
    return std::nullopt;
  const PathStep &Last = P.steps().back();
  ElementRange R;
  R.Array = P.arrayOfElement();
  if (Last.Front) {
    R.Known = true;
    R.Hi = 1; // element 0
  } else if (Last.IndexExpr) {
    indexRange(R, Last.IndexExpr, Last.IndexExpr);
  }
  return R;
}

std::optional<ElementRange> FunctionFacts::elementsOf(const Expr *E) const {
  E = strip(E);
  auto [Array, Index] = subscriptOf(E);
  ElementRange R;
  if (const CXXMemberCallExpr *Front = sequenceFront(E)) {
    R.Array = AccessPath::of(Front->getImplicitObjectArgument());
    R.Known = true;
    R.Hi = 1; // element 0
    return R;
  }
  if (Array) {
    R.Array = AccessPath::of(Array);
    indexRange(R, Index, E);
    return R;
  }
  // A range-for's variable: `for (auto &s : streams)`.
  const VarDecl *V = varOf(E);
  if (!V)
    return std::nullopt;
  for (const Stmt *S = PM.getParent(E); S; S = PM.getParent(S)) {
    const auto *L = dyn_cast<CXXForRangeStmt>(S);
    if (!L || L->getLoopVariable() != V || !L->getRangeInit())
      continue;
    R.Array = AccessPath::of(L->getRangeInit());
    if (std::optional<long long> Size = rangeArraySize(L)) {
      R.Known = true;
      R.Hi = *Size;
    } else {
      R.Every = true;
    }
    return R;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Locals that stand for an element or its index
//===----------------------------------------------------------------------===//

/// The variables a definition reads as an index expression (`1 - cur`), or
/// as an element of an array of buffers (`bufs[cur]`: the array too);
/// false for anything else.
static bool aliasVariables(const Expr *Def, bool Pointer,
                           std::set<const VarDecl *> &Vars,
                           const ASTContext &Ctx) {
  Def = Def->IgnoreParenImpCasts();
  if (!Pointer)
    return indexExprVariables(Def, Vars, Ctx) && !Vars.empty();
  const auto *A = dyn_cast<ArraySubscriptExpr>(Def);
  if (!A)
    return false;
  const auto *Base =
      dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
  const auto *Array = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
  if (!Array || Array->getType()->isReferenceType())
    return false;
  Vars.insert(Array);
  return indexExprVariables(A->getIdx(), Vars, Ctx);
}

const Expr *FunctionFacts::definedAs(const VarDecl *V, const Stmt *At) const {
  if (!V || !At || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getType()->isReferenceType() || AddressTaken.count(V) ||
      CapturedByRef.count(V) ||
      !(V->getType()->isPointerType() ||
        V->getType()->isIntegralOrEnumerationType()))
    return nullptr;
  const Expr *Def = reachingValue(V, dyn_cast<Expr>(At));
  std::set<const VarDecl *> Vars;
  if (!Def || !aliasVariables(Def, V->getType()->isPointerType(), Vars, Ctx) ||
      Vars.count(V))
    return nullptr;
  // Nothing between the definition and At changes what it read: a write of
  // its variables, or of the array's elements (`bufs[0] = a`).
  auto ChangedIn = [&](const Stmt *S) {
    for (const auto &W : Writes)
      if (Vars.count(W.first) && within(W.second, S))
        return true;
    for (const auto &W : ElementWrites)
      if (Vars.count(W.first) && within(W.second, S))
        return true;
    for (const VarDecl *X : Vars)
      for (const DeclRefExpr *R : refsOf(X))
        if (!readsValue(R) && !isa<ArraySubscriptExpr>(
                                  PM.getParentIgnoreParenImpCasts(
                                      const_cast<DeclRefExpr *>(R))) &&
            within(R, S))
          return true;
    return false;
  };
  const Stmt *Found = latestBefore(
      At,
      [&](const Stmt *S) {
        if (within(Def, S))
          return WalkStep::Found;
        return ChangedIn(S) ? WalkStep::Stop : WalkStep::Next;
      },
      ChangedIn);
  return Found ? Def->IgnoreParenImpCasts() : nullptr;
}

AccessPath FunctionFacts::expandAliases(const AccessPath &P,
                                        const Stmt *At) const {
  const auto *Root = P.rootKind() == AccessPath::RootKind::Decl
                         ? dyn_cast_or_null<VarDecl>(P.rootDecl())
                         : nullptr;
  AccessPath R = P;
  if (Root && Root->getType()->isPointerType())
    if (const Expr *Def = definedAs(Root, At))
      R = P.rebasedOnArgument(AccessPath::of(Def), /*Deref=*/false);
  return R.withIndices([&](const Expr *Index) -> const Expr * {
    const auto *D = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && V->getType()->isIntegralOrEnumerationType()
               ? definedAs(V, At)
               : nullptr;
  });
}

} // namespace clang::tidy::cuda
