//===--- Effects.cpp - The copies and effects of one callable -----------===//
//
// buildEffects (Effects.h): the walk of one callable's calls (modelled
// APIs, plain asynchronous copies, helpers with their summaries, imported
// summaries, destructors of locals, lambdas handed to functions) and of its
// host accesses. Batch and libtorch copies: TensorAndBatchCopies.cpp; the
// producer diagnostic's effects: ProducerEffects.cpp.
//
// May call: what Effects.h may call.
//
//===----------------------------------------------------------------------===//

#include "EffectBuilder.h"
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

/// The call operators of a callable object's class and of its bases (a
/// visitor `struct overloaded : Ts... { using Ts::operator()...; }`), each
/// instantiation of a template one (a generic lambda's), into Out.
void callOperators(const CXXRecordDecl *RD,
                   llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                   unsigned Depth = 0) {
  if (!RD || !RD->hasDefinition() || Depth > 4)
    return;
  DeclarationName Name =
      RD->getASTContext().DeclarationNames.getCXXOperatorName(OO_Call);
  for (const NamedDecl *D : RD->lookup(Name)) {
    if (const auto *M = dyn_cast<CXXMethodDecl>(D))
      Out.push_back(M);
    else if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      for (const FunctionDecl *Spec : T->specializations())
        Out.push_back(Spec);
  }
  for (const CXXBaseSpecifier &B : RD->bases())
    callOperators(B.getType()->getAsCXXRecordDecl(), Out, Depth + 1);
}

