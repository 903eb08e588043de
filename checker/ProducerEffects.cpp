//===--- ProducerEffects.cpp - The producer diagnostic's effects --------===//
//
// Produce, Consume, LegacyWork and Barrier effects (Effects.h) of one
// callable: device work that writes a device buffer on a stream (kernels,
// device-side API calls, helpers' work, library algorithms:
// LibraryProducers.h), the copy that reads it, work on the legacy default stream, and calls that may order
// device work in ways not followed (StreamOrdering.h). Also whether a
// kernel's or helper's body only reads through a pointer parameter.
// Members of EffectBuilder (EffectBuilder.h).
//
// May call: what Effects.h may call, and LibraryProducers.
//
//===----------------------------------------------------------------------===//

#include "EffectBuilder.h"
#include "LibraryCode.h"
#include "LibraryProducers.h"
#include "StreamOrdering.h"
#include "TorchModel.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <functional>

namespace clang::tidy::cuda {

namespace {

/// Does the body of Fn use its pointer parameter P only to read what it
/// points to? Every occurrence must be loaded and subscripted, dereferenced
/// or followed to a member, and that element or member read (`p[i]`, `*p`,
/// `p->x`, `p[i].x`, `*(p + i)` as values; bound to a const reference;
/// converted to a pointer to const, tested, compared; cast to another
/// pointer type and read through; chosen by `?:`; passed to a function with
/// a visible body that only reads through that parameter, to a depth of 3).
/// Local pointers initialised or assigned from it (`float *row = p + off`,
/// `auto q = p`, `for (float *it = p; ...)`) and local references bound to
/// an element (`float &r = p[i]`) are followed the same way, and moving the
/// pointer itself (`p += tid`, `++it`) writes nothing, and `&p[i]` is a
/// pointer followed the same way. Any other use -- a store, passing it on
/// as a pointer to non-const otherwise -- may write. (A walk of its own:
/// clang's ExprMutationAnalyzer follows pointees only from LLVM 20.)
bool onlyReadsThrough(const FunctionDecl *Fn, const ParmVarDecl *P,
                      unsigned Depth = 0) {
  struct Uses : RecursiveASTVisitor<Uses> {
    std::map<const VarDecl *, std::vector<const DeclRefExpr *>> Refs;
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        Refs[V].push_back(D);
      return true;
    }
  } U;
  U.TraverseStmt(const_cast<Stmt *>(Fn->getBody()));
  ParentMap PM(const_cast<Stmt *>(Fn->getBody()));
  // Pointer variables whose pointees must only be read, and reference
  // variables bound to such a pointee; each checked once, a few at most.
  std::vector<const VarDecl *> Pointers{P}, References;
  std::set<const VarDecl *> Seen{P};
  bool TooMany = false;
  auto Follow = [&](const VarDecl *V, std::vector<const VarDecl *> &List) {
    if (!V || !V->hasLocalStorage() || V->getDeclContext() != Fn)
      return false;
    if (Seen.insert(V).second) {
      if (Seen.size() > 16)
        TooMany = true;
      List.push_back(V);
    }
    return true;
  };
  auto IsLoad = [](const Stmt *S) {
    const auto *C = dyn_cast_or_null<ImplicitCastExpr>(S);
    return C && C->getCastKind() == CK_LValueToRValue;
  };
  auto Parent = [&](const Stmt *S) {
    const Stmt *Up = PM.getParent(S);
    while (isa_and_nonnull<ParenExpr, ExprWithCleanups>(Up))
      Up = PM.getParent(Up);
    return Up;
  };
  // The variable a declaration statement initialises with E, if any.
  auto InitialisedBy = [&](const Expr *E) -> const VarDecl * {
    const auto *DS = dyn_cast_or_null<DeclStmt>(Parent(E));
    if (!DS)
      return nullptr;
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D);
          V && V->getInit() && V->getInit()->IgnoreParenImpCasts() ==
                                   E->IgnoreParenImpCasts())
        return V;
    return nullptr;
  };
  auto ConstPointee = [](QualType T) {
    return T->isPointerType() && T->getPointeeType().isConstQualified();
  };
  std::function<bool(const Expr *)> ReadOnlyLValue, ReadOnlyPointer;
  // An lvalue reached through the pointer, used only as a value.
  ReadOnlyLValue = [&](const Expr *L) -> bool {
    const Stmt *Up = Parent(L);
    if (IsLoad(Up))
      return true;
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up);
        C && C->getCastKind() == CK_NoOp)
      return C->getType().isConstQualified() || ReadOnlyLValue(C);
    // float4 v = p4[i]: a copy of a struct element.
    if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(Up);
        C && C->getConstructor()->isCopyOrMoveConstructor() &&
        C->getConstructor()->getParamDecl(0)->getType()
            .getNonReferenceType().isConstQualified())
      return true;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Up);
        U && U->getOpcode() == UO_AddrOf)
      return ReadOnlyPointer(U); // *(float4 *)&p[4 * i]
    if (const auto *M = dyn_cast_or_null<MemberExpr>(Up); M && !M->isArrow())
      return ReadOnlyLValue(M); // p[i].x
    if (const VarDecl *V = InitialisedBy(L); V && V->getType()->isReferenceType()) {
      QualType T = V->getType().getNonReferenceType();
      return T.isConstQualified() || Follow(V, References); // float &r = p[i]
    }
    // Bound to a const reference parameter: f(p[i]) of f(const T &).
    if (const auto *Call = dyn_cast_or_null<CallExpr>(Up))
      if (const FunctionDecl *F = Call->getDirectCallee();
          F && !isa<CXXOperatorCallExpr>(Call))
        for (unsigned N = 0; N < Call->getNumArgs() && N < F->getNumParams(); ++N)
          if (Call->getArg(N) == L) {
            QualType T = F->getParamDecl(N)->getType();
            return T->isReferenceType() &&
                   T.getNonReferenceType().isConstQualified();
          }
    return false;
  };
  // A pointer value derived from the parameter, used only to read.
  ReadOnlyPointer = [&](const Expr *Ptr) -> bool {
    const Stmt *Up = Parent(Ptr);
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up)) {
      if (C->getCastKind() == CK_PointerToBoolean)
        return true; // if (p)
      if (ConstPointee(C->getType()))
        return true;
      if (C->getType()->isPointerType() &&
          (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_BitCast))
        return ReadOnlyPointer(C); // to void *, and on
      return false;
    }
    if (const auto *C = dyn_cast_or_null<ExplicitCastExpr>(Up);
        C && C->getType()->isPointerType())
      return ConstPointee(C->getType()) || ReadOnlyPointer(C); // (float4 *)p
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up)) {
      if (B->isComparisonOp())
        return true;
      if (B->isAdditiveOp() && B->getType()->isPointerType())
        return ReadOnlyPointer(B); // *(p + i)
      if (B->getOpcode() == BO_Assign && B->getRHS()->IgnoreParenImpCasts() ==
                                             Ptr->IgnoreParenImpCasts()) {
        const auto *L = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
        return L && Follow(dyn_cast<VarDecl>(L->getDecl()), Pointers); // q = p
      }
      return false;
    }
    if (const VarDecl *V = InitialisedBy(Ptr))
      return V->getType()->isPointerType() &&
             (ConstPointee(V->getType()) || Follow(V, Pointers)); // auto q = p
    if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(Up);
        A && A->getBase()->IgnoreParenImpCasts() == Ptr->IgnoreParenImpCasts())
      return ReadOnlyLValue(A);
    if (const auto *Un = dyn_cast_or_null<UnaryOperator>(Up);
        Un && Un->getOpcode() == UO_Deref)
      return ReadOnlyLValue(Un);
    if (const auto *M = dyn_cast_or_null<MemberExpr>(Up); M && M->isArrow())
      return ReadOnlyLValue(M);
    if (const auto *C = dyn_cast_or_null<ConditionalOperator>(Up);
        C && C->getCond() != Ptr)
      return ReadOnlyPointer(C); // (f ? a : b)[i]
    // load(p, i) of a __device__ function that only reads through it.
    const auto *Call = dyn_cast_or_null<CallExpr>(Up);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    const FunctionDecl *Def = nullptr;
    if (!Callee || Depth >= 3 || !Callee->hasBody(Def) || !Def ||
        Def->isVariadic() || isa<CXXOperatorCallExpr>(Call))
      return false;
    for (unsigned N = 0; N < Call->getNumArgs() && N < Def->getNumParams(); ++N)
      if (Call->getArg(N) == Ptr &&
          !onlyReadsThrough(Def, Def->getParamDecl(N), Depth + 1))
        return false;
    return llvm::is_contained(Call->arguments(), Ptr) && Call->getCallee() != Ptr;
  };
  // The pointer variable itself moved: `p += tid`, `++it`, `p = p + 1`.
  auto MovesThePointer = [&](const DeclRefExpr *D) {
    const Stmt *Up = Parent(D);
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Up))
      return U->isIncrementDecrementOp();
    if (const auto *A = dyn_cast_or_null<CompoundAssignOperator>(Up))
      return A->getLHS()->IgnoreParens() == D &&
             (A->getOpcode() == BO_AddAssign || A->getOpcode() == BO_SubAssign);
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up))
      return B->getOpcode() == BO_Assign && B->getLHS()->IgnoreParens() == D;
    return false;
  };
  for (size_t K = 0; K < Pointers.size() || K < References.size(); ++K) {
    if (TooMany)
      return false;
    if (K < Pointers.size())
      for (const DeclRefExpr *D : U.Refs[Pointers[K]]) {
        const Expr *X = D; // (f ? a : b): an lvalue choosing the pointer
        while (const auto *C = dyn_cast_or_null<ConditionalOperator>(Parent(X)))
          if (C->getCond() != X && C->isGLValue())
            X = C;
          else
            break;
        const Stmt *Load = Parent(X);
        if (X == D && MovesThePointer(D))
          continue;
        if (!IsLoad(Load) || !ReadOnlyPointer(cast<Expr>(Load)))
          return false;
      }
    if (K < References.size())
      for (const DeclRefExpr *D : U.Refs[References[K]])
        if (!ReadOnlyLValue(D))
          return false;
  }
  return !TooMany;
}

} // namespace

