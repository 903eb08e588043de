//===--- Effects.cpp - The copies and effects of one callable -----------===//

#include "Effects.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "HostAccess.h"
#include "StreamOrdering.h"
#include "TorchModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace clang::tidy::cuda {
namespace {

/// Do a user-declared row's argument positions exist in this call?
bool fitsCall(const ApiEntry &E, const CallExpr *C) {
  for (int P : {E.DstArg, E.StreamArg, E.EventArg})
    if (P >= 0 && static_cast<unsigned>(P) >= C->getNumArgs())
      return false;
  return true;
}

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

/// libtorch in-place methods that change a tensor's view or flags, not
/// its data: no device work.
bool changesOnlyMetadata(llvm::StringRef Method) {
  return llvm::is_contained(
      {"unsqueeze_", "squeeze_", "t_", "transpose_", "detach_",
       "requires_grad_", "resize_", "resize_as_", "as_strided_", "set_",
       "share_memory_", "retain_grad_", "swapdims_", "swapaxes_",
       "names_", "rename_", "refine_names_", "align_to_", "pin_memory_"},
      Method);
}

/// Builds one callable's CallableEffects (see buildEffects).
class EffectBuilder {
public:
  EffectBuilder(CallableRun &R, FunctionFacts &F, CallableEffects &Out)
      : R(R), F(F), Out(Out), Ctx(R.context()),
        StrictMode(R.options().StrictMode) {}
  void build();

private:
  /// Is this asynchronous copy one from the device into host memory?
  /// Returns its destination's root, or nullptr.
  const Expr *d2hDestination(const CallExpr *C, const ApiEntry &E,
                             bool &Pageable);
  void addCopy(const CallExpr *C, const Expr *Root, bool Pageable,
               const StreamRef &S, const Expr *Inner);
  void addCopy(const CallExpr *C, const AccessPath &Key,
               const std::string &Name, bool Pageable, const StreamRef &S,
               const Expr *Inner);
  /// The direction of a copy inferred from its pointers (cudaMemcpyDefault,
  /// batches, libtorch's copy_; UVA): device-to-host unless the destination
  /// (of provenance Dst) is known device memory or the source Src (null:
  /// unknown) is known host memory.
  bool inferredDeviceToHost(Provenance Dst, const Expr *Src) {
    const Expr *SrcRoot = Src ? bufferRoot(Src) : nullptr;
    Provenance From = SrcRoot ? F.provenanceOf(SrcRoot) : Provenance::Unknown;
    return Dst != Provenance::Device && From != Provenance::Pinned &&
           From != Provenance::Pageable;
  }
  /// Is a call's callee something the analysis looks into or knows?
  bool isModelledCall(const CallExpr *C) const;
  void collectCallEffects();
  void addDestructorCall(const VarDecl *V, SourceLocation ScopeEnd);
  template <class Args>
  void addLambdaArgs(const Expr *Call, Args Arguments,
                     const NamedDecl *Callee);
  void collectBatchCopy(const CallExpr *C, const ApiEntry &E);
  void collectTorchCopy(const CallExpr *C, const ApiEntry &E);
  void bindResult(const CallExpr *C, bool Pageable, const StreamRef &S,
                  const Expr *Inner);
  void collectAccessEffects();
  //--- The producer diagnostic's effects (see Effects.h) --------------------
  /// Device work on stream S at At writes Buf (a device buffer; OnCurrent:
  /// a libtorch op, on the current stream).
  void addProducer(const Stmt *At, const Expr *Buf, const StreamRef &S,
                   bool OnCurrent = false);
  /// A tensor a libtorch op writes as device work: known to be on the GPU,
  /// or, in a helper's summary, a parameter of unknown device (the call
  /// decides, addHelperProducers).
  bool mayBeCudaTensor(const Expr *Root) {
    Provenance P = F.provenanceOf(Root);
    if (P == Provenance::Device)
      return true;
    const auto *D = dyn_cast<DeclRefExpr>(strip(Root));
    return R.SummaryMode && P == Provenance::Unknown && D &&
           isa<ParmVarDecl>(D->getDecl());
  }
  /// The region of a device buffer a producer or a copy names: the
  /// buffer's alias class and the expression as written (`d`, `d + n`,
  /// `bufs[1]`). Producer and copy must name the same region: another
  /// offset or element may be another part of the buffer (a chunked
  /// pipeline), and then no claim is made.
  /// Empty (untracked) for an offset or index that is not a constant:
  /// `d[i]` in a loop names another element each iteration.
  std::string regionKey(const Expr *E, const Expr *Root) {
    const Expr *X = strip(E);
    if (X != strip(Root) && !isa<ArraySubscriptExpr>(X))
      return "";
    for (const Expr *Y = X; Y;) {
      if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Y)) {
        if (!evalInt(Sub->getIdx(), Ctx))
          return "";
        Y = strip(Sub->getBase());
      } else if (const auto *M = dyn_cast<MemberExpr>(Y)) {
        Y = strip(M->getBase());
      } else {
        break;
      }
    }
    return F.Aliases.classKey(AccessPath::of(Root)) + "@" + spelling(X, Ctx);
  }
  /// The device work a helper called at C leaves writing its arguments.
  void addHelperProducers(const CallExpr *C, const HelperSummary &S);
  /// A device-to-host copy at At reads Src on stream S (Blocking: the call
  /// returns once it is done).
  void addConsumer(const Stmt *At, const Expr *Src, const StreamRef &S,
                   bool Blocking = false);
  /// Work on S at At: on the legacy default stream, a LegacyWork effect.
  void addStreamWork(const Stmt *At, const StreamRef &S);
  void addBarrier(const Stmt *At);
  /// The producers, consumers and legacy work of a modelled call that is
  /// not a device-to-host copy (those: addConsumer where they are made).
  void collectDeviceWork(const CallExpr *C, const ApiEntry &E);
  /// May the kernel launched by K write through its argument I: a pointer
  /// to non-const whose pointee the kernel's body (when visible) changes
  /// (ExprMutationAnalyzer), or may change.
  bool kernelMayWrite(const CUDAKernelCallExpr *K, unsigned I);
  /// kernelMayWrite's walks of kernel bodies, per parameter.
  llvm::DenseMap<const ParmVarDecl *, bool> KernelReadsOnly;
  /// Does a helper called at C (Def: its definition) order device work
  /// (StreamOrdering.h): whatever its arguments, or by work on a stream
  /// parameter whose argument is not a stream created here (stream 0 is
  /// the legacy default stream).
  bool helperMayOrder(const CallExpr *C, const FunctionDecl *Def);
  /// An occurrence of a buffer of alias class Class: its host access, if
  /// any, becomes an Access effect.
  void addAccess(const Expr *Node, const std::string &Class);
  CallBindings bindings(const CallExpr *C, const FunctionDecl *Callee) const;

  CallableRun &R;
  FunctionFacts &F;
  CallableEffects &Out;
  ASTContext &Ctx;
  const bool StrictMode; ///< AnalysisOptions::StrictMode
  /// `b.to(kCPU, true)` whose result no variable holds: read by whatever
  /// consumes it, with the alias class of its temporary key.
  std::vector<std::pair<const Expr *, std::string>> TemporaryCopies;
  std::set<const Stmt *> BindingAssignments; ///< `t = b.to(kCPU, true)`
  std::set<const Stmt *> DeviceWrites; ///< `dst.copy_(gpu, ...)`
  /// Calls of functions without a visible body nor a model row, with their
  /// callees: the producer diagnostic's possible barriers.
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> OpaqueCalls;
};

} // namespace

