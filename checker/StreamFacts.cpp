//===--- StreamFacts.cpp - Which stream an expression names -------------===//
//
// FunctionFacts' stream identity: streamOf (cached per expression), the
// stream or event a handle path holds by value (handleValue, through
// unchanged local variables and members of local objects: memberChanged),
// and whether a stream is being captured into a graph (capturing).
//
//===----------------------------------------------------------------------===//

#include "FunctionFacts.h"
#include "ExprUtils.h"
#include "LibraryProducers.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

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

/// The member or global whose every write StreamOrigins reads, for a
/// handle path: its last member (`this->s_`, `h->stream`, `streams_[i]`),
/// or a global root without members (a function's static local included),
/// or the one such variable an accessor call returns (`io::stream()`:
/// staticReturned); else null.
static const ValueDecl *memberOrGlobal(const AccessPath &P) {
  llvm::ArrayRef<PathStep> Steps = P.steps();
  while (!Steps.empty() && Steps.back().K == PathStep::Index)
    Steps = Steps.drop_back();
  if (!Steps.empty())
    return Steps.back().K == PathStep::Call
               ? nullptr
               : dyn_cast_or_null<FieldDecl>(Steps.back().Member);
  if (P.rootKind() == AccessPath::RootKind::Call)
    return staticReturned(P.rootCall());
  const auto *V = dyn_cast_or_null<VarDecl>(P.rootDecl());
  return P.rootKind() == AccessPath::RootKind::Decl && V &&
                 V->hasGlobalStorage()
             ? V
             : nullptr;
}

/// `V = X;` or the declaration of V: nullopt when S is neither, else X
/// (null for a declaration without an initializer).
static std::optional<const Expr *> definitionOf(const Stmt *S,
                                                const VarDecl *V) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (!llvm::is_contained(DS->decls(), V))
      return std::nullopt;
    return V->getInit();
  }
  const auto *E = dyn_cast<Expr>(S);
  const auto *B =
      E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()->IgnoreParens())
        : nullptr;
  const auto *L = B && B->getOpcode() == BO_Assign
                      ? dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens())
                      : nullptr;
  if (!L || L->getDecl() != V)
    return std::nullopt;
  return B->getRHS();
}

const Expr *FunctionFacts::reachingValue(const VarDecl *V,
                                         const Expr *Use) const {
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      AddressTaken.count(V) || CapturedByRef.count(V))
    return nullptr;
  // Every reference to V that is not a read of its value.
  llvm::SmallVector<const DeclRefExpr *, 4> Changes;
  for (const DeclRefExpr *R : refsOf(V))
    if (!readsValue(R))
      Changes.push_back(R);
  auto ChangedIn = [&](const Stmt *S) {
    return llvm::any_of(Changes,
                        [&](const DeclRefExpr *R) { return within(R, S); });
  };
  std::optional<const Expr *> X;
  latestBefore(
      Use,
      [&](const Stmt *S) {
        if ((X = definitionOf(S, V)))
          return WalkStep::Found;
        return ChangedIn(S) ? WalkStep::Stop : WalkStep::Next;
      },
      ChangedIn);
  return X ? *X : nullptr;
}