void EffectBuilder::addProducer(const Stmt *At, const Expr *Buf,
                                const StreamRef &S, bool OnCurrent,
                                bool IfDevice) {
  const Expr *Root = Buf ? bufferRoot(Buf) : nullptr;
  if (!Root || S.K == StreamRef::Unknown)
    return;
  Provenance P = F.provenanceOf(Root);
  if (P == Provenance::Pinned || P == Provenance::Pageable)
    return; // host memory: not the source of a device-to-host copy
  if (std::string Whole = regionKey(Root, Root); !Whole.empty())
    Out.ProducerStreams[Whole].insert(S.identity());
  Effect Ev(Effect::Produce);
  Ev.Anchor = At;
  Ev.Buffer = regionKey(Buf, Root);
  if (Ev.Buffer.empty())
    return;
  Ev.Name = Root;
  Ev.OnStream = &Out.Streams.emplace_back(S);
  Ev.OnCurrent = OnCurrent;
  Ev.IfDevice = IfDevice;
  if (const auto *D = dyn_cast<DeclRefExpr>(strip(Root)))
    Ev.Var = dyn_cast<VarDecl>(D->getDecl());
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::addNamedBufferWork(Effect::Kind K, const CallExpr *C,
                                       AccessPath Path, std::string Name,
                                       const StreamRef &S, bool Blocking) {
  if (S.K == StreamRef::Unknown || !namedAtCall(F, Path, Name, C))
    return;
  Provenance P = F.Aliases.provenance(Path);
  if (P == Provenance::Pinned || P == Provenance::Pageable)
    return; // host memory: not the source of a device-to-host copy
  Effect Ev(K);
  Ev.Anchor = C;
  Ev.Buffer = wholeRegionKey(F.Aliases, Path, Name);
  if (K == Effect::Produce)
    Out.ProducerStreams[Ev.Buffer].insert(S.identity());
  Ev.Spelled = &Out.Spellings.emplace_back(std::move(Name));
  Ev.OnStream = &Out.Streams.emplace_back(S);
  Ev.BlockingCopy = Blocking;
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::addHelperProducers(const CallExpr *C,
                                       const HelperSummary &S) {
  using Production = HelperSummary::Production;
  for (const Production &P : S.Produces) {
    const Expr *StreamArg =
        P.On == Production::OnStreamParam
            ? paramArg(C, static_cast<int>(P.StreamParam))
            : nullptr;
    if (P.On == Production::OnStreamParam && !StreamArg)
      continue; // a defaulted stream argument: not followed
    std::optional<StreamRef> On =
        P.On == Production::OnNamedStream ? namedStreamAtCall(F, P.Stream, C)
        : P.On == Production::OnHandleStream ? heldStreamAtCall(C, P)
        : P.On == Production::CurrentStream
            ? std::optional(F.currentStreamAt(C->getBeginLoc()))
            : std::optional(F.streamOf(StreamArg)); // or the legacy stream
    if (!On)
      continue;
    if (P.NamedBuffer) {
      if (!P.Torch && !P.IfDevice)
        addNamedBufferWork(Effect::Produce, C, *P.NamedBuffer,
                           P.NamedBufferName, *On, /*Blocking=*/false);
      continue;
    }
    const Expr *A = paramArg(C, static_cast<int>(P.BufferParam));
    const Expr *Root = A ? bufferRoot(A) : nullptr;
    if (!Root || ((P.Torch || P.IfDevice) &&
                  F.provenanceOf(Root) != Provenance::Device))
      continue;
    // A data accessor's call as written (`x_.data()` returning `data_`:
    // that member, EffectBuilder::regionKey); anything else as its root, the
    // whole buffer the helper may write.
    addProducer(C, isa<CXXMemberCallExpr>(strip(A)) ? A : Root, *On, P.Torch);
  }
  // A lambda's device work on what it captures: the caller's variables.
  for (const HelperSummary::CapturedProduction &P : S.CapturedProduces)
    addProducer(C, refTo(P.Buffer),
                P.StreamVar ? F.streamOf(refTo(P.StreamVar)) : P.Stream);
}

std::string regionKeyOf(AliasClasses &Aliases, const AccessPath &Root,
                        llvm::StringRef Spelling) {
  return Aliases.classKey(Root) + "@" + Spelling.str();
}

std::string wholeRegionKey(AliasClasses &Aliases, const AccessPath &Root,
                           llvm::StringRef Spelling) {
  return Root.steps().empty() && Root.rootKind() == AccessPath::RootKind::Decl
             ? regionKeyOf(Aliases, Root, Spelling)
             : regionKeyOf(Aliases, Root, "=" + Root.key());
}

void EffectBuilder::addHelperConsumers(const CallExpr *C,
                                       const HelperSummary &S) {
  for (const HelperSummary::Consumption &Co : S.Consumes) {
    if (Co.CapturedBuffer)
      continue; // a lambda's: below
    const Expr *SA =
        Co.OnStreamParam ? paramArg(C, static_cast<int>(Co.StreamParam))
                         : nullptr;
    if (Co.OnStreamParam && (!SA || isa<CXXDefaultArgExpr>(SA)))
      continue; // a defaulted stream argument: not followed
    std::optional<StreamRef> On =
        Co.NamedStream.K == StreamRef::Named
            ? namedStreamAtCall(F, Co.NamedStream, C)
            : std::optional(F.streamOf(SA)); // or the legacy stream
    if (!On)
      continue;
    if (Co.NamedBuffer) {
      addNamedBufferWork(Effect::Consume, C, *Co.NamedBuffer,
                         Co.NamedBufferName, *On, Co.Blocking);
      continue;
    }
    if (const Expr *A = paramArg(C, static_cast<int>(Co.BufferParam)))
      addConsumer(C, A, *On, Co.Blocking);
  }
  // A lambda's copies of what it captures: the caller's variables.
  for (const HelperSummary::Consumption &Co : S.Consumes)
    if (Co.CapturedBuffer)
      addConsumer(C, refTo(Co.CapturedBuffer),
                  F.streamOf(Co.CapturedStream ? refTo(Co.CapturedStream)
                                               : nullptr),
                  Co.Blocking);
}

void EffectBuilder::addLibraryProducers(const CallExpr *C,
                                        const FunctionDecl *Callee) {
  if (std::optional<ThrustCall> T = thrustCall(C, Callee)) {
    addThrustCall(C, *T);
    return;
  }
  if (std::optional<HandleRoutine> H = handleRoutine(C, Callee)) {
    std::optional<StreamRef> S = handleStreamAt(C, C->getArg(0));
    if (!S || F.capturing(C, *S)) {
      addBarrier(C); // on a stream the check cannot name
      return;
    }
    addStreamWork(C, *S);
    for (unsigned I : H->Outputs)
      addProducer(C, C->getArg(I), *S);
    for (unsigned I : H->Descriptors)
      if (const Expr *Values = descriptorValues(C->getArg(I)))
        addProducer(C, Values, *S);
    return;
  }
  std::optional<LibraryProduction> P = libraryProduction(C, Callee, Ctx);
  if (!P)
    return;
  StreamRef S = F.streamOf(C->getArg(P->StreamArg));
  if (F.capturing(C, S))
    return;
  addStreamWork(C, S);
  for (unsigned I : P->Outputs)
    addProducer(C, C->getArg(I), S);
}

/// The buffer a dense descriptor of the sparse libraries' generic API
/// stands for (`vecY` of `cusparseSpMV`): the values that every binding of
/// it in this callable gives (`cusparseCreateDnVec(&vecY, n, y, type)`,
/// `cusparseDnVecSetValues(vecY, y)`), when there is at least one and they
/// all name one buffer; else null (a descriptor made elsewhere, or rebound
/// to other values).
const Expr *EffectBuilder::descriptorValues(const Expr *Descriptor) {
  AccessPath D = AccessPath::of(Descriptor);
  if (D.empty())
    return nullptr;
  const Expr *Values = nullptr;
  for (const CallExpr *K : F.Calls) {
    std::optional<DescriptorBinding> B =
        descriptorBinding(K, K->getDirectCallee());
    PathRelation Rel = B ? relate(AccessPath::of(B->Descriptor), D)
                         : PathRelation::Distinct;
    if (Rel == PathRelation::Distinct)
      continue;
    if (Rel != PathRelation::Same ||
        (Values && AccessPath::of(Values) != AccessPath::of(B->Values)))
      return nullptr;
    Values = B->Values;
  }
  return Values;
}

/// The handles a call K gives a stream, and the streams, as this callable
/// names them: a setter (`cublasSetStream(h, s)`), or a helper whose
/// summary says it sets one (HelperSummary::SetsHandleStreams; nullopt
/// for a stream the call cannot name).
std::vector<std::pair<AccessPath, std::optional<StreamRef>>>
EffectBuilder::handleStreamsGiven(const CallExpr *K) {
  std::vector<std::pair<AccessPath, std::optional<StreamRef>>> Out;
  const FunctionDecl *KC = K->getDirectCallee();
  if (isHandleStreamSetter(KC)) {
    if (K->getNumArgs() == 2)
      Out.push_back({AccessPath::of(K->getArg(0)), F.streamOf(K->getArg(1))});
    return Out;
  }
  const FunctionDecl *Def =
      KC ? summarizable(KC, Ctx.getSourceManager()) : nullptr;
  const HelperSummary *S = Def ? R.summaryOf(KC, bindings(K, KC)) : nullptr;
  for (const HelperSummary::HandleStream &HS :
       S ? S->SetsHandleStreams : std::vector<HelperSummary::HandleStream>()) {
    AccessPath Handle = HS.Handle.Path;
    std::string Name = HS.Handle.Spelling;
    if (HS.HandleParam >= 0) {
      const Expr *A = paramArg(K, HS.HandleParam);
      if (!A)
        continue;
      Handle = AccessPath::of(A);
    } else if (!namedAtCall(F, Handle, Name, K)) {
      continue;
    }
    const Expr *SA = HS.StreamParam >= 0 ? paramArg(K, HS.StreamParam)
                                         : nullptr;
    Out.push_back({Handle, HS.StreamParam >= 0
                               ? (SA ? std::optional(F.streamOf(SA))
                                     : std::nullopt)
                               : namedStreamAtCall(F, HS.Stream, K)});
  }
  return Out;
}

bool EffectBuilder::copiesOfOneObject(const AccessPath &A,
                                      const AccessPath &B) const {
  const auto *VA = dyn_cast_or_null<VarDecl>(A.rootDecl());
  const auto *VB = dyn_cast_or_null<VarDecl>(B.rootDecl());
  if (!VA || !VB || VA == VB || A.steps().empty() || B.steps().empty() ||
      A.steps().back().Member != B.steps().back().Member)
    return false;
  // X initialised from Y (`Ctx b = a;`), or assigned it (`b = a;`).
  auto Named = [](const Expr *E, const VarDecl *V) {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? strip(E) : nullptr);
    return D && D->getDecl() == V;
  };
  auto CopiedFrom = [&](const VarDecl *X, const VarDecl *Y) {
    const Expr *Init = X->getInit() ? strip(X->getInit()) : nullptr;
    if (const auto *K = dyn_cast_or_null<CXXConstructExpr>(Init);
        K && K->getNumArgs() == 1)
      Init = K->getArg(0);
    if (Named(Init, Y))
      return true;
    return llvm::any_of(F.Calls, [&](const CallExpr *C) {
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
      return Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
             Named(Op->getArg(0), X) && Named(Op->getArg(1), Y);
    });
  };
  return CopiedFrom(VA, VB) || CopiedFrom(VB, VA);
}

/// The block a statement of Block runs in as if written there: through
/// the body of a statement macro's `do { ... } while (0)`
/// (`CUSOLVER_CHECK(cusolverDnSetStream(h, s))`), which runs once, when
/// what comes before Child (the statement of Block that holds what is
/// asked) in it cannot leave it (declarations and expressions only).
const Stmt *EffectBuilder::outOfStatementMacros(const Stmt *Block,
                                                const Stmt *&Child) const {
  while (const auto *Body = dyn_cast_or_null<CompoundStmt>(Block)) {
    const auto *Do = dyn_cast_or_null<DoStmt>(F.PM.getParent(Body));
    std::optional<long long> Cond = Do ? evalInt(Do->getCond(), Ctx)
                                       : std::nullopt;
    if (!Do || Do->getBody() != Body || !Cond || *Cond != 0)
      break;
    for (const Stmt *S : Body->body()) {
      if (S == Child)
        break;
      if (!isa<Expr, DeclStmt, NullStmt>(S))
        return Block;
    }
    Child = Do;
    Block = F.PM.getParent(Do);
  }
  return Block;
}

/// The statement of its block that K is part of through expressions,
/// declarations and statement macros (`CHECK(cublasSetStream(h, s));`),
/// and that block; a null block when K sits under an `if` or a loop.
std::pair<const Stmt *, const Stmt *>
EffectBuilder::statementOf(const Stmt *K) const {
  const Stmt *Block = K, *Child = K;
  while (Block && (isa<Expr>(Block) || isa<DeclStmt>(Block))) {
    Child = Block;
    Block = F.PM.getParent(Block);
  }
  Block = outOfStatementMacros(Block, Child);
  return {Child, isa_and_nonnull<CompoundStmt>(Block) ? Block : nullptr};
}

/// The stream a math library's handle holds at call C: the stream of the
/// one stream setter of that handle in this callable (`cublasSetStream(h,
/// s)`, or a helper that sets it: handleStreamsGiven; every setter giving
/// the same stream), when it comes before C in the source and its block
/// holds C; of setters giving several streams, the latest before C in
/// straight-line code; the legacy default stream for a handle this
/// callable creates and never gives a stream; for a member or global
/// handle this callable neither sets nor creates, the stream its setters
/// elsewhere give it (FunctionFacts::heldByHandle). Else nullopt: set in a
/// branch or a loop C is not in, or by the caller.
std::optional<StreamRef>
EffectBuilder::handleStreamAt(const CallExpr *C, const Expr *Handle) {
  AccessPath H = AccessPath::of(Handle);
  bool Several = false; // setters giving different streams
  std::vector<std::pair<const CallExpr *, StreamRef>> Setters;
  const CallExpr *Created = nullptr; // the last creation of the handle
  for (const CallExpr *K : F.Calls) {
    const FunctionDecl *KC = K->getDirectCallee();
    for (const auto &[Given, On] : handleStreamsGiven(K)) {
      PathRelation Rel = relate(Given, H);
      // The same member of an object copied from H's (`Ctx b = a;`, `b =
      // a;`): the copy holds the same handle.
      if (Rel == PathRelation::Distinct && !copiesOfOneObject(Given, H))
        continue;
      if (Rel != PathRelation::Same || !On)
        return std::nullopt;
      Several |= !Setters.empty() && !Setters.back().second.sameStream(*On);
      Setters.push_back({K, *On});
    }
    if (isHandleCreation(KC) && K->getNumArgs() > 0)
      if (const Expr *New = addressedObject(K->getArg(0));
          New && AccessPath::of(New) == H)
        Created = K;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // Given several streams (a phase on another stream, then the first one
  // again): the setter that reaches C in straight-line code, the latest
  // before it; none where a setter in a branch or a loop may come between.
  if (Several) {
    const std::pair<const CallExpr *, StreamRef> *Latest = nullptr;
    auto SetterIn = [&](const Stmt *S) {
      return llvm::any_of(Setters,
                          [&](const auto &P) { return F.within(P.first, S); });
    };
    std::vector<const Stmt *> Statements; // each setter's, as Setters
    for (const auto &P : Setters)
      Statements.push_back(statementOf(P.first).first);
    F.latestBefore(
        C,
        [&](const Stmt *S) {
          for (size_t I = 0; I < Setters.size(); ++I)
            if (Statements[I] == S)
              Latest = &Setters[I]; // the last in S wins
          if (Latest)
            return FunctionFacts::WalkStep::Found;
          return SetterIn(S) ? FunctionFacts::WalkStep::Stop
                             : FunctionFacts::WalkStep::Next;
        },
        SetterIn);
    if (!Latest ||
        (Created && SM.isBeforeInTranslationUnit(
                        SM.getExpansionLoc(Latest->first->getBeginLoc()),
                        SM.getExpansionLoc(Created->getBeginLoc()))))
      return std::nullopt;
    return Latest->second;
  }
  const CallExpr *Set = Setters.empty() ? nullptr : Setters.front().first;
  // Created anew after its stream was set: the new handle's is the NULL
  // stream, whichever the setter gave the old one.
  if (Set && Created &&
      SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Set->getBeginLoc()),
                                   SM.getExpansionLoc(Created->getBeginLoc())))
    return std::nullopt;
  if (Set) {
    // The setter's statement, directly in a block (not under an `if`).
    const Stmt *Block = statementOf(Set).second;
    if (!Block)
      return std::nullopt;
    SourceLocation SetAt = SM.getExpansionLoc(Set->getBeginLoc());
    SourceLocation At = SM.getExpansionLoc(C->getBeginLoc());
    if (!SM.isBeforeInTranslationUnit(SetAt, At) ||
        SM.isBeforeInTranslationUnit(
            SM.getExpansionLoc(Block->getEndLoc()), At))
      return std::nullopt;
    return Setters.front().second; // every setter's
  }
  // A member or global handle given its stream elsewhere (a context's
  // init, another unit): the stream every setter of it gives.
  if (!Created)
    return F.heldByHandle(Handle);
  const auto *V = dyn_cast_or_null<VarDecl>(H.rootDecl());
  // Its address goes to the creation; no other handle is assigned to it.
  if (!H.steps().empty() || !V || !V->hasLocalStorage() ||
      llvm::any_of(F.Assigns, [&](const FunctionFacts::Assignment &A) {
        return A.Lhs && A.Var == V;
      }))
    return std::nullopt;
  StreamRef Null; // the library's NULL stream: the legacy default stream
  Null.K = StreamRef::Legacy;
  Null.Spelling = "0";
  return Null;
}