CopySite *CallableEffects::newCopy(CallableRun &R) {
  Copies.push_back(R.Owner.newCopySite());
  return Copies.back();
}

void buildEffects(CallableRun &R, FunctionFacts &Facts, CallableEffects &Out) {
  EffectBuilder(R, Facts, Out).build();
}

void EffectBuilder::build() {
  collectCallEffects();
  // Without device work writing a buffer here, the producer diagnostic has
  // nothing to ask: its other effects would only cost.
  if (llvm::none_of(Out.List,
                    [](const Effect &E) { return E.K == Effect::Produce; })) {
    llvm::erase_if(Out.List, [](const Effect &E) {
      return E.K == Effect::Consume || E.K == Effect::LegacyWork ||
             E.K == Effect::Barrier;
    });
  } else {
    // Opaque calls that may order device work; first in the list, so that
    // at one call a barrier comes before the work the call itself issues.
    std::vector<Effect> Barriers;
    for (const auto &[C, Callee] : OpaqueCalls)
      if (opaqueCallMayOrder(C, Callee, Ctx)) {
        Effect Ev(Effect::Barrier);
        Ev.Anchor = C;
        Barriers.push_back(std::move(Ev));
      }
    Out.List.insert(Out.List.begin(), std::make_move_iterator(Barriers.begin()),
                    std::make_move_iterator(Barriers.end()));
  }
  collectAccessEffects();
  for (const auto &[V, At] : F.Writes) {
    Effect Ev(Effect::Write);
    Ev.Anchor = At;
    Ev.Var = V;
    Out.List.push_back(std::move(Ev));
  }
  std::map<std::tuple<std::string, std::optional<long long>,
                      StreamRef::Identity>,
           unsigned>
      Classes;
  for (unsigned Id = 0; Id < Out.Copies.size(); ++Id) {
    const CopySite &C = *Out.Copies[Id];
    Out.ClassOf.push_back(
        C.Seed || C.Stream.K == StreamRef::Unknown
            ? Id
            : Classes
                  .try_emplace({C.Buffer, C.Element, C.Stream.identity()}, Id)
                  .first->second);
  }
}

void EffectBuilder::addAccess(const Expr *Node, const std::string &Class) {
  auto Modelled = [&](const CallExpr *C) { return isModelledCall(C); };
  auto Summarized = [&](const FunctionDecl *Fn) {
    return R.Owner.hasSummary(Fn);
  };
  HostAccessContext HC{F.PM, Modelled, Summarized, BindingAssignments,
                       DeviceWrites};
  std::optional<HostAccess> A = classifyHostAccess(Node, HC);
  if (!A)
    return;
  Effect Ev(Effect::Access);
  Ev.Anchor = A->Anchor;
  Ev.Buffer = Class;
  Ev.AK = A->Kind;
  Ev.Loc = A->Loc;
  Ev.Name = Node;
  Ev.Element = AccessPath::of(Node).constantLastIndex();
  Ev.Callee = A->Callee;
  Out.List.push_back(std::move(Ev));
}

