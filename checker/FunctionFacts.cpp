//===--- FunctionFacts.cpp - What one AST walk learns of a callable -----===//
//
// The walk and the core of FunctionFacts: the one AST walk over the body,
// collect(), the indexes over what the walk gathered (references and
// writes of a variable), callees, the variables that hold a query's
// result, constants and fields of parameter structs. The other facts are
// in StreamFacts.cpp (stream identity), CurrentStreamFacts.cpp (libtorch's
// current stream), LoopFacts.cpp (loops and element ranges) and
// ProvenanceFacts.cpp (provenance, aliases, returns).
//
//===----------------------------------------------------------------------===//

#include "FunctionFacts.h"
#include "ExprUtils.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

class FunctionFacts::Walker : public RecursiveASTVisitor<Walker> {
  FunctionFacts &I;

public:
  explicit Walker(FunctionFacts &I) : I(I) {}
  // Lambdas, blocks and local classes are callables of their own;
  // unevaluated operands and types are not host accesses.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    // Not its body; but a by-reference capture that the body may change
    // (assigns, takes the address of, binds to a non-const reference,
    // captures by reference again) may change the variable whenever the
    // lambda runs. One the body only reads keeps its value.
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar());
            V && lambdaMayChange(L, V)) {
          escape(V);
          I.CapturedByRef.insert(V);
        }
    return true;
  }
  bool lambdaMayChange(const LambdaExpr *L, const VarDecl *V) {
    const CXXMethodDecl *Op = L->getCallOperator();
    const Stmt *Body = Op ? Op->getBody() : nullptr;
    if (!Body || L->isGenericLambda() || Op->isDependentContext())
      return true;
    if (ExprMutationAnalyzer(*Body, I.Ctx).isMutated(V))
      return true;
    llvm::SmallVector<const Stmt *, 16> Work{Body};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *Inner = dyn_cast_or_null<LambdaExpr>(S)) {
        for (const LambdaCapture &Cap : Inner->captures())
          if (Cap.capturesVariable() && Cap.getCapturedVar() == V &&
              Cap.getCaptureKind() == LCK_ByRef)
            return true;
        continue;
      }
      if (S)
        llvm::append_range(Work, S->children());
    }
    return false;
  }
  bool TraverseBlockExpr(BlockExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool TraverseRecordDecl(RecordDecl *) { return true; }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }

  bool VisitExpr(Expr *E) {
    if (E->containsErrors())
      I.Broken = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    I.Calls.push_back(C);
    // `r.data()` / `rb_data(ctx)` returning a member that holds a buffer
    // pointer: a use of that member (bufferRoot, AccessPath::of).
    if (C->getType()->isPointerType() && bufferRoot(C) == C)
      I.Candidates.push_back(C);
    // std::swap(a, b) of buffer pointers: a = b and b = a, for aliases.
    for (const auto &[Var, Value] : pointerExchanges(C)) {
      const auto *D = dyn_cast<DeclRefExpr>(strip(Var));
      I.Assigns.push_back(
          {Var, D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr, Value, C});
    }
    // A variable bound to a non-const reference parameter may be changed
    // by the callee; so may an overloaded operator's (`flip(cur)` of a
    // functor taking `int &`, `in >> cur`), whose first argument is the
    // object for a member operator. An assignment operator's left side is
    // VisitCXXOperatorCallExpr's.
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
    if (const FunctionDecl *F = C->getDirectCallee();
        F && !(Op && Op->isAssignmentOp())) {
      unsigned Shift = Op && isa<CXXMethodDecl>(F) ? 1 : 0;
      for (unsigned N = 0; N < F->getNumParams() && N + Shift < C->getNumArgs();
           ++N) {
        const Expr *Arg = C->getArg(N + Shift);
        QualType T = F->getParamDecl(N)->getType();
        elementsWrittenIfBound(T, Arg, C);
        // The standard library's forwarding references pass the argument on
        // as it is (`std::make_unique<T>(s)`, `v.emplace_back(s)`), to a
        // constructor taking it by value or const reference as a rule.
        if (F->isInStdNamespace() && isForwardingParam(F, N))
          continue;
        escapeIfBound(T, Arg,
                      /*Changes=*/!F->isInStdNamespace() ||
                          pointerExchanges(C).empty());
        // std::swap(a, b), std::exchange(a, v), std::tie(a, b) = ...: the
        // standard library's reference parameters are there to change the
        // variable, here.
        if (F->isInStdNamespace())
          writeIfBound(T, Arg, C);
      }
    }
    // A non-const member function of an element (`slots[i].reset()`) or of
    // the container (`v.push_back(h)`) may change its elements.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      if (const CXXMethodDecl *M = MC->getMethodDecl();
          M && !M->isConst() && MC->getImplicitObjectArgument())
        elementsWritten(MC->getImplicitObjectArgument(), C);
    return true;
  }
  /// `bufs[0] = x`, `std::swap(bufs[0], bufs[1])`, `rotate(bufs)`: the
  /// elements of the array (or container) a path of At's is rooted at may
  /// change there (FunctionFacts::ElementWrites). OnlyElement: only where E
  /// names an element (`bufs[0] = x`, not `ring = bufs`).
  void elementsWritten(const Expr *E, const Stmt *At,
                       bool OnlyElement = false) {
    if (const auto *U = dyn_cast<UnaryOperator>(strip(E));
        U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr(); // `&bufs[1]`, `&slots`
    AccessPath P = AccessPath::of(E);
    const auto *V = P.rootKind() == AccessPath::RootKind::Decl
                        ? dyn_cast_or_null<VarDecl>(P.rootDecl())
                        : nullptr;
    if (!V)
      return;
    QualType T = V->getType().getNonReferenceType();
    bool Elements = llvm::any_of(P.steps(), [](const PathStep &S) {
      return S.K == PathStep::Index;
    });
    // The array itself, or a pointer to its elements, or a container.
    if (Elements || (!OnlyElement && (T->isArrayType() || T->isPointerType() ||
                                      T->isRecordType())))
      I.ElementWrites.push_back({V, At});
  }
  void elementsWrittenIfBound(QualType T, const Expr *E, const Stmt *At) {
    bool ByReference = T->isLValueReferenceType() &&
                       !T.getNonReferenceType().isConstQualified();
    bool ByPointer = T->isPointerType() &&
                     !T->getPointeeType().isConstQualified() &&
                     (T->getPointeeType()->isPointerType() ||
                      T->getPointeeType()->isRecordType());
    if (ByReference || ByPointer)
      elementsWritten(E, At);
  }
  void writeIfBound(QualType T, const Expr *E, const Stmt *At) {
    if (T->isLValueReferenceType() &&
        !T.getNonReferenceType().isConstQualified())
      noteMutation(E, At);
  }
  /// Changes: the callee may change the variable in ways not followed
  /// (not std::swap / std::exchange of pointers: pointerExchanges).
  void escapeIfBound(QualType T, const Expr *E, bool Changes = true) {
    if (!T->isLValueReferenceType() ||
        T.getNonReferenceType().isConstQualified())
      return;
    if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
        escape(V);
        if (Changes)
          I.BoundToReference.insert(V);
      }
  }
  void escape(const VarDecl *V) {
    I.MutatedVars.insert(V);
    I.AddressTaken.insert(V);
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    // c10::cuda::CUDAStreamGuard g(s): s is current until the scope ends.
    const ApiEntry *E = I.Model.lookup(C->getConstructor());
    if (E && E->Role == ApiRole::SetCurrentStream) // OptionalCUDAStreamGuard og;
      I.StreamGuards.push_back(C);
    // std::thread t(f): starts running f at once.
    const CXXRecordDecl *R = C->getConstructor()->getParent();
    if (R->isInStdNamespace() && R->getIdentifier() &&
        (R->getName() == "thread" || R->getName() == "jthread") &&
        C->getNumArgs() > 0)
      I.ThreadStarts.push_back(C);
    const CXXConstructorDecl *Ctor = C->getConstructor();
    // `Flipper f(cur)` with `Flipper(int &i) : i_(i) {}`: the object may
    // change the variable whenever it runs.
    if (!Ctor->isCopyOrMoveConstructor())
      for (unsigned N = 0; N < Ctor->getNumParams() && N < C->getNumArgs();
           ++N)
        if (!(Ctor->isInStdNamespace() && isForwardingParam(Ctor, N)))
          escapeIfBound(Ctor->getParamDecl(N)->getType(), C->getArg(N));
    if (Ctor->isUserProvided() && !Ctor->isCopyOrMoveConstructor() &&
        C->getConstructionKind() == CXXConstructionKind::Complete)
      I.Constructions.push_back(C);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    // A structured binding names a member or element of its object
    // (AccessPath::of follows its binding expression).
    if (isa<VarDecl>(D->getDecl()) || isa<BindingDecl>(D->getDecl()))
      I.Candidates.push_back(D);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *M) {
    I.Candidates.push_back(M);
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *R) {
    I.RangeLoops.push_back(R);
    // `for (auto &sl : slots)`: the body may change the elements.
    if (const VarDecl *V = R->getLoopVariable(); V && R->getRangeInit())
      if (QualType T = V->getType(); T->isLValueReferenceType() &&
                                     !T.getNonReferenceType().isConstQualified())
        elementsWritten(R->getRangeInit(), R->getLoopVarStmt());
    return true;
  }
  /// `Agg a{cur}` whose member is `int &`: the object may change cur.
  bool VisitInitListExpr(InitListExpr *L) {
    const auto *RD = L->getType()->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition() || RD->getNumBases() != 0)
      return true;
    unsigned N = 0;
    for (const FieldDecl *Fd : RD->fields()) {
      if (N >= L->getNumInits())
        break;
      escapeIfBound(Fd->getType(), L->getInit(N++));
    }
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    if (A->getType()->isPointerType())
      I.Candidates.push_back(A);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp()) {
      if (B->getOpcode() == BO_Assign) {
        const auto *D = dyn_cast<DeclRefExpr>(strip(B->getLHS()));
        I.Assigns.push_back({B->getLHS(),
                             D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr,
                             B->getRHS(), B});
      }
      noteMutation(B->getLHS(), B);
      noteParamsWrite(B->getLHS(), B->getRHS());
      elementsWritten(B->getLHS(), B, /*OnlyElement=*/true);
    }
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    // `bufs[i]` of a std::vector<float *>: an element, as of an array.
    if (sequenceElement(Op) && Op->getType()->isPointerType())
      I.Candidates.push_back(Op);
    // Class-type assignment, e.g. `p.dstPtr = make_cudaPitchedPtr(...)`;
    // `b = c` of a tensor handle gives b a new value.
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      noteParamsWrite(Op->getArg(0), Op->getArg(1));
      noteMutation(Op->getArg(0), Op);
      elementsWritten(Op->getArg(0), Op, /*OnlyElement=*/true);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp()) {
      noteMutation(U->getSubExpr(), U);
      elementsWritten(U->getSubExpr(), U, /*OnlyElement=*/true);
    }
    if (U->getOpcode() == UO_AddrOf)
      if (const auto *D = dyn_cast<DeclRefExpr>(strip(U->getSubExpr())))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
          escape(V);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    // A local pointer declared without a value is a new object each time
    // the declaration runs (the CFG's element for a single declaration is
    // the DeclStmt itself).
    if (const auto *V = DS->isSingleDecl()
                            ? dyn_cast<VarDecl>(DS->getSingleDecl())
                            : nullptr;
        V && !V->getInit() && V->hasLocalStorage() &&
        V->getType()->isPointerType())
      I.Writes.push_back({V, DS});
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      const CXXRecordDecl *RD =
          V ? V->getType()->getAsCXXRecordDecl() : nullptr;
      if (!RD || !V->hasLocalStorage() || !RD->hasDefinition() ||
          !RD->hasNonTrivialDestructor())
        continue;
      const CXXDestructorDecl *Dtor = RD->getDestructor();
      if (!Dtor || !Dtor->hasBody())
        continue;
      const Stmt *Scope = I.PM.getParent(DS);
      SourceLocation End =
          Scope ? (isa<CompoundStmt>(Scope)
                       ? cast<CompoundStmt>(Scope)->getRBracLoc()
                       : Scope->getEndLoc())
                : DS->getEndLoc();
      I.DestroyedVars.push_back({V, End});
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (const Expr *Init = V->getInit())
      escapeIfBound(V->getType(), Init); // bool &r = flag;
    if (const Expr *Init = V->getInit())
      if (!V->getType()->isDependentType()) {
        I.Assigns.push_back({nullptr, V, Init, Init});
        I.Writes.push_back({V, Init}); // a new value each time it runs
      }
    return true;
  }
  void noteMutation(const Expr *E, const Stmt *At) {
    if (const auto *D = dyn_cast<DeclRefExpr>(strip(E)))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
        I.MutatedVars.insert(V);
        I.Writes.push_back({V, At});
      }
  }
  /// p.dstPtr = make_cudaPitchedPtr(h, ...); p.dstPtr.ptr = h; p.kind = k;
  void noteParamsWrite(const Expr *Lhs, const Expr *Rhs) {
    const auto *M = dyn_cast<MemberExpr>(strip(Lhs));
    if (!M || !M->getMemberDecl()->getIdentifier())
      return;
    std::string Field = M->getMemberDecl()->getName().str();
    const Expr *Base = strip(M->getBase());
    if (const auto *Inner = dyn_cast<MemberExpr>(Base)) {
      if (Field != "ptr" || !Inner->getMemberDecl()->getIdentifier())
        return;
      Field = Inner->getMemberDecl()->getName().str() + ".ptr";
      Base = strip(Inner->getBase());
    }
    const auto *D = dyn_cast<DeclRefExpr>(Base);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (V)
      I.ParamsWrites.push_back({V, Field, Rhs});
  }
};


