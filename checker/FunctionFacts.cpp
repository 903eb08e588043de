//===--- FunctionFacts.cpp - What one AST walk learns of a callable -----===//

#include "FunctionFacts.h"
#include "ExprUtils.h"
#include "TorchModel.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>

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
    // Not its body; but a by-reference capture may change the variable
    // whenever the lambda runs.
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar())) {
          escape(V);
          I.CapturedByRef.insert(V);
        }
    return true;
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
    // A variable bound to a non-const reference parameter may be changed
    // by the callee.
    if (const FunctionDecl *F = C->getDirectCallee();
        F && !isa<CXXOperatorCallExpr>(C))
      for (unsigned N = 0; N < F->getNumParams() && N < C->getNumArgs(); ++N) {
        escapeIfBound(F->getParamDecl(N)->getType(), C->getArg(N));
        // std::swap(a, b), std::exchange(a, v), std::tie(a, b) = ...: the
        // standard library's reference parameters are there to change the
        // variable, here.
        if (F->isInStdNamespace())
          writeIfBound(F->getParamDecl(N)->getType(), C->getArg(N), C);
      }
    return true;
  }
  void writeIfBound(QualType T, const Expr *E, const Stmt *At) {
    if (T->isLValueReferenceType() &&
        !T.getNonReferenceType().isConstQualified())
      noteMutation(E, At);
  }
  void escapeIfBound(QualType T, const Expr *E) {
    if (!T->isLValueReferenceType() ||
        T.getNonReferenceType().isConstQualified())
      return;
    if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        escape(V);
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
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (isa<VarDecl>(D->getDecl()))
      I.Candidates.push_back(D);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *M) {
    I.Candidates.push_back(M);
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
                             B->getRHS()});
      }
      noteMutation(B->getLHS(), B);
      noteParamsWrite(B->getLHS(), B->getRHS());
    }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    // Class-type assignment, e.g. `p.dstPtr = make_cudaPitchedPtr(...)`;
    // `b = c` of a tensor handle gives b a new value.
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      noteParamsWrite(Op->getArg(0), Op->getArg(1));
      noteMutation(Op->getArg(0), Op);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      noteMutation(U->getSubExpr(), U);
    if (U->getOpcode() == UO_AddrOf)
      if (const auto *D = dyn_cast<DeclRefExpr>(strip(U->getSubExpr())))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
          escape(V);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
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
        I.Assigns.push_back({nullptr, V, Init});
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
  }
  buildAliasesAndProvenance();
  collectQueryVars();
  collectStreamSetters();
  StreamCache.clear(); // streams asked while the setters were incomplete
  return true;
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

StreamRef FunctionFacts::streamOf(const Expr *E) {
  if (!E)
    return computeStreamOf(nullptr);
  // Asked at every visit of a transfer: computed once per expression.
  auto It = StreamCache.find(E);
  if (It != StreamCache.end())
    return It->second;
  StreamRef S = computeStreamOf(E);
  StreamCache.try_emplace(E, S);
  return S;
}