const Expr *EffectBuilder::d2hDestination(const CallExpr *C,
                                          const ApiEntry &E, bool &Pageable) {
  llvm::StringRef DstField = paramsStructFields(E.Struct).Dst;
  const Expr *Dst = DstField.empty()
                        ? arg(C, E.DstArg)
                        : F.paramsField(arg(C, 0), C, DstField);
  auto Kind = F.copyKind(C, E);
  const Expr *Root = Dst ? bufferRoot(Dst) : nullptr;
  if (!Kind || !Root)
    return nullptr; // unknown direction or untrackable destination
  Provenance DstProv = F.provenanceOf(Root);
  if (*Kind == MemcpyDefault) {
    // An integer destination (CUdeviceptr) that is not a cast pointer is
    // a device address.
    if (strip(Dst)->getType()->isIntegerType() &&
        Root->getType()->isIntegerType())
      return nullptr;
    if (!inferredDeviceToHost(DstProv,
                              E.SrcArg == NoArg ? nullptr : arg(C, E.SrcArg)))
      return nullptr;
  } else if (*Kind != MemcpyDeviceToHost) {
    return nullptr;
  }
  if (DstProv == Provenance::Device)
    return nullptr;
  Pageable = DstProv == Provenance::Pageable;
  // HIP documents it (hip_runtime_api.h, hipMemcpyAsync): "If host or
  // dest are not pinned, the memory copy will be performed
  // synchronously." A guarantee, so not even StrictMode warns.
  if (Pageable && E.Family == ApiFamily::Hip)
    return nullptr;
  return Root;
}

void EffectBuilder::addCopy(const CallExpr *C, const Expr *Root,
                            bool Pageable, const StreamRef &S,
                            const Expr *Inner) {
  addCopy(C, AccessPath::of(Root), spelling(Root, Ctx), Pageable, S, Inner);
}

void EffectBuilder::addCopy(const CallExpr *C, const AccessPath &Key,
                            const std::string &Name, bool Pageable,
                            const StreamRef &S, const Expr *Inner) {
  CopySite *Site = Out.newCopy(R);
  Site->Call = C;
  Site->InnerCopy = Inner;
  Site->Buffer = F.Aliases.classKey(Key);
  Site->Element = Key.constantLastIndex();
  Site->BufferName = Name;
  Site->Stream = S;
  Site->Pageable = Pageable;
  Effect Ev(Effect::Copy);
  Ev.Anchor = C;
  Ev.CopyId = Out.Copies.size() - 1;
  Out.List.push_back(std::move(Ev));
}

/// What the helper's parameters are bound to here (CallBindings):
/// function-pointer parameters whose argument is a function the model knows
/// (or this callable's own bound parameter), and cudaMemcpyKind parameters
/// whose argument is a constant.
CallBindings EffectBuilder::bindings(const CallExpr *C,
                                     const FunctionDecl *Callee) const {
  CallBindings Bound;
  for (unsigned P = 0; P < Callee->getNumParams(); ++P) {
    const ParmVarDecl *Param = Callee->getParamDecl(P);
    const Expr *A = paramArg(C, P);
    if (!A)
      continue;
    QualType T = Param->getType().getNonReferenceType();
    if (isMemcpyKindType(T)) {
      if (auto V = F.constantArg(A))
        Bound.Constants.push_back({Param, *V});
      continue;
    }
    if (!T->isFunctionPointerType() && !T->isFunctionType())
      continue;
    const Expr *Fn = A->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Fn);
        U && U->getOpcode() == UO_AddrOf)
      Fn = U->getSubExpr()->IgnoreParenImpCasts();
    const auto *D = dyn_cast<DeclRefExpr>(Fn);
    const FunctionDecl *Target =
        D ? dyn_cast<FunctionDecl>(D->getDecl()) : nullptr;
    for (const auto &[Outer, OuterFn] : F.Bound.Functions)
      if (D && D->getDecl() == Outer)
        Target = OuterFn;
    if (Target && F.Model.lookup(Target))
      Bound.Functions.push_back({Param, Target});
  }
  return Bound;
}

bool EffectBuilder::isModelledCall(const CallExpr *C) const {
  if (isa<CUDAKernelCallExpr>(C))
    return true;
  const FunctionDecl *Callee = F.calleeOf(C);
  if (!Callee)
    return false;
  const ApiEntry *E = F.Model.lookup(Callee);
  if (E && E->Family == ApiFamily::Torch)
    return false; // tensors handed to copy_ / to are read on the host
  // A function named like a GPU API (cudaSyncOrDie, cuda_copy_to_host)
  // whose body the check reads is the user's helper, not an API.
  return E || (isUnmodelledGpuApi(Callee) && !R.Owner.hasSummary(Callee));
}

