//===--- StreamOrdering.cpp - Calls that may order device work ----------===//

#include "StreamOrdering.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "LibraryCode.h"
#include "LibraryProducers.h"
#include "TorchModel.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {
namespace {

/// GPU API functions documented to leave the order of device work alone:
/// error, device and attribute queries, and creating or destroying events
/// and streams (CUDA Runtime API 13.0, "Error Handling", "Device
/// Management", "Event Management"; the driver API's and HIP's
/// counterparts; NVTX ranges).
bool leavesDeviceWorkAlone(llvm::StringRef Name) {
  if (Name.starts_with("nvtx"))
    return true;
  for (llvm::StringRef Prefix : {"cuda", "hip", "cu"})
    if (Name.consume_front(Prefix))
      break;
  Name.consume_back("_v2");
  static constexpr llvm::StringLiteral Alone[] = {
      "GetLastError", "PeekAtLastError", "GetErrorString", "GetErrorName",
      "GetDevice", "GetDeviceCount", "GetDeviceProperties",
      "DeviceGetAttribute", "SetDevice", "DeviceGet", "CtxGetDevice",
      "EventCreate", "EventCreateWithFlags", "EventDestroy", "StreamGetFlags",
      "StreamGetPriority", "FuncGetAttributes", "FuncSetAttribute",
      "FuncGetAttribute", "OccupancyMaxActiveBlocksPerMultiprocessor",
      "PointerGetAttributes", "DriverGetVersion", "RuntimeGetVersion",
      "MemGetInfo"};
  return llvm::is_contained(Alone, Name);
}

/// An object a callee could reach a stream or an event through: a stream
/// or event handle (pointers to CUstream_st / CUevent_st), or a class (by
/// value, pointer or reference) other than the standard library's and
/// libtorch's, stream wrappers excepted.
bool mayHoldStream(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD)
    return false;
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD);
      CRD && isStreamWrapper(CRD))
    return true;
  if (RD->isInStdNamespace() || isTensorType(T) || isTensorVector(T))
    return false;
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getParent()->isTranslationUnit() && NS->getIdentifier() &&
        llvm::is_contained({"c10", "at", "torch"}, NS->getName()))
      return false;
  return true;
}

/// A parameter of Fn that E names (a stream argument spelled `s`), or -1.
int paramIndexOf(const Expr *E, const FunctionDecl *Fn) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(E));
  const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != Fn)
    return -1;
  return static_cast<int>(P->getFunctionScopeIndex());
}

/// The walk behind orderingFactsOf.
class OrderingWalk : public RecursiveASTVisitor<OrderingWalk> {
public:
  OrderingWalk(const FunctionDecl *Fn, const ApiModel &Model, ASTContext &Ctx,
               unsigned Depth, StreamOrderingCache &Cache,
               StreamOrderingFacts &Out)
      : Fn(Fn), Model(Model), Ctx(Ctx), Depth(Depth), Cache(Cache), Out(Out) {}