StreamRef FunctionFacts::computeStreamOf(const Expr *E) {
  StreamRef S;
  if (!E) { // omitted: the default stream
    S.K = PerThread ? StreamRef::PerThread : StreamRef::Legacy;
    S.Spelling = "0";
    return S;
  }
  S.Spelling = spelling(E, Ctx);
  if (const Expr *Current = currentStreamSource(E)) {
    // Named after the stream it resolves to (a guard's), if any.
    StreamRef C = currentStreamAt(Current->getBeginLoc());
    if (C.K != StreamRef::Named)
      C.Spelling = S.Spelling;
    return C;
  }
  // g.current_stream() / g.original_stream() of a stream guard: the
  // current stream here / where g was constructed.
  if (const auto *M = dyn_cast_or_null<CXXMemberCallExpr>(strip(E));
      M && M->getMethodDecl() && M->getMethodDecl()->getIdentifier() &&
      M->getNumArgs() == 0)
    if (const CXXConstructExpr *G = guardOf(M->getImplicitObjectArgument())) {
      llvm::StringRef Name = M->getMethodDecl()->getName();
      if (Name == "current_stream" || Name == "original_stream") {
        StreamRef C = currentStreamAt(
            Name == "current_stream" ? M->getBeginLoc() : G->getBeginLoc());
        if (C.K != StreamRef::Named)
          C.Spelling = S.Spelling;
        return C;
      }
    }
  // c10::cuda::getDefaultCUDAStream(), or a variable holding it.
  if (const auto *C = dyn_cast_or_null<CallExpr>(streamSource(E)))
    if (const ApiEntry *A = lookup(C); A && A->Role == ApiRole::DefaultStream) {
      S.K = PerThread ? StreamRef::PerThread : StreamRef::Legacy;
      return S;
    }
  if (auto V = evalInt(strip(E), Ctx)) {
    if (*V == 0)
      S.K = PerThread ? StreamRef::PerThread : StreamRef::Legacy;
    else if (*V == StreamLegacyHandle)
      S.K = StreamRef::Legacy;
    else if (*V == StreamPerThreadHandle)
      S.K = StreamRef::PerThread;
    else
      S.K = StreamRef::Unknown;
    return S;
  }
  S.K = StreamRef::Named;
  S.Path = handleOf(E);
  S.Elements = elementsOf(E);
  S.NonBlocking = isNonBlockingStream(S.Path);
  S.Fresh = FreshStreams.count(S.Path) != 0;
  return S;
}

namespace {
/// Member expressions naming Field of `this` in a member function's body,
/// and the member functions it calls on `this`.
struct ThisMemberUses : RecursiveASTVisitor<ThisMemberUses> {
  const FieldDecl *Field;
  std::vector<const MemberExpr *> Uses;
  std::vector<const CXXMethodDecl *> Calls;
  explicit ThisMemberUses(const FieldDecl *F) : Field(F) {}
  bool VisitMemberExpr(MemberExpr *M) {
    if (!isa_and_nonnull<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
      return true;
    if (M->getMemberDecl() == Field)
      Uses.push_back(M);
    else if (const auto *Method = dyn_cast<CXXMethodDecl>(M->getMemberDecl()))
      Calls.push_back(Method);
    return true;
  }
};

/// Does member function Method (analysed by A, over its body) change
/// Field of `this`? Other member functions it calls on `this` are added to
/// Calls when they are neither const nor static.
bool changesThisMember(ExprMutationAnalyzer &A, const FunctionDecl *Method,
                       const FieldDecl *Field,
                       std::vector<const CXXMethodDecl *> *Calls = nullptr) {
  ThisMemberUses Uses(Field);
  Uses.TraverseStmt(Method->getBody());
  for (const MemberExpr *M : Uses.Uses)
    if (A.isMutated(M))
      return true;
  if (Calls)
    for (const CXXMethodDecl *Callee : Uses.Calls)
      if (!Callee->isConst() && !Callee->isStatic())
        Calls->push_back(Callee);
  return false;
}
} // namespace

AccessPath FunctionFacts::handleValue(const AccessPath &P) const {
  AccessPath Value = P;
  for (int Step = 0; Step < 4; ++Step) {
    const Expr *Init = handleInit(Value);
    if (!Init)
      break;
    AccessPath Next = AccessPath::of(Init);
    if (Next.rootKind() != AccessPath::RootKind::Decl &&
        Next.rootKind() != AccessPath::RootKind::This)
      break; // a call's result, a literal: not followed
    Value = std::move(Next);
  }
  return Value;
}

const Expr *FunctionFacts::handleInit(const AccessPath &P) const {
  const auto *V = dyn_cast_or_null<VarDecl>(P.rootDecl());
  if (P.rootKind() != AccessPath::RootKind::Decl || !V ||
      !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->isInitCapture() ||
      V->getType()->isReferenceType() || V->getParentFunctionOrMethod() != FD ||
      !V->getInit() || MutatedVars.count(V) || AddressTaken.count(V))
    return nullptr;
  llvm::ArrayRef<PathStep> Steps = P.steps();
  // A handle, or a stream wrapper copied by value (`auto side2 = side;`
  // of a c10::cuda::CUDAStream); not other objects.
  if (Steps.empty())
    return !V->getType()->isRecordType() ||
                   isStreamWrapper(V->getType()->getAsCXXRecordDecl())
               ? strip(V->getInit())
               : nullptr;
  const auto *Field = Steps.size() == 1 && Steps[0].K == PathStep::Dot
                          ? dyn_cast_or_null<FieldDecl>(Steps[0].Member)
                          : nullptr;
  if (!Field || Field->getType()->isReferenceType() ||
      memberChanged(V, Field))
    return nullptr;
  const Expr *Init = V->getInit()->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Init))
    Init = Cast->getSubExpr()->IgnoreImplicit(); // auto g = Guard(s);
  if (const auto *L = dyn_cast<InitListExpr>(Init)) {
    if (L->isSemanticForm() && Field->getParent() == V->getType()->getAsRecordDecl()) {
      unsigned Index = Field->getFieldIndex();
      if (Index < L->getNumInits())
        return strip(L->getInit(Index));
    }
    return nullptr;
  }
  const auto *C = dyn_cast<CXXConstructExpr>(Init);
  const CXXConstructorDecl *Ctor = nullptr;
  if (!C || !C->getConstructor()->hasBody() ||
      !(Ctor = dyn_cast<CXXConstructorDecl>(
            C->getConstructor()->getDefinition())))
    return nullptr;
  for (const CXXCtorInitializer *MI : Ctor->inits()) {
    if (MI->getMember() != Field || !MI->isWritten())
      continue;
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(MI->getInit()));
    const auto *PD = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!PD || PD->getType()->isRValueReferenceType() ||
        PD->getFunctionScopeIndex() >= C->getNumArgs() ||
        isa<CXXDefaultArgExpr>(C->getArg(PD->getFunctionScopeIndex())))
      return nullptr;
    // The constructor's body must not change the parameter or the member.
    ExprMutationAnalyzer InCtor(*Ctor->getBody(), Ctx);
    if (InCtor.isMutated(PD) || changesThisMember(InCtor, Ctor, Field))
      return nullptr;
    return strip(C->getArg(PD->getFunctionScopeIndex()));
  }
  return nullptr;
}


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