FunctionFacts::FunctionFacts(ASTContext &Ctx, const ApiModel &Model,
                             const FunctionDecl *FD, bool PerThreadOption)
    : Ctx(Ctx), Model(Model), FD(FD), Body(FD->getBody()),
      PM(const_cast<Stmt *>(FD->getBody())), PerThread(PerThreadOption) {}

bool FunctionFacts::collect() {
  if (!Body)
    return false;
  Walker W(*this);
  W.TraverseStmt(const_cast<Stmt *>(Body));
  if (Broken)
    return false;
  // The per-thread variants are what the API macros expand to once the
  // translation unit asked for per-thread default streams.
  for (const CallExpr *C : Calls) {
    const ApiEntry *E = lookup(C);
    if (!E)
      continue;
    if (isPerThreadName(calleeOf(C)))
      PerThread = true;
    if (E->Role == ApiRole::CaptureBegin || E->Role == ApiRole::CaptureEnd)
      CaptureCalls.push_back(C);
    if (E->Role == ApiRole::GraphInstantiate || E->Role == ApiRole::EventRecord)
      GraphCalls.push_back(C);
  }
  buildAliasesAndProvenance();
  collectFollowedPointers();
  collectQueryVars();
  collectStreamSetters();
  StreamCache.clear(); // streams asked while the setters were incomplete
  return true;
}