  bool VisitCallExpr(CallExpr *C) {
    if (Out.Orders)
      return false; // nothing more to learn
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C)) {
      const CallExpr *Config = K->getConfig();
      Configs.insert(Config);
      streamWork(Config && Config->getNumArgs() > 3 ? Config->getArg(3)
                                                    : nullptr);
      return true;
    }
    if (Configs.count(C))
      return true; // a launch's configuration (__cudaPushCallConfiguration)
    const FunctionDecl *Callee = C->getDirectCallee();
    if (const ApiEntry *E = Model.lookup(Callee)) {
      api(C, *E);
      return true;
    }
    if (const FunctionDecl *Def =
            Callee ? summarizable(Callee, Ctx.getSourceManager()) : nullptr) {
      if (Depth == 0 || Def == Fn) {
        Out.Orders = true; // too deep, or recursion: may order
        return true;
      }
      StreamOrderingFacts Inner =
          orderingFactsOf(Def, Model, Ctx, Depth - 1, Cache);
      // A nested helper's records and waits are not matched against this
      // helper's summary: they may order anything.
      Out.Orders |= Inner.mayOrderUnsummarized();
      for (unsigned P : Inner.WorkOnStreamParams)
        streamWork(paramArg(C, P));
      return true;
    }
    if (std::optional<LibraryProduction> P =
            libraryProduction(C, Callee, Ctx)) {
      streamWork(C->getArg(P->StreamArg)); // on a parameter, or may be 0
      return true;
    }
    Out.Orders |= opaqueCallMayOrder(C, Callee, Ctx);
    return true;
  }
  /// A constructor, or the destructor of a local, the project defines.
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    special(E->getConstructor());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl())
      if (RD->hasDefinition() && !RD->hasTrivialDestructor())
        special(RD->getDestructor());
    return true;
  }
  // Lambdas and local classes defined here run only where called.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }

private:
  void special(const FunctionDecl *F) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (!F || Out.Orders || F->isTrivial() || isToolchainCode(F, SM))
      return;
    const FunctionDecl *Def = summarizable(F, SM);
    if (!Def || Depth == 0 || Def == Fn) {
      Out.Orders = true;
      return;
    }
    Out.Orders |= orderingFactsOf(Def, Model, Ctx, Depth - 1, Cache)
                      .mayOrderUnsummarized();
  }
  /// Device work on stream S (null: omitted, the default stream): orders
  /// blocking streams when S is the legacy default stream, which only a
  /// stream parameter's argument can tell.
  void streamWork(const Expr *S) {
    int P = S ? paramIndexOf(S, Fn) : -1;
    if (P >= 0)
      Out.WorkOnStreamParams.insert(static_cast<unsigned>(P));
    else
      Out.Orders = true;
  }
  void api(const CallExpr *C, const ApiEntry &E) {
    switch (E.Role) {
    case ApiRole::AsyncCopy:
    case ApiRole::AsyncBatchCopy:
    case ApiRole::StreamOrdered:
    case ApiRole::GraphLaunch:
      streamWork(E.StreamArg == NoArg ? nullptr : arg(C, E.StreamArg));
      return;
    case ApiRole::NotASync:
      // cudaStreamWaitEvent: a wait, enqueued on its stream.
      if (E.EventArg != NoArg)
        Out.EventCalls.push_back(C);
      streamWork(E.StreamArg == NoArg ? nullptr : arg(C, E.StreamArg));
      return;
    case ApiRole::EventRecord:
      Out.EventCalls.push_back(C);
      streamWork(E.StreamArg == NoArg ? nullptr : arg(C, E.StreamArg));
      return;
    case ApiRole::PinnedAlloc:
    case ApiRole::DeviceAlloc:
      // Measured: cudaMalloc and cudaMallocHost do not order two streams'
      // work (EffectBuilder::collectDeviceWork); cudaMallocAsync is work on
      // its stream.
      if (E.StreamArg != NoArg)
        streamWork(arg(C, E.StreamArg));
      return;
    case ApiRole::StreamCreate:
    case ApiRole::CurrentStream:
    case ApiRole::PoolStream:
    case ApiRole::DefaultStream:
    case ApiRole::CaptureBegin:
    case ApiRole::CaptureEnd:
    case ApiRole::GraphInstantiate:
      return;
    default:
      Out.Orders = true; // synchronizes, records, waits, allocates
      return;
    }
  }

  const FunctionDecl *Fn;
  const ApiModel &Model;
  ASTContext &Ctx;
  unsigned Depth;
  StreamOrderingCache &Cache;
  StreamOrderingFacts &Out;
  std::set<const CallExpr *> Configs;
};

} // namespace