void EffectBuilder::collectCallEffects() {
  std::set<const CallExpr *> Configs; // of kernel launches
  for (const CallExpr *C : F.Calls)
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C))
      Configs.insert(K->getConfig());
  for (const CallExpr *C : F.Calls) {
    if (Configs.count(C))
      continue;
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C)) {
      Effect Ev(Effect::KernelLaunch);
      Ev.Anchor = C;
      Ev.CE = C;
      Out.List.push_back(std::move(Ev));
      const CallExpr *Config = K->getConfig();
      StreamRef S = F.streamOf(Config ? arg(Config, 3) : nullptr);
      if (F.capturing(C, S))
        continue; // recorded into a graph, not run now
      addStreamWork(C, S);
      for (unsigned I = 0; I < K->getNumArgs(); ++I)
        if (kernelMayWrite(K, I))
          addProducer(C, K->getArg(I), S);
      continue;
    }
    const FunctionDecl *Callee = F.calleeOf(C);
    if (const ApiEntry *E = F.Model.lookup(Callee);
        E && E->Family == ApiFamily::User && !fitsCall(*E, C))
      continue; // a declared position past the call's arguments
    if (const ApiEntry *E = F.Model.lookup(Callee)) {
      if (E->Role == ApiRole::TorchCopy ||
          E->Role == ApiRole::TorchBlockingRead) {
        collectTorchCopy(C, *E);
        continue;
      }
      if (E->Role == ApiRole::AsyncBatchCopy) {
        collectBatchCopy(C, *E);
        continue;
      }
      if (E->Role == ApiRole::AsyncCopy) {
        bool Pageable = false;
        if (const Expr *Root = d2hDestination(C, *E, Pageable)) {
          StreamRef On = F.streamOf(arg(C, E->StreamArg));
          // Captured into a graph: recorded, not run now.
          if (F.capturing(C, On))
            continue;
          // Into pageable memory too: the copy still reads its source on
          // its stream.
          if (E->SrcArg != NoArg && E->Struct == ParamsStructKind::None)
            addConsumer(C, arg(C, E->SrcArg), On);
          addStreamWork(C, On);
          if (!Pageable || StrictMode)
            addCopy(C, Root, Pageable, On, nullptr);
          continue;
        }
        // Not a device-to-host copy: stream-ordered work on its pointers.
      }
      collectDeviceWork(C, *E);
      Effect Ev(Effect::Api);
      Ev.Anchor = C;
      Ev.CE = C;
      Ev.Entry = E;
      Out.List.push_back(std::move(Ev));
      continue;
    }
    const CXXMethodDecl *CalleeLambda = lambdaOperator(Callee);
    if (!CalleeLambda)
      addLambdaArgs(C, C->arguments(), Callee);
    // A libtorch in-place op on a CUDA tensor (`b.mul_(0.5)`) writes it on
    // the current stream.
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(C);
        M && Callee && Callee->getIdentifier() &&
        Callee->getName().ends_with("_") && !changesOnlyMetadata(Callee->getName()) &&
        isTensorType(M->getImplicitObjectArgument()->getType()))
      if (const Expr *Obj = bufferRoot(M->getImplicitObjectArgument());
          Obj && mayBeCudaTensor(Obj))
        addProducer(C, Obj, F.currentStreamAt(C->getBeginLoc()),
                    /*OnCurrent=*/true);
    const FunctionDecl *Def =
        Callee ? summarizable(Callee, Ctx.getSourceManager()) : nullptr;
    // Defined in another translation unit: its imported summary, if any
    // (SummaryFiles.h); the call may still order device work (MayOrder).
    const HelperSummary *Imported =
        Def || !Callee ? nullptr : R.Owner.importedSummary(Callee);
    if (!Def && !Imported) {
      OpaqueCalls.push_back({C, Callee}); // barriers, if there are producers
      continue; // opaque: HostAccess reports buffers passed to it
    }
    const HelperSummary *S =
        Def ? R.summaryOf(Callee, bindings(C, Callee)) : Imported;
    Effect Ev(Effect::Call);
    Ev.Anchor = C;
    Ev.CE = C;
    Ev.Summary = S;
    Ev.MayOrder = helperMayOrder(C, Def);
    const HelperSummary *Produced = S;
    if (S) {
      Ev.HelperCopies = copiesLeftAtCall(R, F, Out, *S, C, CalleeLambda);
      // Copies it issues on a stream this callable is capturing: recorded.
      llvm::erase_if(Ev.HelperCopies, [&](const auto &Copy) {
        return F.capturing(C, Out.Copies[Copy.first]->Stream);
      });
    }
    Out.List.push_back(std::move(Ev));
    if (Produced)
      addHelperProducers(C, *Produced);
    // Copies into what it returns: the call's result is their destination
    // (issued after the call's own effects, which came before them).
    if (S)
      for (const HelperSummary::PendingCopy &PC : S->CopiesLeftPending) {
        if (!PC.Returned || (PC.Pageable && !StrictMode))
          continue;
        StreamRef On = pendingCopyStream(F, PC, C, CalleeLambda);
        if (!F.capturing(C, On)) {
          bindResult(C, PC.Pageable, On, PC.Copy);
          Out.Copies.back()->InnerCopyAt = PC.CopyAt;
        }
      }
  }
  for (const CXXConstructExpr *T : F.ThreadStarts) {
    addLambdaArgs(T, T->arguments(), T->getConstructor()->getParent());
    addBarrier(T); // the thread may synchronize anything
  }
  for (const auto &[V, ScopeEnd] : F.DestroyedVars)
    addDestructorCall(V, ScopeEnd);
}