//===----------------------------------------------------------------------===//
// Indexes and callees
//===----------------------------------------------------------------------===//

llvm::ArrayRef<const Stmt *> FunctionFacts::writesOf(const VarDecl *V) const {
  if (!WritesIndex) {
    WritesIndex.emplace();
    for (const auto &[W, Where] : Writes)
      (*WritesIndex)[W].push_back(Where);
  }
  auto It = WritesIndex->find(V);
  if (It == WritesIndex->end())
    return {};
  return It->second;
}

llvm::ArrayRef<const DeclRefExpr *>
FunctionFacts::refsOf(const VarDecl *V) const {
  if (!RefsIndex) {
    RefsIndex.emplace();
    for (const Expr *E : Candidates)
      if (const auto *D = dyn_cast<DeclRefExpr>(E))
        if (const auto *Var = dyn_cast<VarDecl>(D->getDecl()))
          (*RefsIndex)[Var].push_back(D);
  }
  auto It = RefsIndex->find(V);
  if (It == RefsIndex->end())
    return {};
  return It->second;
}

const FunctionDecl *FunctionFacts::calleeOf(const CallExpr *C) const {
  if (const FunctionDecl *F = C->getDirectCallee())
    return F;
  const Expr *Callee = C->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Callee);
      U && U->getOpcode() == UO_Deref)
    Callee = U->getSubExpr()->IgnoreParenImpCasts(); // (*query)(object)
  // A const pointer, or an element by a constant index of a const table,
  // initialised with a function: `static void (*const kWait[])(cudaStream_t)
  // = {noWait, streamWait}; kWait[kPolicy](s);`.
  const Expr *Table = Callee;
  std::optional<long long> Index;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(Callee)) {
    Table = A->getBase()->IgnoreParenImpCasts();
    Index = constantArg(A->getIdx());
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(Table))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && V->getType().isConstant(Ctx) && V->getInit()) {
      const Expr *Init = V->getInit()->IgnoreParenImpCasts();
      if (Table == Callee)
        return namedFunction(Init);
      const auto *List = dyn_cast<InitListExpr>(Init);
      if (List && Index && *Index >= 0 &&
          static_cast<unsigned long long>(*Index) < List->getNumInits())
        return namedFunction(List->getInit(static_cast<unsigned>(*Index)));
    }
  const auto *D = dyn_cast<DeclRefExpr>(Callee);
  for (const auto &[Param, Fn] : Bound.Functions)
    if (D && D->getDecl() == Param)
      return Fn;
  return nullptr;
}