StreamRef FunctionFacts::computeStreamOf(const Expr *E) {
  StreamRef S;
  if (!E) { // omitted: the default stream
    S.K = PerThread ? StreamRef::PerThread : StreamRef::Legacy;
    S.Spelling = "0";
    return S;
  }
  S.Spelling = spelling(E, Ctx);
  // A handle the callable assigns (`cur = other;`), read where one
  // assignment reaches: the stream it was given there, unless that is a
  // handle assigned too (its value may have changed since).
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(E));
      D && isStreamType(D->getType()))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && ReboundStreams.count(V))
      if (const Expr *X = reachingValue(V, D)) {
        const auto *XD = dyn_cast_or_null<DeclRefExpr>(strip(X));
        const auto *XV = XD ? dyn_cast<VarDecl>(XD->getDecl()) : nullptr;
        if (!XV || !ReboundStreams.count(XV)) {
          // Named after X: a fix-it waits for the stream the copy ran on,
          // not for whatever the handle holds at the read.
          StreamRef R = streamOf(X);
          if (R.K != StreamRef::Unknown)
            return R;
        }
      }
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
  // A handle a lambda captures, created non-blocking where it is declared.
  if (!S.NonBlocking && Contexts && S.Path.steps().empty())
    S.NonBlocking = Contexts->createdNonBlocking(
        dyn_cast_or_null<VarDecl>(S.Path.rootDecl()), FD);
  S.Fresh = FreshStreams.count(S.Path) != 0;
  S.Rebound = S.Path.steps().empty() &&
              ReboundStreams.count(
                  dyn_cast_or_null<VarDecl>(S.Path.rootDecl())) != 0;
  S.Created = S.Fresh;
  // A handle a lambda captures, created where it is declared and changed
  // nowhere else there (nor here: a mutable lambda's copy).
  if (const auto *V = S.Path.steps().empty() &&
                              S.Path.rootKind() == AccessPath::RootKind::Decl
                          ? dyn_cast_or_null<VarDecl>(S.Path.rootDecl())
                          : nullptr;
      !S.Created && Contexts && V && !MutatedVars.count(V) && !S.Rebound) {
    S.Created = Contexts->createdFresh(V, FD);
    if (S.Created)
      S.Origin = V; // each such local its own stream (distinctCreated)
  }
  // A pool's stream used where it is taken (`pool.get_stream()`).
  if (const auto *C = dyn_cast_or_null<CallExpr>(strip(E)))
    if (const ApiEntry *A = lookup(C); A && A->Role == ApiRole::PoolStream) {
      S.Created = true;
      S.NonBlocking |= A->PoolNonBlocking;
    }
  if (!S.Created)
    applyOrigin(S);
  if (!S.Created)
    S.Supplied = suppliedHandle(S.Path);
  return S;
}

void FunctionFacts::applyOrigin(StreamRef &S) const {
  if (!Origins)
    return;
  // `CudaStream compute, io;`: a local object of a stream class of the
  // project's (`compute`, `compute.get()`, `compute.s_`) built here by a
  // constructor other than a copy or move, which gives it no stream of
  // another object: each such object holds its own stream, what the class's
  // member holds.
  const auto *Own = S.Path.rootKind() == AccessPath::RootKind::Decl
                        ? dyn_cast_or_null<VarDecl>(S.Path.rootDecl())
                        : nullptr;
  bool Wrapper = Own && S.Path.steps().empty() &&
                 isStreamWrapper(Own->getType()->getAsCXXRecordDecl());
  if (!Own || !(Wrapper || (S.Path.steps().size() == 1 &&
                            S.Path.steps()[0].K == PathStep::Dot)) ||
      !ownStreamObject(Own))
    Own = nullptr;
  const ValueDecl *D = Wrapper && Own ? Own : memberOrGlobal(S.Path);
  const ValueDecl *Identity = D;
  StreamOrigin O =
      D ? Origins->originOf(D, Wrapper && Own ? nullptr : &Identity)
        : StreamOrigin::Unknown;
  if (O == StreamOrigin::Unknown)
    return;
  S.Created = true;
  S.Origin = Identity;
  // A member that is a copy of another's stream (Identity) holds that one,
  // whichever object it belongs to.
  S.OwnObject = Own != nullptr && Identity == D;
  S.NonBlocking |= O == StreamOrigin::CreatedNonBlocking;
}