std::optional<StreamRef>
EffectBuilder::heldStreamAtCall(const CallExpr *C,
                                const HelperSummary::Production &P) {
  const Expr *Handle = paramArg(C, static_cast<int>(P.StreamParam));
  if (!Handle || !P.Getter)
    return std::nullopt;
  if (std::optional<StreamRef> Set = handleStreamAt(C, Handle))
    return Set;
  // A handle the caller is handed, or one it gives a stream the check does
  // not follow: the stream its getter would give there, which the caller
  // may name otherwise (a call's path: told apart from no named stream).
  AccessPath H = AccessPath::of(Handle);
  if (H.rootKind() != AccessPath::RootKind::Decl &&
      H.rootKind() != AccessPath::RootKind::This)
    return std::nullopt;
  StreamRef S;
  S.K = StreamRef::Named;
  S.Supplied = true;
  S.Path = AccessPath::ofCallee(P.Getter, {H});
  S.Spelling = (P.Getter->getName() + "(" + spelling(Handle, Ctx) + ")").str();
  return S;
}

/// A thrust algorithm with a CUDA policy: device work on the policy's
/// stream writing its outputs, then, for a synchronizing policy, a host sync
/// of that stream. A policy held in a local (`auto pol = par.on(s);`) is its
/// initialiser while the local is not changed.
void EffectBuilder::addThrustCall(const CallExpr *C, const ThrustCall &T) {
  const Expr *Policy = T.Policy;
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(Policy)))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && V->hasLocalStorage() && V->getInit() &&
        !V->getType()->isReferenceType() && !F.MutatedVars.count(V) &&
        !F.AddressTaken.count(V))
      Policy = V->getInit();
  bool Default = false;
  const Expr *StreamE = thrustPolicyStream(Policy, &Default);
  if (!StreamE && !Default)
    return; // a policy of unknown stream: an opaque call
  StreamRef S = F.streamOf(StreamE);
  if (F.capturing(C, S))
    return;
  addStreamWork(C, S);
  for (unsigned I : T.Outputs)
    addProducer(C, C->getArg(I), S);
  if (T.Synchronizes)
    addStreamSync(C, S);
}