/// A reference to V located At: the object of a destructor call (at V's
/// declaration, which spells its name), or where the call runs.
static Expr *refAt(ASTContext &Ctx, const VarDecl *V, SourceLocation At) {
  return DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                             const_cast<VarDecl *>(V),
                             /*RefersToEnclosingVariableOrCapture=*/false, At,
                             V->getType(), VK_LValue);
}

/// The call `V.~T()` that ends V's lifetime, built for the summary
/// machinery (which rebases `this` to the object called on, spelled as
/// written at V's declaration).
static const CallExpr *destructorCall(ASTContext &Ctx, const VarDecl *V,
                                      CXXDestructorDecl *Dtor) {
  SourceLocation At = V->getLocation();
  Expr *Object = refAt(Ctx, V, At);
  auto *Callee = MemberExpr::CreateImplicit(Ctx, Object, /*IsArrow=*/false,
                                            Dtor, Ctx.BoundMemberTy,
                                            VK_PRValue, OK_Ordinary);
  return CXXMemberCallExpr::Create(Ctx, Callee, {}, Ctx.VoidTy, VK_PRValue,
                                   At, FPOptionsOverride());
}

/// A local object's destructor with a visible body (`~Guard() {
/// cudaStreamSynchronize(s_); }`): its summary applies, on the object,
/// wherever the object goes out of scope.
void EffectBuilder::addDestructorCall(const VarDecl *V,
                                      SourceLocation ScopeEnd) {
  const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
  CXXDestructorDecl *Dtor = RD ? RD->getDestructor() : nullptr;
  if (!Dtor || !summarizable(Dtor, Ctx.getSourceManager()))
    return;
  const CallExpr *C = destructorCall(Ctx, V, Dtor);
  const HelperSummary *S = R.summaryOf(Dtor, bindings(C, Dtor));
  if (!S)
    return;
  Effect Ev(Effect::Call);
  Ev.Anchor = C;
  Ev.CE = C;
  Ev.Summary = S;
  Ev.Var = V;
  Ev.Loc = refAt(Ctx, V, ScopeEnd);
  Ev.HelperCopies = copiesLeftAtCall(R, F, Out, *S, C, nullptr);
  Ev.MayOrder = helperMayOrder(C, summarizable(Dtor, Ctx.getSourceManager()));
  Out.List.push_back(std::move(Ev));
}

/// Lambdas handed to a function (`std::for_each(.., [&](int i) {
/// use(h[i]); })`, `std::thread t([&] {...})`), which may run them: their
/// captured buffers count as passed to it, as a pointer would. Utilities
/// that only forward or wrap the lambda do not run it.
template <class Args>
void EffectBuilder::addLambdaArgs(const Expr *Call, Args Arguments,
                                  const NamedDecl *Callee) {
  if (isStdFunction(dyn_cast_or_null<FunctionDecl>(Callee),
                    {"move", "forward", "ref", "cref", "as_const",
                     "addressof", "bind", "bind_front", "bind_back",
                     "make_pair", "make_tuple", "forward_as_tuple", "swap",
                     "exchange", "not_fn"}))
    return;
  const auto *OpCall = dyn_cast<CXXOperatorCallExpr>(Call);
  for (const Expr *A : Arguments) {
    const VarDecl *Var = nullptr;
    const CXXMethodDecl *Op = lambdaOf(A, &Var);
    if (!Op || Op->getParent()->capture_size() == 0)
      continue;
    const HelperSummary *S = R.summaryOf(Op);
    if (!S || llvm::none_of(S->Named, [](const auto &B) {
          return !B.Unsynced.empty();
        }))
      continue;
    Effect Ev(Effect::LambdaArg);
    Ev.Anchor = Call;
    Ev.Loc = A;
    Ev.AK = AccessKind::CapturedByArgument;
    Ev.Callee = Callee;
    // `f()` of a std::function made from the lambda runs it here.
    if (OpCall && OpCall->getOperator() == OO_Call && OpCall->getArg(0) == A) {
      Ev.AK = AccessKind::UsedByLambda;
      Ev.Callee = Var;
    }
    Ev.Summary = S;
    Ev.Lambda = Op;
    Ev.MayOrder =
        orderingFactsOf(Op, F.Model, Ctx, R.options().MaxHelperDepth,
                        R.Owner.orderingCache())
            .Orders;
    Out.List.push_back(std::move(Ev));
  }
}