bool FunctionFacts::memberChanged(const VarDecl *V,
                                  const FieldDecl *Field) const {
  auto [It, New] = MemberChangedCache.try_emplace({V, Field}, true);
  if (!New)
    return It->second;
  if (Field->isMutable())
    return true;
  // Member functions that may run on V: those called on it here, and those
  // they call on `this`; each must leave Field alone.
  std::vector<const CXXMethodDecl *> Work;
  ExprMutationAnalyzer Here(*Body, Ctx);
  for (const DeclRefExpr *D : refsOf(V)) {
    const auto *M = dyn_cast_or_null<MemberExpr>(
        PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(D)));
    if (M && M->getMemberDecl() == Field) {
      if (Here.isMutated(M))
        return true;
      continue;
    }
    if (M && isa<FieldDecl>(M->getMemberDecl()))
      continue; // another member
    if (const auto *Method =
            M ? dyn_cast<CXXMethodDecl>(M->getMemberDecl()) : nullptr) {
      if (!Method->isConst() && !Method->isStatic())
        Work.push_back(Method);
      continue;
    }
    // The object itself: copied is fine, assigned or bound to a non-const
    // reference is not.
    if (Here.isMutated(D))
      return true;
  }
  std::set<const CXXMethodDecl *> Seen;
  while (!Work.empty()) {
    const CXXMethodDecl *Method = Work.back();
    Work.pop_back();
    if (!Seen.insert(Method).second)
      continue;
    if (Seen.size() > 16)
      return true; // too many to read
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(Method) || isa<CXXDestructorDecl>(Method))
      continue; // run at construction, or after the last use
    if (!Method->hasBody(Def) || !Def || Method->isVirtual())
      return true; // cannot tell what it does
    ExprMutationAnalyzer InMethod(*Def->getBody(), Ctx);
    if (changesThisMember(InMethod, Def, Field, &Work))
      return true;
  }
  It = MemberChangedCache.find({V, Field});
  It->second = false;
  return false;
}