/// ATen operations that copy a result or a count to the host, and so wait
/// for the current stream, whatever the tensor: a scalar out of a tensor,
/// data-dependent output shapes, comparisons returning a bool, printing.
static bool synchronizesCurrentStream(const CallExpr *C,
                                      const FunctionDecl *Callee) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C))
    return Op->getOperator() == OO_LessLess &&
           llvm::any_of(Op->arguments(), [](const Expr *A) {
             return isTensorType(A->getType());
           }); // std::cout << t
  llvm::StringRef NS = outermostNamespace(Callee);
  if (!Callee->getIdentifier() ||
      !(NS == "at" || NS == "c10" || NS == "torch"))
    return false;
  return llvm::is_contained(
      {"item", "is_nonzero", "equal", "allclose", "nonzero", "nonzero_numpy",
       "masked_select", "unique", "_unique", "_unique2", "unique_consecutive",
       "unique_dim", "_local_scalar_dense", "tolist", "cpu", "argwhere"},
      Callee->getName());
}

bool opaqueCallMayOrder(const CallExpr *C, const FunctionDecl *Callee,
                        const ASTContext &Ctx) {
  if (!Callee)
    return true; // a function pointer: anything
  if (synchronizesCurrentStream(C, Callee))
    return true;
  if (Callee->getBuiltinID())
    return false;
  if (isStreamOrderedLibraryCall(C, Callee, Ctx))
    return false; // CUB's Device* on its stream: no sync, no join
  if (rawPointerCastOperand(C))
    return false; // thrust::raw_pointer_cast: the pointer a device_ptr holds
  if (isUnmodelledGpuApi(Callee))
    return !leavesDeviceWorkAlone(Callee->getName());
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return true; // the project's own code, compiled elsewhere
  // std::function and other callable objects run code the check cannot see.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
      Op && Op->getOperator() == OO_Call)
    return true;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(C)) {
    // What a stream wrapper holds: its conversion to a handle, accessors.
    if (const auto *RD = M->getRecordDecl(); RD && isStreamWrapper(RD))
      if (isa<CXXConversionDecl>(Callee) ||
          (Callee->getIdentifier() &&
           llvm::is_contained({"stream", "value", "id", "device",
                               "device_index", "device_type", "unwrap",
                               "is_default", "priority"},
                              Callee->getName())))
        return false;
    // A device container's storage and sizes (`v.data()`, `v.begin()`,
    // `v.size()` of a thrust::device_vector or rmm::device_uvector, `p.get()`
    // of a thrust::device_ptr): read off the object, no device work.
    if (const Expr *Obj = M->getImplicitObjectArgument();
        Obj && (isDeviceContainer(Obj->IgnoreImpCasts()->getType()) ||
                isThrustDevicePtr(Obj->IgnoreImpCasts()->getType())) &&
        (dataAccessorObject(M) || deviceIteratorObject(M) ||
         (Callee->getIdentifier() && isMetadataMethod(Callee->getName()))))
      return false;
    if (const Expr *Obj = M->getImplicitObjectArgument();
        Obj && mayHoldStream(Obj->getType()))
      return true;
  }
  for (const Expr *A : C->arguments())
    if (A && mayHoldStream(A->getType()))
      return true;
  return false;
}

const StreamOrderingFacts &orderingFactsOf(const FunctionDecl *Def,
                                           const ApiModel &Model,
                                           ASTContext &Ctx, unsigned Depth,
                                           StreamOrderingCache &Cache) {
  if (auto It = Cache.find(Def); It != Cache.end())
    return It->second;
  StreamOrderingFacts Out;
  // Recursion through Def meets this provisional entry: it may order.
  Cache[Def].Orders = true;
  if (!Def || !Def->getBody())
    Out.Orders = true;
  else
    OrderingWalk(Def, Model, Ctx, Depth, Cache, Out)
        .TraverseStmt(const_cast<Stmt *>(Def->getBody()));
  return Cache[Def] = std::move(Out);
}

} // namespace clang::tidy::cuda