void EffectBuilder::addStreamSync(const Stmt *At, const StreamRef &S) {
  Effect Ev(Effect::StreamSync);
  Ev.Anchor = At;
  Ev.OnStream = &Out.Streams.emplace_back(S);
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::addConsumer(const Stmt *At, const Expr *Src,
                                const StreamRef &S, bool Blocking) {
  const Expr *Root = Src ? bufferRoot(Src) : nullptr;
  if (!Root || S.K == StreamRef::Unknown)
    return;
  Effect Ev(Effect::Consume);
  Ev.Anchor = At;
  Ev.Buffer = regionKey(Src, Root);
  // A part reached by pointer arithmetic lies within the whole buffer
  // (`d + offset` within `d`); an element of an array of buffers
  // (`bufs[1]`) is a buffer of its own, its root, and stays apart.
  if (strip(Src) != strip(Root))
    Ev.WithinBuffer = regionKey(Root, Root);
  if (Ev.Buffer.empty() && Ev.WithinBuffer.empty())
    return;
  Ev.Name = Root;
  Ev.OnStream = &Out.Streams.emplace_back(S);
  Ev.BlockingCopy = Blocking;
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::addStreamWork(const Stmt *At, const StreamRef &S) {
  if (S.K != StreamRef::Legacy) {
    if (isBlockingStream(S) && !S.Rebound) {
      Effect Ev(Effect::BlockingWork);
      Ev.Anchor = At;
      Ev.OnStream = &Out.Streams.emplace_back(S);
      Out.List.push_back(std::move(Ev));
    }
    return;
  }
  Effect Ev(Effect::LegacyWork);
  Ev.Anchor = At;
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::addBarrier(const Stmt *At) {
  Effect Ev(Effect::Barrier);
  Ev.Anchor = At;
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::collectDeviceWork(const CallExpr *C, const ApiEntry &E) {
  StreamRef S = E.OmittedStreamIsCurrent && !arg(C, E.StreamArg)
                    ? F.currentStreamAt(C->getBeginLoc())
                    : F.streamOf(arg(C, E.StreamArg));
  const Expr *Dst = E.DstArg == NoArg || E.Struct != ParamsStructKind::None
                        ? nullptr
                        : arg(C, E.DstArg);
  switch (E.Role) {
  case ApiRole::AsyncCopy: { // not device-to-host: into device memory?
    if (F.capturing(C, S))
      return;
    addStreamWork(C, S);
    auto Kind = F.copyKind(C, E);
    const Expr *Root = Dst ? bufferRoot(Dst) : nullptr;
    if (Root && Kind &&
        (*Kind == MemcpyHostToDevice || *Kind == MemcpyDeviceToDevice ||
         (*Kind == MemcpyDefault && mayBeDevice(Root))))
      addProducer(C, Dst, S, /*OnCurrent=*/false,
                  /*IfDevice=*/*Kind == MemcpyDefault && deviceAtCall(Root));
    return;
  }
  case ApiRole::StreamOrdered: // cudaMemsetAsync writes its target
    if (F.capturing(C, S))
      return;
    addStreamWork(C, S);
    // A host function runs once the stream's earlier work is done and may
    // tell the host so (a flag, a condition variable): it may order.
    if (E.Miss == MissReason::HostCallback) {
      addBarrier(C);
      return;
    }
    if (Dst)
      addProducer(C, Dst, S);
    return;
  case ApiRole::BlockingMemset: { // on the legacy default stream
    StreamRef Legacy = F.streamOf(nullptr);
    addStreamWork(C, Legacy);
    addProducer(C, Dst, Legacy);
    return;
  }
  case ApiRole::BlockingTransfer: {
    StreamRef Legacy = F.streamOf(nullptr);
    auto Kind = F.copyKind(C, E);
    if (Kind && *Kind == MemcpyDeviceToHost && E.SrcArg != NoArg &&
        E.Struct == ParamsStructKind::None)
      addConsumer(C, arg(C, E.SrcArg), Legacy, /*Blocking=*/true);
    addStreamWork(C, Legacy);
    return;
  }
  case ApiRole::AsyncBatchCopy:
  case ApiRole::EventRecord:
  case ApiRole::NotASync:
  case ApiRole::GraphLaunch: // what the graph writes is not known
    if (E.StreamArg != NoArg || E.Role == ApiRole::EventRecord)
      addStreamWork(C, S);
    return;
  case ApiRole::PinnedAlloc:
  case ApiRole::DeviceAlloc:
    // "Implicit Synchronization" (CUDA C++ Programming Guide) promises that
    // commands of two streams cannot overlap a page-locked host or a device
    // allocation issued between them, but the GPU does not keep it: a
    // kernel on s1 still wrote the buffer that a copy on s2 issued after
    // cudaMalloc (H200), cudaMallocHost or cudaHostRegister (H100) read,
    // 10/10 stale (runtime/cases/malloc_between_streams.cu,
    // malloc_host_between_streams.cu, host_register_between_streams.cu).
    // A stream-ordered one (cudaMallocAsync,
    // "Stream Ordered Memory Allocator") is ordered on its stream only.
    return;
  default:
    return; // synchronizations: the Solver's transfers
  }
}

bool EffectBuilder::collectExtensibleLaunch(const CallExpr *C) {
  const FunctionDecl *Callee = C->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName() != "cudaLaunchKernelEx" || C->getNumArgs() < 2 ||
      !isToolchainCode(Callee, Ctx.getSourceManager()))
    return false;
  const Expr *K = strip(C->getArg(1));
  if (const auto *U = dyn_cast<UnaryOperator>(K);
      U && U->getOpcode() == UO_AddrOf)
    K = strip(U->getSubExpr());
  const auto *D = dyn_cast<DeclRefExpr>(K);
  const auto *Kernel = D ? dyn_cast<FunctionDecl>(D->getDecl()) : nullptr;
  // The stream of the configuration: the last `cfg.stream = s;` before
  // the launch. Elsewhere (an initialiser list, a pointer handed in) it is
  // not known, and the launch stays an API the model does not know.
  const Expr *Stream = F.paramsField(C->getArg(0), C, "stream");
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>() || !Stream)
    return false;
  StreamRef S = F.streamOf(Stream);
  if (F.capturing(C, S))
    return true; // recorded into a graph, not run now
  addStreamWork(C, S);
  for (unsigned I = 2; I < C->getNumArgs(); ++I)
    if (kernelMayWrite(Kernel, I - 2))
      addProducer(C, C->getArg(I), S);
  return true;
}

bool EffectBuilder::kernelMayWrite(const CUDAKernelCallExpr *K,
                                   unsigned I) {
  return kernelMayWrite(K->getDirectCallee(), I);
}

bool EffectBuilder::kernelMayWrite(const FunctionDecl *Kernel, unsigned I) {
  if (!Kernel || I >= Kernel->getNumParams())
    return false; // unknown: no claim
  QualType T = Kernel->getParamDecl(I)->getType();
  if (!T->isPointerType() || T->getPointeeType().isConstQualified())
    return false;
  const FunctionDecl *Def = nullptr;
  if (!Kernel->hasBody(Def) || !Def || !Def->getBody())
    return true; // a pointer to non-const may be written
  const ParmVarDecl *P = Def->getParamDecl(I);
  auto [It, New] = KernelReadsOnly.try_emplace(P, false);
  if (New)
    It->second = onlyReadsThrough(Def, P);
  return !It->second;
}

bool EffectBuilder::addHelperOrdering(const CallExpr *C,
                                      const FunctionDecl *Def,
                                      const HelperSummary *S) {
  if (!Def)
    return true;
  StreamOrderingFacts Facts =
      orderingFactsOf(Def, F.Model, Ctx, R.options().MaxHelperDepth,
                      R.Owner.orderingCache());
  if (Facts.Orders)
    return true;
  // Its records and waits: applied at the call as its summary carries them
  // (Solver::recordEvent / waitEvent, producers included), where it carries
  // each on every path; any other may order anything.
  for (const CallExpr *E : Facts.EventCalls)
    if (!S || S->TooCostly ||
        (llvm::none_of(S->RecordsEvents,
                       [&](const HelperSummary::EventRecord &R) {
                         return R.Site == E && !R.SomePaths;
                       }) &&
         llvm::none_of(S->WaitsEvents, [&](const HelperSummary::EventWait &W) {
           return W.Site == E;
         })))
      return true;
  // Work on a stream parameter whose argument names a known stream is
  // stream-ordered work there, nothing more: on the legacy default stream
  // it joins blocking streams (LegacyWork), on a blocking stream it joins
  // the legacy stream's earlier work (BlockingWork). A handed stream may be
  // stream 0 or any other: the call may order anything.
  llvm::SmallVector<StreamRef, 2> Work;
  for (unsigned P : Facts.WorkOnStreamParams) {
    const Expr *A = paramArg(C, static_cast<int>(P));
    StreamRef S = F.streamOf(A);
    bool Known = S.K == StreamRef::Legacy || S.K == StreamRef::PerThread ||
                 (S.K == StreamRef::Named && (S.Fresh || S.Created) &&
                  !S.Rebound);
    if (!A || !Known)
      return true;
    Work.push_back(S);
  }
  for (const StreamRef &S : Work)
    addStreamWork(C, S);
  return false;
}

} // namespace clang::tidy::cuda