/// cudaMemcpyBatchAsync(dsts, ...): the destinations are the elements of
/// the array `dsts`, from its initializer (`void *dsts[] = {h1, h2}`) and
/// from assignments to its elements (`dsts[i] = h`), or, for
/// cudaMemcpy3DBatchAsync, `ops[i].dst.op.ptr.ptr = h`. The direction of
/// each copy follows from the pointers: a destination known to be host
/// memory (pinned, or pageable under StrictMode) becomes pending.
void EffectBuilder::collectBatchCopy(const CallExpr *C, const ApiEntry &E) {
  bool Ops = E.Struct == ParamsStructKind::Batch3DOps;
  const SourceManager &SM = Ctx.getSourceManager();
  // Per slot of an array argument (its index, as written), the last value
  // stored before the call: a slot reused for another buffer holds only the
  // latest. Ops: the destination inside each element (ops[i].dst.op.ptr.ptr).
  auto SlotsOf = [&](const Expr *ArrayArg, bool InOps)
      -> std::optional<std::map<std::string, const Expr *>> {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(ArrayArg));
    const auto *Array = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!Array)
      return std::nullopt;
    std::map<std::string, const Expr *> Slots;
    const Expr *ArrayInit =
        Array->getInit() ? Array->getInit()->IgnoreImplicit() : nullptr;
    if (const auto *Init = dyn_cast_or_null<InitListExpr>(ArrayInit);
        Init && !InOps)
      for (unsigned N = 0; N < Init->getNumInits(); ++N)
        Slots[std::to_string(N)] = Init->getInit(N);
    for (const FunctionFacts::Assignment &A : F.Assigns) {
      if (!A.Lhs || !SM.isBeforeInTranslationUnit(A.Lhs->getBeginLoc(),
                                                  C->getBeginLoc()))
        continue;
      const Expr *L = strip(A.Lhs);
      if (InOps) { // ops[i].dst.op.ptr.ptr
        bool Match = true;
        for (llvm::StringRef Field :
             paramsStructFields(E.Struct).DstPathInElement) {
          const auto *M = dyn_cast<MemberExpr>(L);
          if (!M || !M->getMemberDecl()->getIdentifier() ||
              M->getMemberDecl()->getName() != Field) {
            Match = false;
            break;
          }
          L = strip(M->getBase());
        }
        if (!Match)
          continue;
      }
      const auto *Sub = dyn_cast<ArraySubscriptExpr>(L);
      const auto *Base =
          Sub ? dyn_cast<DeclRefExpr>(strip(Sub->getBase())) : nullptr;
      if (Base && Base->getDecl() == Array) {
        auto Index = evalInt(Sub->getIdx(), Ctx);
        Slots[Index ? std::to_string(*Index)
                    : AccessPath::of(Sub->getIdx()).key()] = A.Rhs;
      }
    }
    return Slots;
  };
  auto Dsts = SlotsOf(arg(C, E.DstArg), Ops);
  if (!Dsts)
    return;
  std::map<std::string, const Expr *> Srcs;
  if (!Ops && E.SrcArg != NoArg)
    if (auto S = SlotsOf(arg(C, E.SrcArg), false))
      Srcs = std::move(*S);
  for (const auto &[Slot, Dst] : *Dsts) {
    const Expr *Root = bufferRoot(Dst);
    if (!Root)
      continue;
    Provenance P = F.provenanceOf(Root);
    // The batch infers each direction from the pointers, as
    // cudaMemcpyDefault does.
    auto Src = Srcs.find(Slot);
    if (P == Provenance::Unknown &&
        !inferredDeviceToHost(P, Src != Srcs.end() ? Src->second : nullptr))
      continue;
    if (P == Provenance::Pinned || P == Provenance::Unknown ||
        (P == Provenance::Pageable && StrictMode))
      addCopy(C, Root, P == Provenance::Pageable,
              F.streamOf(arg(C, E.StreamArg)), nullptr);
  }
}