/// std::visit ([variant.visit]), std::invoke and std::apply call their
/// callable argument before they return, std::visit through the call
/// operator the variant's alternative picks at run time: a call of one of
/// several targets. Where one of them may order device work (or is not
/// visible), the call is one of an unknown target (it may synchronize
/// anything); where none may, it stays a function handed a lambda.
bool callsCallableThatMayOrder(const CallExpr *C, const FunctionDecl *Callee,
                               const ApiModel &Model, ASTContext &Ctx,
                               unsigned Depth, StreamOrderingCache &Cache) {
  if (!isStdFunction(Callee, {"visit", "invoke", "invoke_r", "apply"}) ||
      C->getNumArgs() == 0)
    return false;
  QualType T = C->getArg(0)->getType().getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false; // a function: followed, or not, as any call of it
  llvm::SmallVector<const FunctionDecl *, 4> Ops;
  callOperators(RD, Ops);
  if (Ops.empty())
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  return llvm::any_of(Ops, [&](const FunctionDecl *Op) {
    const FunctionDecl *Def = summarizable(Op, SM);
    return !Def || orderingFactsOf(Def, Model, Ctx, Depth, Cache)
                       .mayOrderUnsummarized();
  });
}

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
  collectHostOrdering();
  // Without device work writing a buffer here, the producer diagnostic has
  // nothing to ask: its other effects would only cost.
  if (Out.ProducerSeeds.empty() &&
      llvm::none_of(Out.List,
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
  decideInferredDirections();
  for (const auto &[At, Defs] : F.PointerDefinitions) {
    Effect Ev(Effect::Repoint);
    Ev.Anchor = At;
    Ev.Repoints = &Defs;
    Out.List.push_back(std::move(Ev));
  }
  for (const auto &[V, At] : F.ElementWrites) {
    Effect Ev(Effect::Write);
    Ev.Anchor = At;
    Ev.Var = V;
    Ev.ElementsOnly = true;
    Out.List.push_back(std::move(Ev));
  }
  for (const auto &[V, At] : F.Writes) {
    Effect Ev(Effect::Write);
    Ev.Anchor = At;
    Ev.Var = V;
    Ev.NewBuffer = (At == V->getInit() || isa<DeclStmt>(At)) &&
                   F.newBufferEachIteration(V, At);
    Ev.Value = F.writtenConstant(V, At);
    Out.List.push_back(std::move(Ev));
  }
  std::map<std::tuple<std::string, std::optional<long long>,
                      std::optional<ByteRange>, StreamRef::Identity>,
           unsigned>
      Classes;
  for (unsigned Id = 0; Id < Out.Copies.size(); ++Id) {
    const CopySite &C = *Out.Copies[Id];
    Out.ClassOf.push_back(
        C.Seed || C.Stream.K == StreamRef::Unknown
            ? Id
            : Classes
                  .try_emplace({C.Buffer, C.Element, C.Bytes,
                                C.Stream.identity()},
                               Id)
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
  if (RegionClasses.count(Class))
    Ev.Bytes = accessRegion(F, Node);
  Ev.Callee = A->Callee;
  Out.List.push_back(std::move(Ev));
}

const Expr *EffectBuilder::d2hDestination(const CallExpr *C,
                                          const ApiEntry &E, bool &Pageable,
                                          bool &NeedsHost) {
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
    NeedsHost = DstProv == Provenance::Unknown;
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
  AccessPath Key = AccessPath::of(Root);
  addCopy(C, Key, spelling(Root, Ctx), Pageable, S, Inner);
  Out.Copies.back()->DstVar = namedDecl(Root);
  if (AccessPath Element = F.expandAliases(Key, C); Element != Key)
    Out.Copies.back()->ElementPath = std::move(Element);
  Out.Copies.back()->DstPath = std::move(Key);
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
/// (or this callable's own bound parameter), and parameters whose argument
/// is a constant: cudaMemcpyKind ones, and those that decide a branch of
/// the helper's body (AsyncCopyAnalysis::branchParams) -- of a function
/// without a body here, every integral one (its imported summary may have
/// a variant for the value). The parameters are the definition's, which
/// its body names.
CallBindings EffectBuilder::bindings(const CallExpr *C,
                                     const FunctionDecl *Callee) const {
  CallBindings Bound;
  const FunctionDecl *Def = summarizable(Callee, Ctx.getSourceManager());
  std::optional<std::vector<unsigned>> Tested;
  if (Def)
    Tested = R.Owner.branchParams(Def);
  const FunctionDecl *Params = Def ? Def : Callee;
  for (unsigned P = 0; P < Params->getNumParams(); ++P) {
    const ParmVarDecl *Param = Params->getParamDecl(P);
    const Expr *A = paramArg(C, P);
    if (!A)
      continue;
    QualType T = Param->getType().getNonReferenceType();
    if (isMemcpyKindType(T) ||
        (T->isIntegralOrEnumerationType() &&
         (!Tested || llvm::is_contained(*Tested, P)))) {
      if (auto V = F.constantArg(A))
        Bound.Constants.push_back({Param, *V});
      continue;
    }
    if (!T->isFunctionPointerType() && !T->isFunctionType())
      continue;
    const FunctionDecl *Target = namedFunction(A);
    // A pointer parameter this callable is itself bound with, passed on.
    const auto *D = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
    for (const auto &[Outer, OuterFn] : F.Bound.Functions)
      if (D && D->getDecl() == Outer)
        Target = OuterFn;
    if (Target)
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
    if (collectExtensibleLaunch(C))
      continue;
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
        bool Pageable = false, NeedsHost = false;
        if (const Expr *Root = d2hDestination(C, *E, Pageable, NeedsHost)) {
          StreamRef On = F.streamOf(arg(C, E->StreamArg));
          // Captured into a graph: recorded, not run now; run by a launch
          // of the graph (relaunchCaptured).
          if (F.capturing(C, On)) {
            Captured.push_back({C, Root, On, Pageable, NeedsHost});
            continue;
          }
          // Into pageable memory too: the copy still reads its source on
          // its stream.
          if (E->SrcArg != NoArg && E->Struct == ParamsStructKind::None)
            addConsumer(C, arg(C, E->SrcArg), On);
          addStreamWork(C, On);
          // Into a helper's parameter of unknown kind: device-to-host where
          // the caller's argument is host memory, and device work writing
          // it where it is device memory (`raft::copy_matrix`).
          if (NeedsHost && deviceAtCall(Root))
            addProducer(C, Root, On, /*OnCurrent=*/false, /*IfDevice=*/true);
          if (!Pageable || StrictMode) {
            addCopy(C, Root, Pageable, On, nullptr);
            Out.Copies.back()->NeedsHostDestination = NeedsHost;
            Out.Copies.back()->Bytes =
                copyRegion(F, C, *E, arg(C, E->DstArg), Root);
          } else {
            // Into pageable memory the call returns once the copy is done
            // (docs/semantics.md, "pageable dst": 0/5 stale), and the copy
            // ran after the work issued before it on its stream: the host
            // has waited for that work too, as after a sync of the stream.
            addStreamSync(C, On);
          }
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
    collectElementwiseSync(C, Callee);
    // A libtorch in-place op on a CUDA tensor (`b.mul_(0.5)`) writes it on
    // the current stream.
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(C);
        M && Callee && Callee->getIdentifier() &&
        Callee->getName().ends_with("_") && !changesOnlyMetadata(Callee->getName()) &&
        isTensorType(M->getImplicitObjectArgument()->getType()))
      if (const Expr *Obj = bufferRoot(M->getImplicitObjectArgument());
          Obj && mayBeDevice(Obj))
        addProducer(C, Obj, F.currentStreamAt(C->getBeginLoc()),
                    /*OnCurrent=*/true);
    const FunctionDecl *Def =
        Callee ? summarizable(Callee, Ctx.getSourceManager()) : nullptr;
    // Defined in another translation unit: its imported summary, if any
    // (SummaryFiles.h); the call may still order device work (MayOrder).
    // A call through a pointer, a std::function or a virtual function:
    // any target, so it may synchronize anything (even where another
    // unit's summary of one target exists).
    if (!Def && (callsUnknownTarget(C, Callee) ||
                 callsCallableThatMayOrder(C, Callee, F.Model, Ctx,
                                           R.options().MaxHelperDepth,
                                           R.Owner.orderingCache()))) {
      Effect Ev(Effect::UnknownCall);
      Ev.Anchor = C;
      Out.List.push_back(std::move(Ev));
      continue;
    }
    auto Bound = [&] { return bindings(C, Callee); };
    const HelperSummary *Imported =
        Def || !Callee ? nullptr : R.Owner.importedSummary(Callee, Bound);
    if (!Def && !Imported) {
      if (addUniquePtrReset(C, Callee))
        continue;
      OpaqueCalls.push_back({C, Callee}); // barriers, if there are producers
      addLibraryProducers(C, Callee);
      continue; // opaque: HostAccess reports buffers passed to it
    }
    const HelperSummary *S =
        Def ? R.summaryOf(Callee, bindings(C, Callee)) : Imported;
    Effect Ev(Effect::Call);
    Ev.Anchor = C;
    Ev.CE = C;
    Ev.Summary = S;
    Ev.MayOrder = addHelperOrdering(C, Def, S);
    const HelperSummary *Produced = S;
    if (S) {
      Ev.HelperCopies = copiesLeftAtCall(R, F, Out, *S, C, CalleeLambda);
      // Copies it issues on a stream this callable is capturing: recorded.
      llvm::erase_if(Ev.HelperCopies, [&](const auto &Copy) {
        return F.capturing(C, Out.Copies[Copy.first]->Stream);
      });
    }
    // Its copies read their sources before anything it does may order them.
    if (S)
      addHelperConsumers(C, *S);
    Out.List.push_back(std::move(Ev));
    if (Produced)
      addHelperProducers(C, *Produced);
    // A query's success it returns: a branch on the call branches on it.
    if (S && S->ReturnsQuerySuccess)
      F.QueryWrapperCalls.insert(C);
    // The object it returns, built from its arguments: on the heap, or the
    // local object the call initialises.
    if (S && S->ReturnsNew) {
      llvm::SmallVector<const Expr *, 4> Args;
      for (unsigned P : S->ReturnsNew->ArgParams)
        if (const Expr *A = paramArg(C, P))
          Args.push_back(A);
      if (Args.size() == S->ReturnsNew->ArgParams.size())
        addConstruction(C,
                        S->ReturnsNew->ByValue ? objectHolder(C)
                                               : heapHolder(C),
                        S->ReturnsNew->Ctor, Args);
    }
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
  for (const CXXConstructExpr *K : F.Constructions)
    addConstructorCall(K);
  for (const CallExpr *C : F.Calls)
    addMadeObject(C);
  for (const auto &[V, ScopeEnd] : F.DestroyedVars)
    addDestructorCall(V, ScopeEnd);
  if (!Captured.empty())
    for (const CallExpr *C : F.Calls)
      if (const ApiEntry *E = F.Model.lookup(F.calleeOf(C));
          E && E->Role == ApiRole::GraphLaunch)
        relaunchCaptured(C, *E);
}

void EffectBuilder::relaunchCaptured(const CallExpr *Launch,
                                     const ApiEntry &E) {
  StreamRef On = F.streamOf(arg(Launch, E.StreamArg));
  for (const CapturedCopy &K : Captured) {
    if (!F.launchesCapture(Launch, K.Call, K.Stream) ||
        (K.Pageable && !StrictMode))
      continue;
    addCopy(Launch, K.Root, K.Pageable, On, /*Inner=*/K.Call);
    Out.Copies.back()->NeedsHostDestination = K.NeedsHost;
  }
}

/// A reference to V located At: the object of a destructor call (at V's
/// declaration, which spells its name), or where the call runs.
static Expr *refAt(ASTContext &Ctx, const VarDecl *V, SourceLocation At) {
  return DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                             const_cast<VarDecl *>(V),
                             /*RefersToEnclosingVariableOrCapture=*/false, At,
                             V->getType(), VK_LValue);
}

Expr *EffectBuilder::refTo(const VarDecl *V) const {
  return refAt(Ctx, V, V->getLocation());
}

const CallExpr *syntheticMemberCall(ASTContext &Ctx, const Expr *Object,
                                    const CXXMethodDecl *Method,
                                    llvm::ArrayRef<const Expr *> Args,
                                    SourceLocation At) {
  llvm::SmallVector<Expr *, 4> Mutable;
  for (const Expr *A : Args)
    Mutable.push_back(const_cast<Expr *>(A));
  auto *Callee = MemberExpr::CreateImplicit(
      Ctx, const_cast<Expr *>(Object), /*IsArrow=*/false,
      const_cast<CXXMethodDecl *>(Method), Ctx.BoundMemberTy, VK_PRValue,
      OK_Ordinary);
  QualType Ret = isa<CXXConstructorDecl, CXXDestructorDecl>(Method)
                     ? Ctx.VoidTy
                     : Method->getReturnType();
  return CXXMemberCallExpr::Create(Ctx, Callee, Mutable, Ret, VK_PRValue, At,
                                   FPOptionsOverride());
}

/// The call `V.~T()` that ends V's lifetime, built for the summary
/// machinery (which rebases `this` to the object called on, spelled as
/// written at V's declaration).
static const CallExpr *destructorCall(ASTContext &Ctx, const VarDecl *V,
                                      CXXDestructorDecl *Dtor) {
  SourceLocation At = V->getLocation();
  return syntheticMemberCall(Ctx, refAt(Ctx, V, At), Dtor, {}, At);
}

/// A local object built by a constructor with a visible body (`Marker
/// m(s);` whose constructor records an event on s into a member): its
/// summary applies at the construction, on the object, as a member call
/// `m.Marker(s)` would (members of `this` are m's).
void EffectBuilder::addConstructorCall(const CXXConstructExpr *K) {
  const VarDecl *V = initialisedBy(K);
  if (!V)
    V = heapHolder(F.PM.getParent(K));
  llvm::SmallVector<const Expr *, 4> Args(K->arguments());
  addConstruction(K, V, K->getConstructor(), Args);
}

/// The local pointer that holds the object a new-expression New builds and
/// names it for its whole life: `T *p = new T(..)`, `auto p = new T(..)`,
/// `std::unique_ptr<T> p(new T(..))`, or `auto p =
/// std::make_unique<T>(..)` / `std::make_shared<T>(..)` (New the call);
/// never changed, nor its address taken. Else null.
const VarDecl *EffectBuilder::heapHolder(const Stmt *New) const {
  const auto *NE = dyn_cast_or_null<CXXNewExpr>(New);
  if ((NE && NE->isArray()) || (!NE && !isa_and_nonnull<CallExpr>(New)))
    return nullptr;
  const VarDecl *V = initialisedBy(cast<Expr>(New));
  if (!V || F.MutatedVars.count(V) || F.AddressTaken.count(V))
    return nullptr;
  QualType T = V->getType().getNonReferenceType();
  return T->isPointerType() || isStdSmartPointer(T->getAsCXXRecordDecl())
             ? V
             : nullptr;
}

/// The local object of class type that the call C initialises (`Token t =
/// fetch(..);`, C++17's guaranteed elision: the callee's returned prvalue is
/// t itself). Else null.
const VarDecl *EffectBuilder::objectHolder(const CallExpr *C) const {
  const VarDecl *V = initialisedBy(C);
  return V && V->getType()->isRecordType() ? V : nullptr;
}

/// `auto p = std::make_unique<T>(args)` (or make_shared): T's constructor
/// runs on `*p` as `new T(args)` would (heapConstruction).
void EffectBuilder::addMadeObject(const CallExpr *C) {
  const FunctionDecl *Fn = C->getDirectCallee();
  if (!Fn || !isStdFunction(Fn, {"make_unique", "make_shared"}))
    return;
  ObjectConstruction H = heapConstruction(C);
  if (H.Ctor)
    addConstruction(C, heapHolder(C), H.Ctor, H.Args);
}

/// The constructor Ctor building the object V names (a local object, or the
/// heap object a local pointer holds), with Args: its summary applies at
/// Anchor as a member call `V.T(args)` would (or `V->T(args)`).
void EffectBuilder::addConstruction(const Expr *Anchor, const VarDecl *V,
                                    const CXXConstructorDecl *Ctor,
                                    llvm::ArrayRef<const Expr *> Args) {
  const FunctionDecl *Def =
      V ? summarizable(Ctor, Ctx.getSourceManager()) : nullptr;
  if (!Def)
    return;
  const CallExpr *C = syntheticMemberCall(
      Ctx, refTo(V), Ctor, Args, Anchor->getBeginLoc());
  const HelperSummary *S = R.summaryOf(Ctor, bindings(C, Ctor));
  if (!S)
    return;
  Effect Ev(Effect::Call);
  Ev.Anchor = Anchor;
  Ev.CE = C;
  Ev.Summary = S;
  Ev.Loc = Anchor;
  Ev.HelperCopies = copiesLeftAtCall(R, F, Out, *S, C, nullptr);
  Ev.MayOrder = addHelperOrdering(C, Def, S);
  addHelperConsumers(C, *S);
  Out.List.push_back(std::move(Ev));
  addHelperProducers(C, *S);
}

/// `o.get_deleter()(o.get())`: what a std::unique_ptr's destructor and
/// reset() run on the pointer it owns (C++ [unique.ptr.single.dtor],
/// [unique.ptr.single.modifiers]), for a deleter class whose call operator
/// has a visible body (`struct SyncAndDestroy { void operator()(
/// cudaStream_t s) const { cudaStreamSynchronize(s); ... } };`); else null.
static const CallExpr *uniquePtrDeleterCall(ASTContext &Ctx,
                                            const Expr *Object,
                                            SourceLocation At) {
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Object->getType()->getAsCXXRecordDecl());
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier() ||
      RD->getName() != "unique_ptr" || RD->getTemplateArgs().size() < 2 ||
      RD->getTemplateArgs()[1].getKind() != TemplateArgument::Type)
    return nullptr;
  const CXXRecordDecl *Deleter =
      RD->getTemplateArgs()[1].getAsType()->getAsCXXRecordDecl();
  if (!Deleter || !Deleter->hasDefinition() || Deleter->isInStdNamespace())
    return nullptr;
  auto Method = [](const CXXRecordDecl *In, DeclarationName Name,
                   unsigned Params) -> const CXXMethodDecl * {
    for (const NamedDecl *D : In->lookup(Name))
      if (const auto *M = dyn_cast<CXXMethodDecl>(D);
          M && M->getNumParams() == Params)
        return M;
    return nullptr;
  };
  const CXXMethodDecl *Op = Method(
      Deleter, Ctx.DeclarationNames.getCXXOperatorName(OO_Call), 1);
  const CXXMethodDecl *Get = Method(RD, &Ctx.Idents.get("get"), 0);
  const CXXMethodDecl *GetDeleter =
      Method(RD, &Ctx.Idents.get("get_deleter"), 0);
  if (!Op || !Get || !GetDeleter ||
      !summarizable(Op, Ctx.getSourceManager()))
    return nullptr;
  const CallExpr *Owned = syntheticMemberCall(Ctx, Object, Get, {}, At);
  return syntheticMemberCall(
      Ctx, syntheticMemberCall(Ctx, Object, GetDeleter, {}, At), Op, {Owned},
      At);
}

void EffectBuilder::addSyntheticCall(const Stmt *Anchor, const CallExpr *C,
                                     const FunctionDecl *Callee,
                                     const VarDecl *Var, const Expr *Loc) {
  const HelperSummary *S = R.summaryOf(Callee, bindings(C, Callee));
  if (!S)
    return;
  Effect Ev(Effect::Call);
  Ev.Anchor = Anchor;
  Ev.CE = C;
  Ev.Summary = S;
  Ev.Var = Var;
  Ev.Loc = Loc;
  Ev.HelperCopies = copiesLeftAtCall(R, F, Out, *S, C, nullptr);
  Ev.MayOrder =
      addHelperOrdering(C, summarizable(Callee, Ctx.getSourceManager()), S);
  Out.List.push_back(std::move(Ev));
}

/// A local object's destructor with a visible body (`~Guard() {
/// cudaStreamSynchronize(s_); }`): its summary applies, on the object,
/// wherever the object goes out of scope. A std::unique_ptr runs its
/// deleter there (uniquePtrDeleterCall).
void EffectBuilder::addDestructorCall(const VarDecl *V,
                                      SourceLocation ScopeEnd) {
  const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
  CXXDestructorDecl *Dtor = RD ? RD->getDestructor() : nullptr;
  const CallExpr *C = nullptr;
  if (Dtor && summarizable(Dtor, Ctx.getSourceManager()))
    C = destructorCall(Ctx, V, Dtor);
  else
    C = uniquePtrDeleterCall(Ctx, refTo(V),
                             V->getLocation());
  if (C)
    addSyntheticCall(C, C, C->getDirectCallee(), V,
                     refAt(Ctx, V, ScopeEnd));
}

bool EffectBuilder::addUniquePtrReset(const CallExpr *C,
                                      const FunctionDecl *Callee) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  if (!MC || !Callee || !Callee->getIdentifier() ||
      Callee->getName() != "reset")
    return false;
  const CallExpr *Run = uniquePtrDeleterCall(
      Ctx, MC->getImplicitObjectArgument(), C->getBeginLoc());
  if (!Run)
    return false;
  addSyntheticCall(C, Run, Run->getDirectCallee(), nullptr, C);
  return true;
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
            .mayOrderUnsummarized();
    Out.List.push_back(std::move(Ev));
  }
}