std::optional<StreamRef> FunctionFacts::heldByHandle(const Expr *Handle) const {
  if (!Origins || !Handle)
    return std::nullopt;
  AccessPath H = handleOf(Handle);
  const ValueDecl *D = memberOrGlobal(H);
  if (!D || !isLibraryHandleType(D->getType()))
    return std::nullopt;
  bool SameObject = false;
  const ValueDecl *Stream = Origins->handleStream(D, &SameObject);
  // `a.solver_` given `a.stream_` by its class: that member of the same
  // object, a stream the check names as it names `a.stream_` itself.
  llvm::ArrayRef<PathStep> Steps = H.steps();
  if (SameObject && !Steps.empty() &&
      (Steps.back().K == PathStep::Dot || Steps.back().K == PathStep::Arrow) &&
      isa<FieldDecl>(Stream)) {
    std::string Base;
    if (const auto *M = dyn_cast<MemberExpr>(strip(Handle)))
      if (!isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
        Base = spelling(M->getBase(), Ctx) + (M->isArrow() ? "->" : ".");
    StreamRef S;
    S.K = StreamRef::Named;
    S.Path = H.withoutLastStep().withMember(
        Stream, Steps.back().K == PathStep::Arrow);
    S.Spelling = Base + Stream->getNameAsString();
    applyOrigin(S);
    if (!S.Created)
      return std::nullopt;
    return S;
  }
  const ValueDecl *Identity = Stream;
  StreamOrigin O = Stream ? Origins->originOf(Stream, &Identity)
                          : StreamOrigin::Unknown;
  if (O == StreamOrigin::Unknown)
    return std::nullopt;
  StreamRef S;
  S.K = StreamRef::Named;
  S.Path = H;
  S.Spelling = Stream->getQualifiedNameAsString();
  S.Created = true;
  S.ViaHandle = true;
  S.Origin = Identity;
  S.NonBlocking = O == StreamOrigin::CreatedNonBlocking;
  return S;
}

bool FunctionFacts::ownStreamObject(const VarDecl *V) const {
  const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
  if (!RD || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getType()->isReferenceType() ||
      V->getParentFunctionOrMethod() != FD || MutatedVars.count(V) ||
      AddressTaken.count(V))
    return false;
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(
      V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr);
  if (!Init || Init->getConstructor()->isCopyOrMoveConstructor())
    return false;
  auto OfClass = [&](const Expr *A) {
    const CXXRecordDecl *AR =
        A->getType().getNonReferenceType()->getAsCXXRecordDecl();
    return AR && AR->getCanonicalDecl() == RD->getCanonicalDecl();
  };
  if (llvm::any_of(Init->arguments(), OfClass))
    return false;
  // Used only through its members and member functions, none of which is
  // handed another object of its class (`a.adopt(b)` may share b's stream).
  auto Parent = [&](const Stmt *S) {
    const Stmt *P = PM.getParent(S);
    while (P && isa<ParenExpr, ImplicitCastExpr>(P))
      P = PM.getParent(P);
    return P;
  };
  for (const DeclRefExpr *R : refsOf(V)) {
    const auto *M = dyn_cast_or_null<MemberExpr>(Parent(R));
    if (!M)
      return false;
    const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Parent(M));
    if (Call && llvm::any_of(Call->arguments(), OfClass))
      return false;
  }
  return true;
}

bool FunctionFacts::handleWrittenHere(const AccessPath &P) const {
  // Indexed on first use: asked once per stream expression.
  if (!WrittenHandles) {
    WrittenHandles.emplace();
    for (const Assignment &A : Assigns)
      if (A.Lhs && isStreamOrWrapper(A.Lhs->getType()))
        WrittenHandles->insert(AccessPath::of(A.Lhs));
    for (const CallExpr *C : Calls)
      if (const ApiEntry *E = lookup(C); E && E->Role == ApiRole::StreamCreate)
        if (const Expr *T = allocTarget(C, *E))
          WrittenHandles->insert(AccessPath::of(T));
  }
  return WrittenHandles->count(P) != 0;
}

bool FunctionFacts::suppliedHandle(const AccessPath &P) const {
  if (P.rootKind() == AccessPath::RootKind::Call)
    return true; // `get_cuda_stream(res)`: whatever the call returns
  if (P.rootKind() == AccessPath::RootKind::This)
    return !P.steps().empty() && !handleWrittenHere(P);
  const auto *V = dyn_cast_or_null<VarDecl>(P.rootDecl());
  if (P.rootKind() != AccessPath::RootKind::Decl || !V ||
      CapturedByRef.count(V) || handleWrittenHere(P))
    return false;
  if (isa<ParmVarDecl>(V) || !V->hasLocalStorage())
    return P.steps().empty() ? !MutatedVars.count(V) : true;
  // A local given a handle once, where handleValue does not follow it: a
  // call's result (`auto s = get_cuda_stream(res)`), or an out-parameter
  // of one call (`hipStream_t s; rocblas_get_stream(h, &s);`).
  if (!P.steps().empty() || V->getType()->isReferenceType() ||
      V->getParentFunctionOrMethod() != FD)
    return false;
  if (V->getInit())
    return !MutatedVars.count(V) && !AddressTaken.count(V);
  return outParamCall(V) != nullptr;
}

const CallExpr *FunctionFacts::outParamCall(const VarDecl *V) const {
  const CallExpr *Out = nullptr;
  for (const DeclRefExpr *D : refsOf(V)) {
    const Stmt *Up = PM.getParentIgnoreParens(D);
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up);
        C && C->getCastKind() == CK_LValueToRValue)
      continue;
    const auto *U = dyn_cast_or_null<UnaryOperator>(Up);
    if (!U || U->getOpcode() != UO_AddrOf)
      return nullptr;
    const Stmt *Arg = U;
    while (isa_and_nonnull<ImplicitCastExpr, CStyleCastExpr, ParenExpr,
                           CXXReinterpretCastExpr>(PM.getParent(Arg)))
      Arg = PM.getParent(Arg);
    const auto *C = dyn_cast_or_null<CallExpr>(PM.getParent(Arg));
    if (!C || Out)
      return nullptr;
    Out = C;
  }
  return Out;
}

