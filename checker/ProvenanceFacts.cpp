//===--- ProvenanceFacts.cpp - Where a callable's buffers live ----------===//
//
// FunctionFacts' provenance and aliases: pinned / device / pageable from
// declarations, allocations, assignments and libtorch tensor origins; the
// streams created fresh or non-blocking; what a callable returns and the
// argument a helper returns.
//
//===----------------------------------------------------------------------===//

#include "FunctionFacts.h"
#include "ExprUtils.h"
#include "LibraryCode.h"
#include "TorchModel.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>

namespace clang::tidy::cuda {

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
  return contextProvenance(V);
}

/// What V's declaration says, or else what the callers of the function
/// declaring it give it (CallerContexts), unless this callable changes it.
Provenance FunctionFacts::contextProvenance(const VarDecl *V) {
  Provenance P = varProvenance(V);
  if (P == Provenance::Unknown && Contexts && !MutatedVars.count(V))
    P = Contexts->provenanceOf(V, FD);
  return P;
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

/// The pointer through which an element lvalue is reached: `h` of
/// `h[2]`, `*h`, `*(h + 2)`, `h->x` and `h[i].x`; null for anything else
/// (a variable, a container's element).
static const Expr *elementPointer(const Expr *E) {
  E = strip(E);
  while (const auto *M = dyn_cast_or_null<MemberExpr>(E)) {
    if (M->isArrow())
      return M->getBase();
    E = strip(M->getBase());
  }
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E))
    return A->getBase()->getType()->isPointerType() ? A->getBase() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return U->getSubExpr();
  return nullptr;
}

Provenance FunctionFacts::provenanceOf(const Expr *Root) {
  Provenance P = Aliases.provenance(AccessPath::of(Root));
  return std::max(P, declProvenance(Root));
}

Provenance FunctionFacts::provenanceOfVar(const VarDecl *V) {
  Provenance P = Aliases.provenance(AccessPath::ofVar(V));
  return std::max(P, contextProvenance(V));
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
  return addressedObject(A);
}

/// Is every use of P in Body a read of its value, or the argument that a
/// std::optional is constructed from (`return e;` into
/// std::optional<cudaEvent_t>, whose converting constructor takes `U&&`,
/// which ExprMutationAnalyzer would count as a change)?
static bool onlyRead(const ParmVarDecl *P, const Stmt *Body) {
  ParentMap PM(const_cast<Stmt *>(Body));
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const auto *D = dyn_cast<DeclRefExpr>(S);
    if (!D || D->getDecl() != P)
      continue;
    const Stmt *Up = PM.getParentIgnoreParens(D);
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up);
        C && C->getCastKind() == CK_LValueToRValue)
      continue;
    // `return e;` treats e as an xvalue first ([class.copy.elision]).
    while (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up)) {
      if (C->getCastKind() != CK_NoOp)
        break;
      Up = PM.getParentIgnoreParens(C);
    }
    if (const auto *K = dyn_cast_or_null<CXXConstructExpr>(Up);
        K && isStdOptional(K->getType()) && K->getNumArgs() == 1)
      continue;
    return false;
  }
  return true;
}

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
  // std::exchange(a, v) returns a's old value.
  if (auto X = pointerExchanges(C); X.size() == 1)
    return C->getArg(0);
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isTemplated() ||
      isToolchainCode(Def, Ctx.getSourceManager()))
    return nullptr;
  bool Optional = isStdOptional(Def->getReturnType());
  if (!Def->getReturnType()->isPointerType() && !Optional)
    return nullptr;
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  const ParmVarDecl *Param = nullptr;
  for (const ReturnStmt *R : Returns) {
    const Expr *V = strip(R->getRetValue());
    // Into a std::optional (`std::optional<cudaEvent_t> fetch(..)`): its
    // converting constructor; `return std::nullopt;` returns no value.
    if (const auto *K = dyn_cast_or_null<CXXConstructExpr>(V);
        Optional && K && K->getNumArgs() == 1)
      V = strip(K->getArg(0));
    const auto *T = V ? V->getType()->getAsCXXRecordDecl() : nullptr;
    if (Optional && T && T->isInStdNamespace() && T->getIdentifier() &&
        T->getName() == "nullopt_t")
      continue;
    const auto *D = dyn_cast_or_null<DeclRefExpr>(V);
    const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!P || !P->getType()->isPointerType() || (Param && P != Param))
      return nullptr;
    Param = P;
  }
  // A stream or event handle is a value: the parameter must still hold the
  // argument's (a buffer pointer moved within its buffer is that buffer).
  if (!Param || ((isStreamType(Param->getType()) ||
                  isEventType(Param->getType())) &&
                 !onlyRead(Param, Def->getBody())))
    return nullptr;
  for (unsigned I = 0; I < Def->getNumParams(); ++I)
    if (Def->getParamDecl(I) == Param)
      return paramArg(C, I);
  return nullptr;
}