namespace {
/// `X.begin()` / `std::begin(X)` (End: `.end()` / `std::end`, and their
/// const forms): X; else null.
const Expr *rangeEnd(const Expr *E, bool End) {
  E = strip(E);
  llvm::StringRef Want = End ? "end" : "begin";
  llvm::StringRef WantC = End ? "cend" : "cbegin";
  auto Named = [&](const FunctionDecl *F) {
    return F && F->getIdentifier() &&
           (F->getName() == Want || F->getName() == WantC);
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return Named(MC->getMethodDecl()) && MC->getNumArgs() == 0
               ? MC->getImplicitObjectArgument()
               : nullptr;
  if (const auto *C = dyn_cast<CallExpr>(E))
    return Named(C->getDirectCallee()) &&
                   C->getDirectCallee()->isInStdNamespace() &&
                   C->getNumArgs() == 1
               ? C->getArg(0)
               : nullptr;
  return nullptr;
}
} // namespace

void EffectBuilder::collectElementwiseSync(const CallExpr *C,
                                           const NamedDecl *Callee) {
  if (C->getNumArgs() != 3 ||
      !isStdFunction(dyn_cast_or_null<FunctionDecl>(Callee), {"for_each"}))
    return;
  const Expr *First = rangeEnd(C->getArg(0), false);
  const Expr *Last = rangeEnd(C->getArg(1), true);
  AccessPath Range = First ? AccessPath::of(First) : AccessPath();
  if (!Last || Range.empty() || Range != AccessPath::of(Last))
    return;
  // The function run on each element synchronizes it: a lambda or helper
  // whose summary syncs its parameter on every path, or the API itself
  // (`std::for_each(v.begin(), v.end(), cudaStreamSynchronize)`).
  const Expr *Fn = strip(C->getArg(2));
  const FunctionDecl *Run = lambdaOf(Fn, nullptr);
  if (!Run)
    if (const auto *D = dyn_cast<DeclRefExpr>(Fn))
      Run = dyn_cast<FunctionDecl>(D->getDecl());
  if (!Run)
    return;
  bool Syncs = false;
  if (const ApiEntry *E = F.Model.lookup(Run))
    Syncs = E->Role == ApiRole::StreamSync && E->StreamArg == 0;
  else if (const HelperSummary *S = R.summaryOf(Run))
    Syncs = !S->SyncsStreamParam.empty() && S->SyncsStreamParam[0];
  if (!Syncs)
    return;
  addStreamSync(C, everyStreamOf(Range, ""));
}

void EffectBuilder::decideInferredDirections() {
  // Buffers this callable reads or writes through on the host: host memory
  // (or managed), since a host dereference of device memory faults.
  std::set<std::string> HostTouched;
  for (const Effect &Ev : Out.List)
    if (Ev.K == Effect::Access &&
        (Ev.AK == AccessKind::Read || Ev.AK == AccessKind::Write))
      HostTouched.insert(Ev.Buffer);
  std::set<unsigned> Dropped;
  for (unsigned Id = 0; Id < Out.Copies.size(); ++Id) {
    CopySite &Site = *Out.Copies[Id];
    if (!Site.NeedsHostDestination || Site.Seed)
      continue;
    if (HostTouched.count(Site.Buffer)) {
      Site.NeedsHostDestination = false;
      continue;
    }
    if (R.SummaryMode && isa_and_nonnull<ParmVarDecl>(Site.DstVar))
      continue; // each call decides, by its argument
    Dropped.insert(Id);
  }
  if (Dropped.empty())
    return;
  llvm::erase_if(Out.List, [&](const Effect &Ev) {
    return Ev.K == Effect::Copy && Dropped.count(Ev.CopyId);
  });
  for (Effect &Ev : Out.List)
    llvm::erase_if(Ev.HelperCopies, [&](const std::pair<unsigned, unsigned> &P) {
      return Dropped.count(P.first);
    });
}

void EffectBuilder::collectAccessEffects() {
  std::set<std::string> Tracked;
  for (const CopySite *S : Out.Copies)
    if (!S->Buffer.empty()) {
      Tracked.insert(S->Buffer);
      if (S->Bytes)
        RegionClasses.insert(S->Buffer);
    }
  for (const auto &[C, Class] : TemporaryCopies)
    addAccess(C, Class);
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