bool FunctionFacts::capturing(const Expr *At, const StreamRef &S) const {
  if (S.K != StreamRef::Named)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  const CallExpr *Last = nullptr;
  bool Begun = false;
  for (const CallExpr *C : CaptureCalls) {
    const ApiEntry *E = lookup(C);
    if (!SM.isBeforeInTranslationUnit(C->getBeginLoc(), At->getBeginLoc()))
      continue;
    // streamOf is not const (its cache); the identity alone is needed.
    const Expr *StreamE = strip(arg(C, E->StreamArg));
    if (!StreamE || handleOf(StreamE) != S.Path)
      continue;
    if (Last && SM.isBeforeInTranslationUnit(C->getBeginLoc(),
                                             Last->getBeginLoc()))
      continue;
    Last = C;
    Begun = E->Role == ApiRole::CaptureBegin;
  }
  return Begun;
}

const FunctionDecl *FunctionFacts::calleeOf(const CallExpr *C) const {
  if (const FunctionDecl *F = C->getDirectCallee())
    return F;
  if (Bound.Functions.empty())
    return nullptr;
  const Expr *Callee = C->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Callee);
      U && U->getOpcode() == UO_Deref)
    Callee = U->getSubExpr()->IgnoreParenImpCasts(); // (*query)(object)
  const auto *D = dyn_cast<DeclRefExpr>(Callee);
  for (const auto &[Param, Fn] : Bound.Functions)
    if (D && D->getDecl() == Param)
      return Fn;
  return nullptr;
}

bool FunctionFacts::within(const Stmt *S, const Stmt *Ancestor) const {
  for (; S; S = PM.getParent(S))
    if (S == Ancestor)
      return true;
  return false;
}

static const VarDecl *varOf(const Expr *E) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts()
                                                  : nullptr);
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// A for loop's init `int i = e` or `i = e`: the variable and e.
static std::pair<const VarDecl *, const Expr *> forInit(const ForStmt *L) {
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
  std::optional<long long> Lo = Init ? evalInt(Init, Ctx) : std::nullopt;
  if (!V || !Lo || !V->getType()->isIntegerType())
    return std::nullopt;
  // cond: i < hi, i <= hi, i != hi, hi > i, hi >= i
  const auto *C = dyn_cast_or_null<BinaryOperator>(
      L->getCond() ? L->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!C)
    return std::nullopt;
  BinaryOperatorKind Op = C->getOpcode();
  const Expr *Bound = nullptr;
  if (varOf(C->getLHS()) == V) {
    Bound = C->getRHS();
  } else if (varOf(C->getRHS()) == V) {
    Bound = C->getLHS();
    if (Op != BO_GT && Op != BO_GE && Op != BO_NE)
      return std::nullopt;
    Op = Op == BO_GT ? BO_LT : Op == BO_GE ? BO_LE : Op;
  }
  auto B = Bound ? evalInt(Bound, Ctx) : std::nullopt;
  if (!B)
    return std::nullopt;
  long long Hi;
  if (Op == BO_LT || (Op == BO_NE && *Lo <= *B))
    Hi = *B;
  else if (Op == BO_LE)
    Hi = *B + 1;
  else
    return std::nullopt;
  // inc: ++i, i++, i += 1
  const Expr *Inc = L->getInc() ? L->getInc()->IgnoreParenImpCasts() : nullptr;
  bool Step = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    Step = U->isIncrementOp() && varOf(U->getSubExpr()) == V;
  else if (const auto *A = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    Step = A->getOpcode() == BO_AddAssign && varOf(A->getLHS()) == V &&
           evalInt(A->getRHS(), Ctx) == 1;
  if (!Step)
    return std::nullopt;
  return LoopBounds{V, *Lo, Hi};
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

std::optional<ElementRange> FunctionFacts::elementsOf(const Expr *E) const {
  E = strip(E);
  const Expr *Array = nullptr, *Index = nullptr;
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E)) {
    Array = A->getBase();
    Index = A->getIdx();
  } else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
             Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
    Array = Op->getArg(0);
    Index = Op->getArg(1);
  }
  ElementRange R;
  if (Array) {
    R.Array = AccessPath::of(Array);
    if (auto C = evalInt(Index, Ctx)) {
      R.Known = true;
      R.Lo = *C;
      R.Hi = *C + 1;
    } else if (const VarDecl *V = varOf(Index)) {
      if (auto Range = loopRange(V, E)) {
        R.Known = true;
        std::tie(R.Lo, R.Hi) = *Range;
      }
    }
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
        !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) &&
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

