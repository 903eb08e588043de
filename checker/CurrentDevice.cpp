//===--- CurrentDevice.cpp - The device current at a call ---------------===//
//
// FunctionFacts' current device: which device a call that names none (a
// copy on stream 0, cudaDeviceSynchronize) runs on, as far as this
// callable's own cudaSetDevice / hipSetDevice calls say. The CUDA Runtime
// API: cudaSetDevice "Sets device as the current device for the calling
// host thread"; cudaDeviceSynchronize "Blocks until the device has completed
// all preceding requested tasks" -- the current device's tasks only, so a
// copy issued while another device was current is not waited for.
//
// Followed only in straight-line code of one callable: anything that may
// change the device in between (a branch or loop that sets it, a call that
// may, a device guard, the caller's choice) makes it unknown, and an
// unknown device is covered by any device sync (no claim).
//
// May call: FunctionFacts (loops, constants, the parent map), ExprUtils.
// Called by the Solver (device syncs).
//
//===----------------------------------------------------------------------===//

#include "FunctionFacts.h"
#include "ExprUtils.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {
namespace {

/// Functions that make their first argument, a device ordinal, the calling
/// thread's current device (CUDA Runtime API cudaSetDevice, HIP
/// hipSetDevice, c10::cuda::set_device).
bool setsOrdinal(const FunctionDecl *FD) {
  std::string Name = FD->getQualifiedNameAsString();
  return Name == "cudaSetDevice" || Name == "hipSetDevice" ||
         Name == "c10::cuda::set_device" || Name == "c10::cuda::SetDevice";
}

/// Other calls that change the current device or context in a way not
/// followed here (the driver API's contexts, c10's exchanges).
bool changesContext(const FunctionDecl *FD) {
  static const char *const Names[] = {
      "cuCtxSetCurrent",       "cuCtxPushCurrent",    "cuCtxPushCurrent_v2",
      "cuCtxPopCurrent",       "cuCtxPopCurrent_v2",  "cudaSetValidDevices",
      "hipCtxSetCurrent",      "hipCtxPushCurrent",   "hipCtxPopCurrent",
      "cudaGLSetGLDevice",     "c10::cuda::MaybeSetDevice",
      "c10::cuda::ExchangeDevice", "c10::cuda::MaybeExchangeDevice"};
  std::string Name = FD->getQualifiedNameAsString();
  return llvm::is_contained(Names, Name);
}

/// A device guard (c10::cuda::CUDAGuard, OptionalCUDAGuard,
/// CUDAStreamGuard, c10::DeviceGuard, HIP's): it sets the device when made
/// and restores it when destroyed.
bool isDeviceGuard(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  llvm::StringRef Name = RD->getName();
  return Name.contains("Guard") &&
         (Name.contains("Device") || Name.contains("CUDA") ||
          Name.contains("HIP") || Name.contains("Stream"));
}

/// The calls and constructions S makes, lambdas' bodies included.
void collectCalls(const Stmt *S, llvm::SmallVectorImpl<const Expr *> &Out) {
  if (!S)
    return;
  if (isa<CallExpr>(S) || isa<CXXConstructExpr>(S))
    Out.push_back(cast<Expr>(S));
  for (const Stmt *C : S->children())
    collectCalls(C, Out);
}

} // namespace

bool FunctionFacts::DeviceSet::covers(const DeviceSet &O) const {
  if (!Bound && !O.Bound)
    return Lo <= O.Lo && O.Hi <= Hi;
  if (Bound && Bound == O.Bound && Last && !O.Last)
    return false; // device n - 1 against any of devices Lo to n - 1
  return true;    // the same symbolic set, or one not comparable
}

std::string FunctionFacts::DeviceSet::describe() const {
  if (!Bound)
    return Hi - Lo == 1 ? "device " + std::to_string(Lo)
                        : "devices " + std::to_string(Lo) + " to " +
                              std::to_string(Hi - 1);
  std::string N = "'" + Bound->getNameAsString() + "'";
  if (Last)
    return "device " + N + " - 1";
  return "devices " + std::to_string(Lo) + " to " + N + " - 1";
}

/// Whether a call to FD may change the current device: a device-setting or
/// context-changing function, a function whose visible body may (three
/// levels deep), or one without a visible body outside system headers. The
/// toolchain's and libraries' other functions do not.
static bool mayChangeDevice(
    const FunctionDecl *FD, const SourceManager &SM, unsigned Depth,
    llvm::DenseMap<const FunctionDecl *, bool> &Cache) {
  if (!FD)
    return true; // a function pointer, std::function: unknown target
  FD = FD->getCanonicalDecl();
  if (auto It = Cache.find(FD); It != Cache.end())
    return It->second;
  bool Changes = true;
  const FunctionDecl *Def = nullptr;
  if (setsOrdinal(FD) || changesContext(FD))
    Changes = true;
  else if (const auto *M = dyn_cast<CXXMethodDecl>(FD);
           M && (isDeviceGuard(M->getParent()) ||
                 (M->isVirtual() && !M->hasAttr<FinalAttr>())))
    Changes = true;
  else if (SM.isInSystemHeader(FD->getLocation()) || FD->isImplicit() ||
           FD->isDefaulted() || FD->isTrivial())
    Changes = false; // the toolchain's, or a compiler-made member
  else if (FD->hasBody(Def) && Depth < 3) {
    Cache[FD] = false; // recursion: assume not while looking
    llvm::SmallVector<const Expr *, 16> Calls;
    collectCalls(Def->getBody(), Calls);
    Changes = false;
    for (const Expr *C : Calls) {
      const FunctionDecl *Callee = nullptr;
      if (const auto *CE = dyn_cast<CallExpr>(C)) {
        if (isa<CUDAKernelCallExpr>(CE))
          continue; // device code sets no host thread's device
        Callee = CE->getDirectCallee();
      } else {
        Callee = cast<CXXConstructExpr>(C)->getConstructor();
      }
      if (mayChangeDevice(Callee, SM, Depth + 1, Cache)) {
        Changes = true;
        break;
      }
    }
  }
  Cache[FD] = Changes;
  return Changes;
}

