//===--- EffectBuilder.h - Builder of one callable's effects -*- C++ -*-===//
//
// Private to the effect builder's files (Effects.cpp: the walk of calls,
// plain copies, destructors, lambdas and host accesses; TensorAndBatchCopies.cpp:
// copies whose destinations are an array's elements or a libtorch result;
// ProducerEffects.cpp: the producer diagnostic's effects). Only those
// three files include it; everything else calls buildEffects (Effects.h).
//
// May call: what Effects.h may call.
//
//===----------------------------------------------------------------------===//

#ifndef CARS_EFFECTBUILDER_H
#define CARS_EFFECTBUILDER_H

#include "Effects.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "LibraryProducers.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::cuda {

/// `object.method(args...)` built for the summary machinery (a destructor
/// or constructor run on a local, a lambda a thread runs): a call the
/// source does not spell, which rebases `this` to Object.
const CallExpr *syntheticMemberCall(ASTContext &Ctx, const Expr *Object,
                                    const CXXMethodDecl *Method,
                                    llvm::ArrayRef<const Expr *> Args,
                                    SourceLocation At);

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
  /// NeedsHost: a copy of inferred direction into memory of unknown kind
  /// (CopySite::NeedsHostDestination).
  const Expr *d2hDestination(const CallExpr *C, const ApiEntry &E,
                             bool &Pageable, bool &NeedsHost);
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
  void addConstructorCall(const CXXConstructExpr *K);
  const VarDecl *heapHolder(const Stmt *New) const;
  const VarDecl *objectHolder(const CallExpr *C) const;
  void addMadeObject(const CallExpr *C);
  void addConstruction(const Expr *Anchor, const VarDecl *V,
                       const CXXConstructorDecl *Ctor,
                       llvm::ArrayRef<const Expr *> Args);
  /// `p.reset(...)` of a std::unique_ptr whose deleter the check can read:
  /// the deleter runs on the old pointer there. False for any other call.
  bool addUniquePtrReset(const CallExpr *C, const FunctionDecl *Callee);
  /// A synthetic call C of Callee (a destructor, a deleter) as a helper
  /// call: its summary applies at Anchor; Var: a local destroyed there
  /// (Effect::Var), Loc where its effects are noted.
  void addSyntheticCall(const Stmt *Anchor, const CallExpr *C,
                        const FunctionDecl *Callee, const VarDecl *Var,
                        const Expr *Loc);
  // Host-side ordering (HostOrdering.cpp).
  void collectHostOrdering();
  /// A thread (or std::async) starting Fn(Args...) at Start, held by the
  /// variable it initialises or by the container Into (or the one Start is
  /// put into: containerOf).
  void addThreadStart(const Expr *Start, const Expr *Fn,
                      llvm::ArrayRef<const Expr *> Args,
                      const VarDecl *Into = nullptr);
  const VarDecl *initialisedBy(const Expr *Start) const;
  /// The local container of threads or futures Start is put into
  /// (`ts.push_back(std::thread(f))`, `fs.emplace_back(std::async(g))`).
  const VarDecl *containerOf(const Expr *Start) const;
  /// `t.join()` / `f.get()` / `f.wait()` of each element of a container
  /// with a ThreadStart, in a loop over it: true when recorded as one of
  /// Out.JoinLoops.
  bool addJoinLoop(const CXXMemberCallExpr *Wait, const Expr *Object);
  const CallExpr *threadCall(const Expr *Fn, llvm::ArrayRef<const Expr *> Args,
                             SourceLocation At) const;
  /// Threads and futures with a ThreadStart.
  std::set<const VarDecl *> Started;
  template <class Args>
  void addLambdaArgs(const Expr *Call, Args Arguments,
                     const NamedDecl *Callee);
  void collectBatchCopy(const CallExpr *C, const ApiEntry &E);
  void collectTorchCopy(const CallExpr *C, const ApiEntry &E);
  void bindResult(const CallExpr *C, bool Pageable, const StreamRef &S,
                  const Expr *Inner);
  void collectAccessEffects();
  /// The copies of inferred direction into memory of unknown kind
  /// (CopySite::NeedsHostDestination), once the accesses are known: kept
  /// where the callable dereferences the destination on the host, left to
  /// each call in a summary run when it is a parameter, dropped otherwise.
  void decideInferredDirections();
  //--- The producer diagnostic's effects (see Effects.h) --------------------
  /// Device work on stream S at At writes Buf (a device buffer; OnCurrent:
  /// a libtorch op, on the current stream; IfDevice: Buf is a helper's
  /// parameter of unknown kind, device work only where the caller's
  /// argument is device memory).
  void addProducer(const Stmt *At, const Expr *Buf, const StreamRef &S,
                   bool OnCurrent = false, bool IfDevice = false);
  /// A buffer that device work writes only if it is device memory (a
  /// libtorch op's tensor, the destination of a cudaMemcpyDefault copy):
  /// known to be, or, in a helper's summary, a parameter of unknown kind
  /// (the call decides, addHelperProducers).
  bool mayBeDevice(const Expr *Root) {
    return F.provenanceOf(Root) == Provenance::Device || deviceAtCall(Root);
  }
  /// In a helper's summary, a parameter of unknown kind: device memory or
  /// not by the caller's argument.
  bool deviceAtCall(const Expr *Root) {
    const auto *D = dyn_cast<DeclRefExpr>(strip(Root));
    return R.SummaryMode && F.provenanceOf(Root) == Provenance::Unknown &&
           D && isa<ParmVarDecl>(D->getDecl());
  }
  /// The region of a device buffer a producer or a copy names: the
  /// buffer's alias class and the expression as written (`d`, `d + n`,
  /// `bufs[1]`). Producer and copy must name the same region: another
  /// offset or element may be another part of the buffer (a chunked
  /// pipeline), and then no claim is made.
  /// Empty (untracked) for an offset or index that is not a constant:
  /// `d[i]` in a loop names another element each iteration.
  /// A container's data accessor (`v.data()`, isDataAccessor) names the
  /// whole container, as `v` does, unless it returns a member. A whole
  /// buffer that is not a variable (a member, an accessor of one) is named
  /// by its path (wholeRegionKey).
  std::string regionKey(const Expr *E, const Expr *Root) {
    const Expr *X = strip(E);
    // A data accessor of the project's that returns a member (`data()`
    // with `return data_;`): that member, as the class's own methods name
    // it (`this->data_`), so that another member of the object is another
    // buffer. (The access diagnostic names the whole object: cuML's
    // host_buffer, dataAccessorObject.)
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
        MC && dataAccessorObject(MC) && trivialAccessorResult(MC))
      return wholeRegionKey(F.Aliases, AccessPath::of(MC), spelling(X, Ctx));
    // `v.data()`, a device container's `v.begin()`, and
    // `thrust::raw_pointer_cast(v.data())`: the whole of v.
    for (const Expr *Object = X; Object;) {
      X = strip(Object);
      Object = dataAccessorObject(X);
      if (!Object)
        Object = deviceIteratorObject(X);
      if (!Object)
        Object = rawPointerCastOperand(X);
    }
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
    if (X == strip(Root))
      return wholeRegionKey(F.Aliases, AccessPath::of(Root), spelling(X, Ctx));
    return regionKeyOf(F.Aliases, AccessPath::of(Root), spelling(X, Ctx));
  }
  /// A library algorithm's device work on its outputs (LibraryProducers.h).
  void addLibraryProducers(const CallExpr *C, const FunctionDecl *Callee);
  void addThrustCall(const CallExpr *C, const ThrustCall &T);
  /// Block, or the block a `do { ... } while (0)` statement macro whose
  /// body Block is sits in (ProducerEffects.cpp).
  const Stmt *outOfStatementMacros(const Stmt *Block,
                                   const Stmt *&Child) const;
  /// The statement of its block a call is part of, and that block (null
  /// under an `if` or a loop): ProducerEffects.cpp.
  std::pair<const Stmt *, const Stmt *> statementOf(const Stmt *K) const;
  /// The buffer a sparse library's dense descriptor stands for here
  /// (descriptorBinding), or null.
  const Expr *descriptorValues(const Expr *Descriptor);
  /// A helper's production on the stream a handle parameter holds
  /// (HelperSummary::Production::OnHandleStream), at call C: the stream
  /// the handle argument holds there.
  std::optional<StreamRef> heldStreamAtCall(const CallExpr *C,
                                            const HelperSummary::Production &P);
  std::optional<StreamRef> handleStreamAt(const CallExpr *C,
                                          const Expr *Handle);
  std::vector<std::pair<AccessPath, std::optional<StreamRef>>>
  handleStreamsGiven(const CallExpr *K);
  /// Are A and B the same member of two local objects one of which this
  /// callable initialises or assigns from the other (`Ctx b = a;`): the
  /// same handle, held twice.
  bool copiesOfOneObject(const AccessPath &A, const AccessPath &B) const;
  /// Device work (Produce) or a device-to-host copy (Consume) of a buffer
  /// a helper's summary names by a path (a member of the object called on,
  /// of an argument, a global), rebased to the call C (namedAtCall), on S.
  void addNamedBufferWork(Effect::Kind K, const CallExpr *C, AccessPath Path,
                          std::string Name, const StreamRef &S,
                          bool Blocking);
  /// The device work a helper called at C leaves writing its arguments
  /// (and a lambda, writing what it captures: CapturedProduces).
  void addHelperProducers(const CallExpr *C, const HelperSummary &S);
  /// The device-to-host copies a helper makes of its arguments (and a
  /// lambda of what it captures): HelperSummary::Consumes, as the caller's
  /// Consume effects at the call.
  void addHelperConsumers(const CallExpr *C, const HelperSummary &S);
  /// A reference to V at its declaration, which spells its name: a local
  /// object, or a variable a lambda captures as its caller names it.
  Expr *refTo(const VarDecl *V) const;
  /// A device-to-host copy at At reads Src on stream S (Blocking: the call
  /// returns once it is done).
  void addConsumer(const Stmt *At, const Expr *Src, const StreamRef &S,
                   bool Blocking = false);
  /// Work on S at At: on the legacy default stream, a LegacyWork effect;
  /// on another blocking stream, a BlockingWork effect.
  void addStreamWork(const Stmt *At, const StreamRef &S);
  /// The host waits at At for the work on S issued before it (a
  /// StreamSync effect).
  void addStreamSync(const Stmt *At, const StreamRef &S);
  void addBarrier(const Stmt *At);
  /// The producers, consumers and legacy work of a modelled call that is
  /// not a device-to-host copy (those: addConsumer where they are made).
  void collectDeviceWork(const CallExpr *C, const ApiEntry &E);
  /// A graph launch (ApiRole::GraphLaunch) issues again, on its stream, the
  /// device-to-host copies captured into the graph it runs
  /// (FunctionFacts::launchesCapture): copies at the launch, each with its
  /// captured call as the copy issued inside.
  void relaunchCaptured(const CallExpr *Launch, const ApiEntry &E);
  /// May the kernel launched by K write through its argument I: a pointer
  /// to non-const whose pointee the kernel's body (when visible) changes
  /// (ExprMutationAnalyzer), or may change.
  bool kernelMayWrite(const CUDAKernelCallExpr *K, unsigned I);
  bool kernelMayWrite(const FunctionDecl *Kernel, unsigned I);
  /// `cudaLaunchKernelEx(&cfg, kernel, args...)` (the runtime's C++ form,
  /// CUDA Runtime API "Execution Control"): the kernel's work on
  /// `cfg.stream`, each argument it may write produced there. False (the
  /// call is left to the other rules) where the kernel or the
  /// configuration's stream is not known.
  bool collectExtensibleLaunch(const CallExpr *C);
  /// `std::for_each(v.begin(), v.end(), f)` where f synchronizes its
  /// stream parameter on every path (a lambda, a helper, or
  /// cudaStreamSynchronize itself): it runs f on every element before it
  /// returns, a sync of each stream of v (as a range-for over v would be).
  void collectElementwiseSync(const CallExpr *C, const NamedDecl *Callee);
  /// kernelMayWrite's walks of kernel bodies, per parameter.
  llvm::DenseMap<const ParmVarDecl *, bool> KernelReadsOnly;
  /// The ordering a helper called at C (Def: its definition) brings
  /// (StreamOrdering.h). Its work on a stream parameter whose argument is
  /// a known stream (a default stream, a stream created here or a created
  /// member) is added as that stream's work at C (addStreamWork). Returns
  /// whether the call may order device work otherwise (Effect::MayOrder):
  /// whatever its arguments, or by work on a stream parameter handed a
  /// stream the check cannot name (nothing is added then), or by an event
  /// record or wait its summary S does not carry on every path.
  bool addHelperOrdering(const CallExpr *C, const FunctionDecl *Def,
                         const HelperSummary *S);
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
  /// Alias classes some copy into which writes known bytes (CopySite::Bytes):
  /// only their accesses ask for their own bytes (accessRegion).
  std::set<std::string> RegionClasses;
  /// Device-to-host copies issued on a capturing stream, not run there.
  struct CapturedCopy {
    const CallExpr *Call;
    const Expr *Root;
    StreamRef Stream;
    bool Pageable, NeedsHost;
  };
  std::vector<CapturedCopy> Captured;
  std::set<const Stmt *> BindingAssignments; ///< `t = b.to(kCPU, true)`
  std::set<const Stmt *> DeviceWrites; ///< `dst.copy_(gpu, ...)`
  /// Calls of functions without a visible body nor a model row, with their
  /// callees: the producer diagnostic's possible barriers.
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> OpaqueCalls;
};

} // namespace clang::tidy::cuda

#endif // CARS_EFFECTBUILDER_H