const Stmt *
FunctionFacts::latestBefore(const Stmt *At,
                            llvm::function_ref<WalkStep(const Stmt *)> Reach,
                            llvm::function_ref<bool(const Stmt *)> Changes) const {
  const Stmt *A = At;
  for (const Stmt *P = PM.getParent(A); P; A = P, P = PM.getParent(P)) {
    if (isa<LambdaExpr>(P) || isa<BlockExpr>(P) || isa<SwitchCase>(P) ||
        isa<LabelStmt>(P))
      return nullptr;
    if (const Stmt *Body = loopBody(P);
        Body && within(At, Body) && Changes(P))
      return nullptr;
    const auto *C = dyn_cast<CompoundStmt>(P);
    if (!C)
      continue;
    if (Changes(A))
      return nullptr;
    const auto *Here = llvm::find(C->body(), A);
    for (auto It = std::make_reverse_iterator(Here); It != C->body_rend();
         ++It) {
      if (isa<SwitchCase>(*It) || isa<LabelStmt>(*It))
        return nullptr;
      switch (Reach(*It)) {
      case WalkStep::Found:
        return *It;
      case WalkStep::Stop:
        return nullptr;
      case WalkStep::Next:
        break;
      }
    }
  }
  return nullptr;
}

bool FunctionFacts::readsValue(const DeclRefExpr *R) const {
  const auto *IC =
      dyn_cast_or_null<ImplicitCastExpr>(PM.getParentIgnoreParens(R));
  return IC && IC->getCastKind() == CK_LValueToRValue;
}