bool FunctionFacts::callChangesDevice(const Expr *C) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (const auto *CE = dyn_cast<CallExpr>(C))
    return !isa<CUDAKernelCallExpr>(CE) &&
           mayChangeDevice(CE->getDirectCallee(), SM, 0, DeviceChangers);
  const auto *CC = cast<CXXConstructExpr>(C);
  const CXXRecordDecl *RD = CC->getConstructor()->getParent();
  return isDeviceGuard(RD) ||
         mayChangeDevice(CC->getConstructor(), SM, 0, DeviceChangers) ||
         (RD && RD->hasUserDeclaredDestructor() &&
          mayChangeDevice(RD->getDestructor(), SM, 0, DeviceChangers));
}

bool FunctionFacts::changesDevice(const Stmt *S) const {
  llvm::SmallVector<const Expr *, 16> Calls;
  collectCalls(S, Calls);
  return llvm::any_of(Calls,
                      [&](const Expr *C) { return callChangesDevice(C); });
}

std::optional<FunctionFacts::DeviceSet>
FunctionFacts::setsDevice(const Stmt *S, const Stmt *At) const {
  // The one device change in S, a device-setting call.
  llvm::SmallVector<const Expr *, 16> Calls;
  collectCalls(S, Calls);
  const CallExpr *Set = nullptr;
  for (const Expr *C : Calls) {
    const auto *CE = dyn_cast<CallExpr>(C);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    if (FD && setsOrdinal(FD) && CE->getNumArgs() >= 1 && !Set) {
      Set = CE;
      continue;
    }
    if (callChangesDevice(C))
      return std::nullopt;
  }
  if (!Set)
    return std::nullopt;
  const Expr *Ordinal = Set->getArg(0);
  // A counting loop before At whose body sets the device to its counter:
  // its last iteration's device.
  if (const auto *L = dyn_cast<ForStmt>(S)) {
    const VarDecl *V = varOf(Ordinal);
    if (!V || !L->getBody() || !within(Set, L->getBody()) ||
        jumpsOut(L->getBody()) || !onEveryPath(PM, Ctx, Set, L->getBody()))
      return std::nullopt;
    if (std::optional<LoopBounds> B = forBounds(L); B && B->Var == V)
      return B->Lo < B->Hi ? std::optional(DeviceSet{B->Hi - 1, B->Hi})
                           : std::nullopt;
    std::optional<FirstTest> T = countingUp(L);
    if (!T || T->Inclusive || counterOf(L) != V || !stepsByOne(L, V))
      return std::nullopt;
    return DeviceSet{T->Lo, 0, T->Bound, /*Last=*/true};
  }
  if (!onEveryPath(PM, Ctx, Set, S))
    return std::nullopt;
  if (std::optional<long long> K = constantArg(Ordinal))
    return DeviceSet{*K, *K + 1};
  // The counter of a loop around both the call and At: this iteration's.
  const VarDecl *V = varOf(Ordinal);
  if (!V)
    return std::nullopt;
  if (auto Range = loopRange(V, Set))
    return DeviceSet{Range->first, Range->second};
  for (const Stmt *P = PM.getParent(Set); P; P = PM.getParent(P))
    if (const auto *L = dyn_cast<ForStmt>(P);
        L && L->getBody() && within(Set, L->getBody())) {
      std::optional<FirstTest> T = countingUp(L);
      if (counterOf(L) != V)
        continue;
      if (!T || T->Inclusive || !within(At, L->getBody()))
        return std::nullopt;
      return DeviceSet{T->Lo, 0, T->Bound};
    }
  return std::nullopt;
}

std::optional<FunctionFacts::DeviceSet>
FunctionFacts::currentDevice(const Stmt *At) const {
  if (auto It = DeviceCache.find(At); It != DeviceCache.end())
    return It->second;
  std::optional<DeviceSet> Found;
  latestBefore(
      At,
      [&](const Stmt *S) {
        if ((Found = setsDevice(S, At)))
          return WalkStep::Found;
        return changesDevice(S) ? WalkStep::Stop : WalkStep::Next;
      },
      // At itself (the copy or the sync) is not what set the device.
      [&](const Stmt *S) { return S != At && changesDevice(S); });
  DeviceCache[At] = Found;
  return Found;
}

} // namespace clang::tidy::cuda