const Expr *FunctionFacts::returnedField(const Expr *E,
                                         const FieldDecl *Field) const {
  const auto *C = dyn_cast_or_null<CallExpr>(strip(E));
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isTemplated() ||
      isToolchainCode(Def, Ctx.getSourceManager()) ||
      Def->getReturnType()->getAsRecordDecl() != Field->getParent())
    return nullptr;
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  const ParmVarDecl *Param = nullptr;
  for (const ReturnStmt *R : Returns) {
    const Expr *V = R->getRetValue() ? R->getRetValue()->IgnoreImplicit()
                                     : nullptr;
    if (const auto *Cast = dyn_cast_or_null<CXXFunctionalCastExpr>(V))
      V = Cast->getSubExpr()->IgnoreImplicit(); // `return Pending{h, s};`
    const auto *L = dyn_cast_or_null<InitListExpr>(V);
    if (L && !L->isSemanticForm())
      L = L->getSemanticForm();
    unsigned Index = Field->getFieldIndex();
    if (!L || Index >= L->getNumInits())
      return nullptr;
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(L->getInit(Index)));
    const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!P || (Param && P != Param))
      return nullptr;
    Param = P;
  }
  if (!Param || ExprMutationAnalyzer(*Def->getBody(), Ctx).isMutated(Param))
    return nullptr;
  return paramArg(C, Param->getFunctionScopeIndex());
}