//===----------------------------------------------------------------------===//
// Provenance and aliases
//===----------------------------------------------------------------------===//

Provenance FunctionFacts::declProvenance(const Expr *Root) {
  const auto *D = dyn_cast<DeclRefExpr>(strip(Root));
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V)
    return isStdContainer(Root->getType())      ? Provenance::Pageable
           : isDeviceContainer(Root->getType()) ? Provenance::Device
                                                : Provenance::Unknown;
  return varProvenance(V);
}

/// A complete class whose fields (and bases' fields), arrays included,
/// are arithmetic, enumerations or such classes, to a small depth: an
/// object of it refers to no memory but its own.
static bool holdsNoPointer(const CXXRecordDecl *R, unsigned Depth) {
  R = R ? R->getDefinition() : nullptr;
  if (!R || Depth > 3 || R->isInvalidDecl() || R->isPolymorphic() ||
      R->isUnion() || R->isLambda())
    return false;
  for (const CXXBaseSpecifier &B : R->bases())
    if (!holdsNoPointer(B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return false;
  for (const FieldDecl *F : R->fields()) {
    QualType T = F->getType();
    while (const ArrayType *A = T->getAsArrayTypeUnsafe())
      T = A->getElementType();
    if (T->isArithmeticType() || T->isEnumeralType())
      continue;
    if (!T->getAsCXXRecordDecl() ||
        !holdsNoPointer(T->getAsCXXRecordDecl(), Depth + 1))
      return false;
  }
  return true;
}

Provenance FunctionFacts::varProvenance(const VarDecl *V) {
  QualType T = V->getType();
  if (isStdContainer(T))
    return Provenance::Pageable;
  if (isDeviceContainer(T))
    return Provenance::Device;
  if (auto Pinned = raftOwnedHostMemoryIsPinned(T))
    return *Pinned ? Provenance::Pinned : Provenance::Pageable;
  // A stack array or scalar, plain struct, or class object that holds no
  // pointer (`half v{}`: its bytes are all it has); not a class object that
  // may own pinned memory (std::unique_ptr with a cudaFreeHost deleter).
  if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && !T->isReferenceType() &&
      !T->isPointerType() &&
      !(T->getAsCXXRecordDecl() && !T->getAsCXXRecordDecl()->isCLike() &&
        !holdsNoPointer(T->getAsCXXRecordDecl(), 0)))
    return Provenance::Pageable;
  return Provenance::Unknown;
}

Provenance FunctionFacts::provenanceOf(const Expr *Root) {
  Provenance P = Aliases.provenance(AccessPath::of(Root));
  return std::max(P, declProvenance(Root));
}

/// Where a tensor's storage lives, from the expression that gives the
/// variable its value; views and copies of a tensor handle share its
/// storage (an alias).
void FunctionFacts::applyTensorOrigin(const AccessPath &Key,
                                      const Expr *Rhs) {
  TensorOrigin O = tensorOrigin(Rhs);
  switch (O.K) {
  case TensorOrigin::None:
    return;
  case TensorOrigin::SameStorage:
    Aliases.unite(Key, AccessPath::of(O.Of));
    return;
  case TensorOrigin::Pinned:
    return Aliases.mark(Key, Provenance::Pinned);
  case TensorOrigin::Device:
    return Aliases.mark(Key, Provenance::Device);
  case TensorOrigin::Pageable:
    return Aliases.mark(Key, Provenance::Pageable);
  case TensorOrigin::CpuCopy: {
    auto NB = constantArg(O.NonBlocking);
    return Aliases.mark(Key, NB && *NB ? Provenance::Pinned
                                       : Provenance::Pageable);
  }
  case TensorOrigin::Blob:
    // The tensor is the pointer's memory: pinned, pageable or device as the
    // pointer is known to be; host memory at least, unless the options say
    // CUDA.
    Aliases.unite(Key, AccessPath::of(O.Of));
    if (O.Cuda)
      return Aliases.mark(Key, Provenance::Device);
    HostTensors.push_back(Key);
    return;
  }
}

const Expr *FunctionFacts::allocTarget(const CallExpr *C,
                                       const ApiEntry &E) const {
  const Expr *A = arg(C, E.PtrArg);
  if (!A)
    return nullptr;
  if (E.PtrForm == PtrArgForm::Pointer)
    return bufferRoot(A);
  const auto *U = dyn_cast<UnaryOperator>(strip(A));
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  return strip(U->getSubExpr());
}

namespace {
/// Collects the return statements of a body, not those of lambdas or local
/// classes in it.
void collectReturns(const Stmt *S, std::vector<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S) || isa<DeclStmt>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}
} // namespace