bool FunctionFacts::within(const Stmt *S, const Stmt *Ancestor) const {
  for (; S; S = PM.getParent(S))
    if (S == Ancestor)
      return true;
  return false;
}

void FunctionFacts::collectQueryVars() {
  std::set<const VarDecl *> Conflicting;
  for (const Assignment &A : Assigns) {
    const VarDecl *V = A.Var;
    if (!V)
      continue;
    const auto *Q = dyn_cast<CallExpr>(strip(A.Rhs));
    const ApiEntry *E = Q ? lookup(Q) : nullptr;
    bool IsQuery = E && isQueryRole(E->Role);
    auto It = QueryVars.find(V);
    if (!IsQuery ||
        (It != QueryVars.end() && AccessPath::of(It->second) != AccessPath::of(Q)))
      Conflicting.insert(V);
    else
      QueryVars[V] = Q;
  }
  for (const VarDecl *V : Conflicting)
    QueryVars.erase(V);
}

//===----------------------------------------------------------------------===//
// Constants and parameter structs
//===----------------------------------------------------------------------===//

std::optional<long long> FunctionFacts::constantArg(const Expr *E) const {
  if (!E)
    return std::nullopt;
  if (auto V = evalInt(E, Ctx))
    return V;
  if (const auto *B = dyn_cast<BinaryOperator>(strip(E))) {
    // `n * sizeof(float)` with `int n = 256;`: arithmetic of known values.
    std::optional<long long> L = constantArg(B->getLHS());
    std::optional<long long> R = L ? constantArg(B->getRHS()) : std::nullopt;
    long long V = 0;
    if (!R)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_Mul:
      return __builtin_mul_overflow(*L, *R, &V) ? std::nullopt
                                                : std::optional<long long>(V);
    case BO_Add:
      return __builtin_add_overflow(*L, *R, &V) ? std::nullopt
                                                : std::optional<long long>(V);
    case BO_Sub:
      return __builtin_sub_overflow(*L, *R, &V) ? std::nullopt
                                                : std::optional<long long>(V);
    default:
      return std::nullopt;
    }
  }
  const auto *D = dyn_cast<DeclRefExpr>(strip(E));
  return knownValue(D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr);
}

std::optional<long long> FunctionFacts::knownValue(const VarDecl *V) const {
  if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
      !MutatedVars.count(V)) {
    if (auto Value = evalInt(V->getInit(), Ctx))
      return Value;
    // `size_t bytes = n * sizeof(float);`: the initializer's known values
    // (it names only variables declared before V, and V itself: stop
    // there).
    if (V->getType()->isReferenceType() || !ValuesOpen.insert(V).second)
      return std::nullopt;
    std::optional<long long> Value = constantArg(V->getInit());
    ValuesOpen.erase(V);
    return Value;
  }
  return boundConstant(V);
}