std::optional<std::pair<const ParmVarDecl *, const FunctionDecl *>>
FunctionFacts::handleParamStream(const StreamRef &S) const {
  const auto *V =
      S.K == StreamRef::Named && S.Supplied && S.Path.steps().empty()
          ? dyn_cast_or_null<VarDecl>(S.Path.rootDecl())
          : nullptr;
  const CallExpr *Get = V && !isa<ParmVarDecl>(V) ? outParamCall(V) : nullptr;
  if (!Get || !isHandleStreamGetter(Get->getDirectCallee()))
    return std::nullopt;
  const auto *H = dyn_cast_or_null<ParmVarDecl>(namedDecl(Get->getArg(0)));
  if (!H || MutatedVars.count(H) || AddressTaken.count(H))
    return std::nullopt;
  for (const CallExpr *K : Calls)
    if (isHandleStreamSetter(K->getDirectCallee()) && K->getNumArgs() == 2 &&
        namedDecl(K->getArg(0)) == H)
      return std::nullopt; // given a stream here
  return std::make_pair(H, Get->getDirectCallee());
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
    if (!Init) {
      std::optional<AccessPath> Source = copiedMember(Value);
      if (!Source)
        break;
      Value = std::move(*Source);
      continue;
    }
    // A call returning its argument (`cudaEvent_t e2 = recordAfter(.., e)`).
    if (const Expr *Arg = returnedArgument(Init))
      Init = Arg;
    AccessPath Next = AccessPath::of(Init);
    if (Next.rootKind() != AccessPath::RootKind::Decl &&
        Next.rootKind() != AccessPath::RootKind::This) {
      // An event a call returns (`cudaEvent_t ev = lookup(key);`) may be
      // any event, the caller's own included: the call's path, which no
      // other is claimed to differ from. (A stream stays its local's: the
      // local is StreamRef::Supplied, and two streams from a factory or a
      // pool are two streams.)
      const auto *V = dyn_cast_or_null<VarDecl>(Value.rootDecl());
      QualType T = V ? V->getType() : QualType();
      QualType Held = V && isStdOptional(T) ? optionalValueType(T) : T;
      if (Next.rootKind() == AccessPath::RootKind::Call && V &&
          Value.steps().empty() && !Held.isNull() && isEventType(Held))
        Value = std::move(Next);
      break; // else a call's result, a literal: not followed
    }
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
  if (Steps.empty()) {
    const Expr *Init = strip(V->getInit());
    // A pool's stream held in a local is that local's (FreshStreams): two
    // calls of the pool may return different streams.
    if (const auto *C = dyn_cast_or_null<CallExpr>(Init))
      if (const ApiEntry *A = lookup(C); A && A->Role == ApiRole::PoolStream)
        return nullptr;
    // A std::optional of a handle (`auto ev = fetch(..)`): the value it is
    // constructed from.
    if (isStdOptional(V->getType())) {
      if (const auto *K = dyn_cast_or_null<CXXConstructExpr>(Init);
          K && K->getNumArgs() == 1 && !K->getArg(0)->getType()->isRecordType())
        return strip(K->getArg(0));
      return Init;
    }
    return !V->getType()->isRecordType() ||
                   isStreamWrapper(V->getType()->getAsCXXRecordDecl())
               ? Init
               : nullptr;
  }
  const auto *Field = Steps.size() == 1 && Steps[0].K == PathStep::Dot
                          ? dyn_cast_or_null<FieldDecl>(Steps[0].Member)
                          : nullptr;
  if (!Field || Field->getType()->isReferenceType() ||
      memberChanged(V, Field))
    return nullptr;
  const Expr *Init = V->getInit()->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Init))
    Init = Cast->getSubExpr()->IgnoreImplicit(); // auto g = Guard(s);
  // `Pending p = download(h, s);` returning `Pending{h, s}`: p.s is s.
  if (isa<CallExpr>(strip(Init)))
    if (const Expr *Arg = returnedField(Init, Field))
      return strip(Arg);
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

