//===--- TensorAndBatchCopies.cpp - Copies into arrays and tensors ------===//
//
// Two kinds of asynchronous device-to-host copy whose destination is not
// one pointer argument: cudaMemcpyBatchAsync / cudaMemcpy3DBatchAsync (the
// elements of a destination array) and libtorch's `to(kCPU, true)` /
// `copy_(src, true)` (a result bound to a variable, a container element or a
// temporary). Members of EffectBuilder (EffectBuilder.h).
//
// May call: what Effects.h may call.
//
//===----------------------------------------------------------------------===//

#include "EffectBuilder.h"
#include "TorchModel.h"
#include "clang/Basic/SourceManager.h"
#include <map>

namespace clang::tidy::cuda {

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
        (P == Provenance::Pageable && StrictMode)) {
      addCopy(C, Root, P == Provenance::Pageable,
              F.streamOf(arg(C, E.StreamArg)), nullptr);
      // Of unknown kind: to the host only where it is host memory
      // (CopySite::NeedsHostDestination), as for cudaMemcpyDefault.
      Out.Copies.back()->NeedsHostDestination = P == Provenance::Unknown;
    }
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
    if (ObjRoot && mayBeDevice(ObjRoot)) // on the current stream
      addProducer(C, ObjRoot, Current, /*OnCurrent=*/true);
    if (!Async) {
      if (OnDevice(SrcRoot)) {
        addConsumer(C, SrcRoot, Current, /*Blocking=*/true);
        BlockingSync();
        DeviceWrites.insert(C);
      } else if (ObjRoot && !mayBeDevice(ObjRoot) &&
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

} // namespace clang::tidy::cuda