std::optional<long long>
FunctionFacts::knownFieldValue(const FieldDecl *FD) const {
  if (!FD || !FD->getType().isConstQualified() ||
      !FD->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!RD || !RD->hasDefinition())
    return std::nullopt;
  std::optional<long long> Value;
  auto Agree = [&](const Expr *Init) {
    std::optional<long long> V = Init ? evalInt(Init, Ctx) : std::nullopt;
    if (!V || (Value && *Value != *V))
      return false;
    Value = V;
    return true;
  };
  unsigned Counted = 0;
  for (const CXXConstructorDecl *Ctor : RD->ctors()) {
    if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!Ctor->isDefined(Def))
      return std::nullopt;
    const Expr *Init = nullptr;
    for (const CXXCtorInitializer *I : cast<CXXConstructorDecl>(Def)->inits())
      if (I->getMember() == FD)
        Init = I->getInit();
    if (const auto *Default = dyn_cast_or_null<CXXDefaultInitExpr>(Init))
      Init = Default->getExpr();
    if (!Init)
      Init = FD->getInClassInitializer();
    if (!Agree(Init))
      return std::nullopt;
    ++Counted;
  }
  if (Counted == 0 && !Agree(FD->getInClassInitializer()))
    return std::nullopt;
  return Value;
}

std::optional<long long> FunctionFacts::writtenConstant(const VarDecl *V,
                                                       const Stmt *At) const {
  if (!V->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (At == V->getInit() || isa<DeclStmt>(At))
    return V->getInit() ? evalInt(V->getInit(), Ctx) : std::nullopt;
  if (const auto *B = dyn_cast<BinaryOperator>(At);
      B && B->getOpcode() == BO_Assign)
    return evalInt(B->getRHS(), Ctx);
  return std::nullopt;
}

std::optional<long long> FunctionFacts::boundConstant(const VarDecl *V) const {
  if (V && isa<ParmVarDecl>(V) && !MutatedVars.count(V))
    for (const auto &[Param, Value] : Bound.Constants)
      if (Param == V)
        return Value;
  return std::nullopt;
}

const Expr *FunctionFacts::paramsField(const Expr *Ptr, const CallExpr *C,
                                       llvm::StringRef Field) const {
  const auto *U = dyn_cast_or_null<UnaryOperator>(strip(Ptr));
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *D = dyn_cast<DeclRefExpr>(strip(U->getSubExpr()));
  if (!D)
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  const ParamsStructFields &Runtime3D =
      paramsStructFields(ParamsStructKind::Runtime3D);
  const Expr *Found = nullptr;
  for (const ParamsWrite &W : ParamsWrites) {
    if (W.Var != D->getDecl() ||
        !SM.isBeforeInTranslationUnit(W.Value->getBeginLoc(),
                                      C->getBeginLoc()))
      continue;
    if (W.Field == Field)
      Found = W.Value;
    else if (Field == Runtime3D.Dst && W.Field == Runtime3D.DstWhole) {
      // p.dstPtr = make_cudaPitchedPtr(h, pitch, x, y)
      const auto *M = dyn_cast<CallExpr>(strip(W.Value));
      if (M && M->getNumArgs() > 0)
        Found = M->getArg(0);
    }
  }
  return Found;
}

std::optional<long long> FunctionFacts::copyKind(const CallExpr *C,
                                                 const ApiEntry &E) const {
  const ParamsStructFields &F = paramsStructFields(E.Struct);
  switch (E.Struct) {
  case ParamsStructKind::Runtime3D:
    return constantArg(paramsField(arg(C, 0), C, F.Kind));
  case ParamsStructKind::DriverMemcpy: {
    auto Dst = constantArg(paramsField(arg(C, 0), C, F.DstMemoryType));
    auto Src = constantArg(paramsField(arg(C, 0), C, F.SrcMemoryType));
    if (!Dst || !Src)
      return std::nullopt;
    if (*Dst != MemoryTypeHost)
      return MemcpyHostToDevice; // into device memory: not our concern
    if (*Src == MemoryTypeHost)
      return MemcpyHostToHost;
    return *Src == MemoryTypeUnified ? MemcpyDefault : MemcpyDeviceToHost;
  }
  case ParamsStructKind::None:
  case ParamsStructKind::Batch3DOps:
    break;
  }
  if (E.FixedKind != NoArg)
    return E.FixedKind;
  return constantArg(arg(C, E.KindArg));
}

} // namespace clang::tidy::cuda