std::vector<const Expr *> FunctionFacts::returnedValues() const {
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Body, Returns);
  std::vector<const Expr *> Values;
  for (const ReturnStmt *R : Returns)
    Values.push_back(R->getRetValue());
  return Values;
}

const Expr *FunctionFacts::returnedArgument(const Expr *E) const {
  const auto *C = dyn_cast_or_null<CallExpr>(strip(E));
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isTemplated() ||
      !Def->getReturnType()->isPointerType() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  const ParmVarDecl *Param = nullptr;
  for (const ReturnStmt *R : Returns) {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(R->getRetValue()));
    const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!P || (Param && P != Param))
      return nullptr;
    Param = P;
  }
  if (!Param)
    return nullptr;
  for (unsigned I = 0; I < Def->getNumParams(); ++I)
    if (Def->getParamDecl(I) == Param)
      return paramArg(C, I);
  return nullptr;
}

void FunctionFacts::buildAliasesAndProvenance() {
  // Streams created into a local variable (isFreshStream): how often each
  // variable is created into, and given any other value.
  std::map<const VarDecl *, std::pair<unsigned, unsigned>> CreatedAssigned;
  auto IsPoolStream = [&](const Expr *Rhs) {
    const auto *C = dyn_cast_or_null<CallExpr>(strip(Rhs));
    const ApiEntry *E = C ? lookup(C) : nullptr;
    return E && E->Role == ApiRole::PoolStream;
  };
  for (const Assignment &A : Assigns)
    if (A.Var)
      ++(IsPoolStream(A.Rhs) ? CreatedAssigned[A.Var].first
                             : CreatedAssigned[A.Var].second);
  for (const CallExpr *C : Calls)
    if (const ApiEntry *E = lookup(C); E && E->Role == ApiRole::StreamCreate)
      if (const Expr *T = allocTarget(C, *E)) {
        const auto *D = dyn_cast<DeclRefExpr>(strip(T));
        if (const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr)
          ++CreatedAssigned[V].first;
      }
  // A use that may change the handle behind the analysis's back: bound to
  // a reference, its address taken (other than by the creating call).
  auto ChangedByUse = [&](const VarDecl *V) {
    for (const DeclRefExpr *D : refsOf(V)) {
      const Stmt *Up = PM.getParentIgnoreParens(D);
      if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up);
          C && (C->getCastKind() == CK_LValueToRValue ||
                C->getCastKind() == CK_NoOp))
        continue;
      if (V->getType()->isRecordType() &&
          isa_and_nonnull<MemberExpr, CXXConstructExpr>(Up))
        continue; // a stream wrapper's accessors, copies
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(Up);
          U && U->getOpcode() == UO_AddrOf) {
        const Stmt *Arg = U;
        while (isa_and_nonnull<ImplicitCastExpr, CStyleCastExpr, ParenExpr,
                               CXXReinterpretCastExpr>(PM.getParent(Arg)))
          Arg = PM.getParent(Arg);
        const auto *Call = dyn_cast_or_null<CallExpr>(PM.getParent(Arg));
        const ApiEntry *E = Call ? lookup(Call) : nullptr;
        if (E && E->Role == ApiRole::StreamCreate)
          continue;
      }
      return true;
    }
    return false;
  };
  for (const auto &[V, Counts] : CreatedAssigned)
    if (Counts.first && !Counts.second && !ChangedByUse(V) &&
        !CapturedByRef.count(V) && V->hasLocalStorage() &&
        !isa<ParmVarDecl>(V) && !V->getType()->isReferenceType() &&
        !V->getType()->isArrayType())
      FreshStreams.insert(AccessPath::ofVar(V));

  for (const Assignment &A : Assigns) {
    AccessPath LhsKey;
    QualType LhsType;
    if (A.Lhs) {
      const Expr *L = strip(A.Lhs);
      // Not array slots: `dsts[0] = h1; ...; dsts[0] = h2;` would join
      // h1 and h2.
      if (!isa<DeclRefExpr, MemberExpr>(L))
        continue;
      LhsKey = AccessPath::of(L);
      LhsType = L->getType();
    } else {
      LhsKey = AccessPath::ofVar(A.Var);
      LhsType = A.Var->getType();
    }
    // c10::cuda::getStreamFromPool: PyTorch creates its pool streams with
    // cudaStreamNonBlocking (c10/cuda/CUDAStream.cpp).
    if (const auto *C = dyn_cast_or_null<CallExpr>(strip(A.Rhs))) {
      const ApiEntry *E = lookup(C);
      if (E && E->Role == ApiRole::PoolStream) {
        NonBlockingStreams.insert(LhsKey);
        continue;
      }
    }
    if (isTensorType(LhsType) || isTensorVector(LhsType)) {
      applyTensorOrigin(LhsKey, A.Rhs);
      continue;
    }
    if (!LhsType->isPointerType() && !LhsType->isReferenceType() &&
        !isStdSmartPointer(LhsType->getAsCXXRecordDecl()))
      continue;
    if (isPageableAllocation(A.Rhs)) {
      Aliases.mark(LhsKey, Provenance::Pageable);
      continue;
    }
    // `float *h = download(p, d, s)` of a helper that returns its pointer
    // parameter: h is an alias of the argument.
    const Expr *Rhs = A.Rhs;
    if (const Expr *Arg = returnedArgument(Rhs))
      Rhs = Arg;
    if (const Expr *Root = bufferRoot(Rhs)) {
      Aliases.unite(LhsKey, AccessPath::of(Root));
      Aliases.mark(LhsKey, declProvenance(Root));
    }
  }
  for (const CallExpr *C : Calls) {
    const ApiEntry *E = lookup(C);
    if (!E)
      continue;
    if (E->Role == ApiRole::PinnedAlloc || E->Role == ApiRole::DeviceAlloc) {
      if (const Expr *T = allocTarget(C, *E))
        Aliases.mark(AccessPath::of(T), E->Role == ApiRole::PinnedAlloc
                                     ? Provenance::Pinned
                                     : Provenance::Device);
    } else if (E->Role == ApiRole::TorchCopy &&
               C->getDirectCallee()->getName() == "to" && targetsCpu(C)) {
      // b.to(kCPU, ...): b is on the GPU (a CPU tensor's to(kCPU) is a
      // no-op, so there would be nothing to copy anyway).
      // Not a tensor over host memory (from_blob): its to(kCPU) is the
      // no-op.
      const Expr *Obj = arg(C, ObjectArg);
      const Expr *Root = Obj ? bufferRoot(Obj) : nullptr;
      if (!Root || provenanceOf(Root) != Provenance::Unknown)
        continue;
      std::string Class = Aliases.classKey(AccessPath::of(Root));
      if (llvm::none_of(HostTensors, [&](const AccessPath &H) {
            return Aliases.classKey(H) == Class;
          }))
        Aliases.mark(AccessPath::of(Root), Provenance::Device);
    } else if (E->Role == ApiRole::StreamCreate && E->FlagsArg != NoArg) {
      auto Flags = evalInt(arg(C, E->FlagsArg), Ctx);
      const Expr *T = allocTarget(C, *E);
      if (T && Flags && (*Flags & StreamNonBlockingFlag))
        NonBlockingStreams.insert(AccessPath::of(T));
    }
  }
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
  const auto *D = dyn_cast<DeclRefExpr>(strip(E));
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
      !MutatedVars.count(V))
    return evalInt(V->getInit(), Ctx);
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