void FunctionFacts::buildAliasesAndProvenance() {
  // Streams created into a local variable (isFreshStream): how often each
  // variable is created into, and given any other value.
  std::map<const VarDecl *, std::pair<unsigned, unsigned>> CreatedAssigned;
  // A pool's stream, or a factory's (StreamOrigins::returnedBy): each
  // call gives a created stream.
  auto IsCreatedStream = [&](const Expr *Rhs) {
    const auto *C = dyn_cast_or_null<CallExpr>(strip(Rhs));
    const ApiEntry *E = C ? lookup(C) : nullptr;
    return C && ((E && E->Role == ApiRole::PoolStream) ||
                 (Origins && Origins->returnedBy(C) != StreamOrigin::Unknown));
  };
  for (const Assignment &A : Assigns)
    if (A.Var)
      ++(IsCreatedStream(A.Rhs) ? CreatedAssigned[A.Var].first
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
  // Handles given another handle's value (StreamRef::Rebound).
  for (const Assignment &A : Assigns)
    if (A.Lhs && A.Var &&
        isStreamOrWrapper(A.Var->getType().getNonReferenceType()))
      ReboundStreams.insert(A.Var);
  for (const CallExpr *C : Calls)
    if (isStdFunction(C->getDirectCallee(), {"swap", "exchange"}))
      for (const Expr *Arg : C->arguments())
        if (const auto *V = dyn_cast_or_null<VarDecl>(namedDecl(Arg));
            V && isStreamOrWrapper(V->getType().getNonReferenceType()))
          ReboundStreams.insert(V);

  for (const Assignment &A : Assigns) {
    AccessPath LhsKey;
    QualType LhsType;
    if (A.Lhs) {
      const Expr *L = strip(A.Lhs);
      // Not array slots: `dsts[0] = h1; ...; dsts[0] = h2;` would join
      // h1 and h2. A slot given pageable memory (`bufs[p] = malloc(n)`)
      // marks the elements pageable: weaker evidence than a pinned one.
      if (!isa<DeclRefExpr, MemberExpr>(L)) {
        if (L->getType()->isPointerType() && bufferRoot(L) == L &&
            isPageableAllocation(A.Rhs))
          Aliases.mark(AccessPath::of(L), Provenance::Pageable);
        continue;
      }
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
        if (E->PoolNonBlocking)
          NonBlockingStreams.insert(LhsKey);
        continue;
      }
      // `cudaStream_t s = make_stream();` of a factory that creates it
      // with cudaStreamNonBlocking.
      if (Origins && isStreamType(LhsType.getNonReferenceType()) &&
          Origins->returnedBy(C) == StreamOrigin::CreatedNonBlocking) {
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
    // `float &first = h[0];`: a reference to an element of the buffer h
    // points to reads and writes that buffer.
    if (LhsType->isReferenceType() &&
        !LhsType.getNonReferenceType()->isPointerType())
      if (const Expr *Ptr = elementPointer(Rhs))
        Rhs = Ptr;
    if (const Expr *Root = bufferRoot(Rhs)) {
      Aliases.unite(LhsKey, AccessPath::of(Root));
      Aliases.mark(LhsKey, declProvenance(Root));
    }
  }
  // Aggregate initialisation: `Buf a{h};` makes a.p an alias of h, and
  // `float *slots[2] = {h, h + 512};` the elements aliases of h where every
  // element points into the one buffer (two buffers in one array would
  // become one class).
  for (const Assignment &A : Assigns) {
    const auto *L = A.Lhs || !A.Var
                        ? nullptr
                        : dyn_cast<InitListExpr>(A.Rhs->IgnoreImplicit());
    if (L && !L->isSemanticForm())
      L = L->getSemanticForm();
    // `Pending p = download(h, s);` of a helper that returns `Pending{h,
    // s}`: p.data is the argument's alias (returnedField).
    if (!L && !A.Lhs && A.Var && !A.Var->getType()->isReferenceType())
      if (const RecordDecl *RD = A.Var->getType()->getAsRecordDecl();
          RD && isa_and_nonnull<CallExpr>(strip(A.Rhs)))
        for (const FieldDecl *FD : RD->fields())
          if (FD->getType()->isPointerType())
            if (const Expr *Arg = returnedField(A.Rhs, FD))
              if (const Expr *Root = bufferRoot(Arg)) {
                AccessPath Field =
                    AccessPath::ofVar(A.Var).withMember(FD, false);
                Aliases.unite(Field, AccessPath::of(Root));
                Aliases.mark(Field, declProvenance(Root));
              }
    // `Stage c = st;` by an implicit or defaulted copy: c.h holds what
    // st.h held (FunctionFacts::copiedMember's conditions).
    if (!L && !A.Lhs && A.Var && !A.Var->getType()->isReferenceType())
      if (const RecordDecl *RD = A.Var->getType()->getAsRecordDecl())
        for (const FieldDecl *FD : RD->fields()) {
          AccessPath Field = AccessPath::ofVar(A.Var).withMember(FD, false);
          if (FD->getType()->isPointerType())
            if (std::optional<AccessPath> From = copiedMember(Field))
              Aliases.unite(Field, *From);
        }
    if (!L || A.Var->getType()->isReferenceType())
      continue;
    QualType T = A.Var->getType();
    if (const auto *AT =
            dyn_cast_or_null<ConstantArrayType>(T->getAsArrayTypeUnsafe())) {
      if (!AT->getElementType()->isPointerType())
        continue;
      std::optional<std::string> Class;
      const Expr *First = nullptr;
      for (const Expr *Init : L->inits()) {
        const Expr *Root = bufferRoot(Init);
        std::string Key = Root ? Aliases.classKey(AccessPath::of(Root)) : "";
        if (!Root || (Class && *Class != Key)) {
          First = nullptr;
          break;
        }
        Class = Key;
        First = First ? First : Root;
      }
      if (First) {
        Aliases.unite(AccessPath::ofVar(A.Var).withAnyIndex(),
                      AccessPath::of(First));
        Aliases.mark(AccessPath::ofVar(A.Var).withAnyIndex(),
                     declProvenance(First));
      }
      continue;
    }
    // An aggregate's initializers are its fields' in order (C++
    // [dcl.init.aggr]; bases first, so none here).
    const RecordDecl *RD = T->getAsRecordDecl();
    const auto *CRD = dyn_cast_or_null<CXXRecordDecl>(RD);
    if (!RD || RD->isUnion() || !RD->isCompleteDefinition() ||
        (CRD && (!CRD->isAggregate() || CRD->getNumBases() != 0)))
      continue;
    unsigned I = 0;
    for (const FieldDecl *FD : RD->fields()) {
      if (I >= L->getNumInits())
        break;
      const Expr *Init = L->getInit(I++);
      if (!FD->getType()->isPointerType())
        continue;
      if (const Expr *Root = bufferRoot(Init)) {
        AccessPath Field = AccessPath::ofVar(A.Var).withMember(FD, false);
        Aliases.unite(Field, AccessPath::of(Root));
        Aliases.mark(Field, declProvenance(Root));
      }
    }
  }
  // `for (float *b : bufs)` over an array or std::vector of buffers: b is
  // one of the elements.
  for (const CXXForRangeStmt *R : RangeLoops) {
    const VarDecl *V = R->getLoopVariable();
    const Expr *Range = R->getRangeInit();
    if (!V || !Range || !V->getType().getNonReferenceType()->isPointerType() ||
        !(Range->getType()->isArrayType() || isStdSequence(Range->getType())))
      continue;
    Aliases.unite(AccessPath::ofVar(V), AccessPath::of(Range).withAnyIndex());
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

} // namespace clang::tidy::cuda