/// libtorch copies. `b.to(<CPU>, .., /*non_blocking=*/true)` copies into
/// a new pinned tensor: the variable it initialises or is assigned to,
/// or else a temporary that its consumer reads at once (the seed:
/// `a.copy_(b.to(kCPU, true))`). `dst.copy_(src, true)` copies into dst.
/// Blocking forms, `.item()` and `.cpu()` of a tensor known to be on the
/// GPU synchronize the current stream.
void EffectBuilder::collectTorchCopy(const CallExpr *C, const ApiEntry &E) {
  const Expr *Obj = arg(C, ObjectArg);
  const Expr *ObjRoot = Obj ? bufferRoot(Obj) : nullptr;
  auto OnDevice = [&](const Expr *Root) {
    return Root && F.provenanceOf(Root) == Provenance::Device;
  };
  // b.sum().item(), b[0].item(): a tensor computed from a GPU tensor, or
  // a view of one, is on the GPU.
  if (!ObjRoot && Obj) {
    const Expr *X = strip(Obj);
    while (true) {
      if (const Expr *Of = subscriptedTensor(X)) {
        X = Of;
      } else {
        const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(X);
        const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
        if (!M || !M->getIdentifier() || changesDevice(M->getName()) ||
            !isTensorType(MC->getType()))
          break;
        X = strip(MC->getImplicitObjectArgument());
      }
      if (const Expr *Root = bufferRoot(X)) {
        ObjRoot = Root;
        break;
      }
    }
  }
  llvm::StringRef Name = C->getDirectCallee()->getName();
  auto NB = F.constantArg(nonBlockingArg(C));
  bool Async = NB && *NB;
  StreamRef Current = F.currentStreamAt(C->getBeginLoc());
  auto BlockingSync = [&] {
    Effect Ev(Effect::Api);
    Ev.Anchor = C;
    Ev.CE = C;
    Ev.Entry = &E;
    Out.List.push_back(std::move(Ev));
  };
  // A tensor the check does not know to be on the CPU: if it is on the GPU,
  // reading it blocks on the current stream.
  auto MayBeOnDevice = [&](const Expr *Root) {
    if (!Root)
      return true; // (b + 1).cpu(), zeros_like(b).item()
    Provenance P = F.provenanceOf(Root);
    return P != Provenance::Pageable && P != Provenance::Pinned;
  };
  if (E.Role == ApiRole::TorchBlockingRead || (Name == "to" && !Async)) {
    bool Reads = E.Role == ApiRole::TorchBlockingRead || targetsCpu(C);
    if (OnDevice(ObjRoot) && Reads) {
      addConsumer(C, ObjRoot, Current, /*Blocking=*/true);
      BlockingSync();
    } else if (Reads && MayBeOnDevice(ObjRoot)) {
      addBarrier(C); // may order: no claim across it
    }
    return;
  }
  if (Name == "copy_") {
    const Expr *Src = arg(C, 0);
    const Expr *SrcRoot = Src ? bufferRoot(Src) : nullptr;
    if (ObjRoot && mayBeCudaTensor(ObjRoot)) // on the current stream
      addProducer(C, ObjRoot, Current, /*OnCurrent=*/true);
    if (!Async) {
      if (OnDevice(SrcRoot)) {
        addConsumer(C, SrcRoot, Current, /*Blocking=*/true);
        BlockingSync();
        DeviceWrites.insert(C);
      } else if (ObjRoot && !mayBeCudaTensor(ObjRoot) &&
                 MayBeOnDevice(SrcRoot)) {
        addBarrier(C); // hc.copy_(c): a blocking copy out of the GPU, maybe
      }
      return;
    }
    if (!ObjRoot)
      return;
    Provenance Dst = F.provenanceOf(ObjRoot);
    if (!inferredDeviceToHost(Dst, Src))
      return; // into the GPU, or host to host
    bool Pageable = Dst == Provenance::Pageable;
    DeviceWrites.insert(C);
    if (SrcRoot)
      addConsumer(C, SrcRoot, Current);
    if (Pageable && !StrictMode)
      return;
    addCopy(C, ObjRoot, Pageable, Current, nullptr);
    return;
  }
  if (Name != "to" || !targetsCpu(C))
    return;
  if (ObjRoot && (F.provenanceOf(ObjRoot) == Provenance::Pageable ||
                  F.provenanceOf(ObjRoot) == Provenance::Pinned))
    return; // already on the CPU: nothing is copied from the device
  if (ObjRoot)
    addConsumer(C, ObjRoot, Current);
  bindResult(C, /*Pageable=*/false, Current, nullptr);
}

/// A call whose result is the destination of a copy in flight (`b.to(kCPU,
/// true)`, a helper returning its pending copy's destination): the variable
/// it initialises or is assigned to, an element of a container it is
/// stored into, or else a temporary that its consumer reads at once (the
/// seed: `a.copy_(b.to(kCPU, true))`). Inner: the copy inside a helper.
void EffectBuilder::bindResult(const CallExpr *C, bool Pageable,
                               const StreamRef &Current, const Expr *Inner) {
  const Stmt *Cur = C;
  const Stmt *P = F.PM.getParent(Cur);
  while (P && (isa<MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                   ImplicitCastExpr, ExprWithCleanups, ParenExpr>(P) ||
               (isa<CXXConstructExpr>(P) &&
                cast<CXXConstructExpr>(P)->getNumArgs() == 1))) {
    Cur = P;
    P = F.PM.getParent(P);
  }
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P);
      DS && DS->isSingleDecl())
    if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
        V && !V->getType()->isReferenceType()) {
      addCopy(C, AccessPath::ofVar(V), V->getName().str(), Pageable, Current,
              Inner);
      return;
    }
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P);
      B && B->getOpcode() == BO_Assign && B->getRHS() == Cur &&
      isa<DeclRefExpr, MemberExpr>(strip(B->getLHS()))) {
    addCopy(C, strip(B->getLHS()), Pageable, Current, Inner); // h = get(..)
    return;
  }
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
      Op->getArg(1) == Cur) {
    const Expr *Lhs = strip(Op->getArg(0));
    // `cache["k"] = g.to(kCPU, true)`: an element of a container of
    // tensors (a map, a vector) is the destination; the container stands
    // for it.
    if (const auto *Sub = dyn_cast_or_null<CXXOperatorCallExpr>(Lhs);
        Sub && Sub->getOperator() == OO_Subscript && Sub->getNumArgs() == 2 &&
        isTensorType(Sub->getType()) &&
        isa<DeclRefExpr, MemberExpr>(strip(Sub->getArg(0))))
      Lhs = strip(Sub->getArg(0));
    if (isa_and_nonnull<DeclRefExpr, MemberExpr>(Lhs)) {
      addCopy(C, Lhs, Pageable, Current, Inner);
      BindingAssignments.insert(Op);
      return;
    }
  }
  // A temporary: read by whatever consumes it.
  AccessPath Key = AccessPath::temporary(C);
  addCopy(C, Key, spelling(C, Ctx), Pageable, Current, Inner);
  TemporaryCopies.push_back({C, F.Aliases.classKey(Key)});
}