std::optional<AccessPath>
FunctionFacts::copiedMember(const AccessPath &P) const {
  const auto *V = dyn_cast_or_null<VarDecl>(P.rootDecl());
  llvm::ArrayRef<PathStep> Steps = P.steps();
  if (P.rootKind() != AccessPath::RootKind::Decl || !V ||
      !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->isInitCapture() ||
      V->getType()->isReferenceType() || V->getParentFunctionOrMethod() != FD ||
      !V->getInit() || MutatedVars.count(V) || AddressTaken.count(V) ||
      Steps.size() != 1 || Steps[0].K != PathStep::Dot)
    return std::nullopt;
  const auto *Field = dyn_cast_or_null<FieldDecl>(Steps[0].Member);
  if (!Field || Field->getType()->isReferenceType() || memberChanged(V, Field))
    return std::nullopt;
  const auto *C = dyn_cast<CXXConstructExpr>(V->getInit()->IgnoreImplicit());
  const CXXConstructorDecl *Ctor = C ? C->getConstructor() : nullptr;
  if (!Ctor || !Ctor->isCopyOrMoveConstructor() || C->getNumArgs() != 1 ||
      !(Ctor->isTrivial() || Ctor->isDefaulted()))
    return std::nullopt;
  // The source object: a variable, a member, `*p` (then `p->s`).
  const Expr *Source = strip(C->getArg(0));
  bool Arrow = false;
  if (const auto *U = dyn_cast<UnaryOperator>(Source);
      U && U->getOpcode() == UO_Deref) {
    Source = U->getSubExpr();
    Arrow = true;
  }
  AccessPath From = AccessPath::of(Source);
  if (From.rootKind() != AccessPath::RootKind::Decl &&
      From.rootKind() != AccessPath::RootKind::This)
    return std::nullopt;
  return From.withMember(Field, Arrow);
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

/// The variable or member whose address is E (`&g`, `&this->exec_`);
/// empty for anything else.
static AccessPath addressed(const Expr *E) {
  const Expr *Object = addressedObject(E);
  if (!Object)
    return AccessPath();
  AccessPath P = AccessPath::of(Object);
  return P.rootKind() == AccessPath::RootKind::Decl ||
                 P.rootKind() == AccessPath::RootKind::This
             ? P
             : AccessPath();
}

bool FunctionFacts::launchesCapture(const CallExpr *Launch, const Expr *At,
                                    const StreamRef &S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  };
  const ApiEntry *LE = lookup(Launch);
  if (!LE || LE->GraphArg == NoArg || S.K != StreamRef::Named)
    return false;
  // The end of At's capture: the first end of S after At.
  const CallExpr *End = nullptr;
  for (const CallExpr *C : CaptureCalls) {
    const ApiEntry *E = lookup(C);
    if (E->Role == ApiRole::CaptureEnd && Before(At, C) &&
        handleOf(strip(arg(C, E->StreamArg))) == S.Path &&
        (!End || Before(C, End)))
      End = C;
  }
  if (!End || !Before(End, Launch))
    return false;
  AccessPath Graph = addressed(arg(End, lookup(End)->GraphArg));
  if (Graph.empty())
    return false;
  // The graph is not captured into again before the launch.
  for (const CallExpr *C : CaptureCalls)
    if (C != End && lookup(C)->Role == ApiRole::CaptureEnd &&
        Before(End, C) && Before(C, Launch) &&
        addressed(arg(C, lookup(C)->GraphArg)) == Graph)
      return false;
  AccessPath Exec = AccessPath::of(strip(arg(Launch, LE->GraphArg)));
  if (Exec.empty())
    return false;
  const CallExpr *Inst = nullptr; // the last instantiation of Exec
  for (const CallExpr *C : GraphCalls) {
    const ApiEntry *E = lookup(C);
    if (E->Role == ApiRole::EventRecord) {
      // An event recorded on S during the capture is a node of the graph.
      if (Before(At, C) && Before(C, End) &&
          handleOf(strip(arg(C, E->StreamArg))) == S.Path)
        return false;
      continue;
    }
    if (Before(C, Launch) && addressed(arg(C, E->PtrArg)) == Exec &&
        (!Inst || Before(Inst, C)))
      Inst = C;
  }
  return Inst && Before(End, Inst) &&
         AccessPath::of(strip(arg(Inst, lookup(Inst)->GraphArg))) == Graph;
}

} // namespace clang::tidy::cuda