void EffectBuilder::addProducer(const Stmt *At, const Expr *Buf,
                                const StreamRef &S, bool OnCurrent) {
  const Expr *Root = Buf ? bufferRoot(Buf) : nullptr;
  if (!Root || S.K == StreamRef::Unknown)
    return;
  Provenance P = F.provenanceOf(Root);
  if (P == Provenance::Pinned || P == Provenance::Pageable)
    return; // host memory: not the source of a device-to-host copy
  Effect Ev(Effect::Produce);
  Ev.Anchor = At;
  Ev.Buffer = regionKey(Buf, Root);
  if (Ev.Buffer.empty())
    return;
  Ev.Name = Root;
  Ev.OnStream = &Out.Streams.emplace_back(S);
  Ev.OnCurrent = OnCurrent;
  if (const auto *D = dyn_cast<DeclRefExpr>(strip(Root)))
    Ev.Var = dyn_cast<VarDecl>(D->getDecl());
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::addHelperProducers(const CallExpr *C,
                                       const HelperSummary &S) {
  for (const HelperSummary::Production &P : S.Produces) {
    const Expr *A = paramArg(C, static_cast<int>(P.BufferParam));
    const Expr *Root = A ? bufferRoot(A) : nullptr;
    if (!Root || (P.Torch && F.provenanceOf(Root) != Provenance::Device))
      continue;
    StreamRef On =
        P.On == HelperSummary::Production::OnStreamParam
            ? F.streamOf(paramArg(C, static_cast<int>(P.StreamParam)))
        : P.On == HelperSummary::Production::CurrentStream
            ? F.currentStreamAt(C->getBeginLoc())
            : F.streamOf(nullptr);
    if (P.On == HelperSummary::Production::OnStreamParam &&
        !paramArg(C, static_cast<int>(P.StreamParam)))
      continue; // a defaulted stream argument: not followed
    addProducer(C, Root, On, P.Torch);
  }
}

void EffectBuilder::addConsumer(const Stmt *At, const Expr *Src,
                                const StreamRef &S, bool Blocking) {
  const Expr *Root = Src ? bufferRoot(Src) : nullptr;
  if (!Root || S.K == StreamRef::Unknown)
    return;
  Effect Ev(Effect::Consume);
  Ev.Anchor = At;
  Ev.Buffer = regionKey(Src, Root);
  if (Ev.Buffer.empty())
    return;
  Ev.Name = Root;
  Ev.OnStream = &Out.Streams.emplace_back(S);
  Ev.BlockingCopy = Blocking;
  Out.List.push_back(std::move(Ev));
}

void EffectBuilder::addStreamWork(const Stmt *At, const StreamRef &S) {
  if (S.K != StreamRef::Legacy)
    return;
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
         (*Kind == MemcpyDefault &&
          F.provenanceOf(Root) == Provenance::Device)))
      addProducer(C, Dst, S);
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
    if (E.StreamArg != NoArg || E.Role == ApiRole::EventRecord)
      addStreamWork(C, S);
    return;
  case ApiRole::PinnedAlloc:
  case ApiRole::DeviceAlloc:
    // "Implicit Synchronization" (CUDA C++ Programming Guide): commands of
    // two streams cannot overlap a page-locked host or device allocation
    // issued between them.
    addBarrier(C);
    return;
  default:
    return; // synchronizations: the Solver's transfers
  }
}

bool EffectBuilder::kernelMayWrite(const CUDAKernelCallExpr *K,
                                   unsigned I) {
  const FunctionDecl *Kernel = K->getDirectCallee();
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

bool EffectBuilder::helperMayOrder(const CallExpr *C,
                                   const FunctionDecl *Def) {
  if (!Def)
    return true;
  StreamOrderingFacts Facts =
      orderingFactsOf(Def, F.Model, Ctx, R.options().MaxHelperDepth,
                      R.Owner.orderingCache());
  if (Facts.Orders)
    return true;
  for (unsigned P : Facts.WorkOnStreamParams) {
    const Expr *A = paramArg(C, static_cast<int>(P));
    StreamRef S = F.streamOf(A);
    if (!A || S.K != StreamRef::Named || !S.Fresh)
      return true; // may be stream 0
  }
  return false;
}

void EffectBuilder::collectAccessEffects() {
  for (const auto &[C, Class] : TemporaryCopies)
    addAccess(C, Class);
  std::set<std::string> Tracked;
  for (const CopySite *S : Out.Copies)
    if (!S->Buffer.empty())
      Tracked.insert(S->Buffer);
  if (Tracked.empty())
    return;
  for (const Expr *E : F.Candidates) {
    // Only the outermost expression naming a tracked buffer is a use:
    // skip the `this` / base parts of a member chain.
    std::string Class = F.Aliases.classKey(AccessPath::of(E));
    if (Tracked.count(Class))
      addAccess(E, Class);
  }
}
} // namespace clang::tidy::cuda
