//===--- FunctionFacts.h - What one AST walk learns of a callable -*- C++ -*-===//
//
// One concern: the flow-insensitive facts about one callable's body,
// gathered by a single AST walk before the data flow runs, and the queries
// over them:
//  - the calls, candidate buffer occurrences, assignments and writes of
//    local variables, in source order;
//  - aliases and provenance of buffers (pinned / device / pageable), from
//    allocations, assignments and libtorch tensor origins;
//  - stream identity: which stream an expression names (legacy, per-thread,
//    a created one; non-blocking when created so), libtorch's current stream
//    at a point (stream guards, setCurrentCUDAStream);
//  - variables that hold a query's result, variables that are changed or
//    whose address escapes, constants, fields of parameter structs.
//
// May call: CudaApiModel, TorchModel, ExprUtils, AccessPath, LibraryCode,
// StreamOrigins. Read (and its alias classes extended) by Effects, the
// Solver and HelperSummaries.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_FUNCTIONFACTS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_FUNCTIONFACTS_H

#include "AccessPath.h"
#include "AsyncCopyAnalysis.h"
#include "CallerContexts.h"
#include "CudaApiModel.h"
#include "IndexValues.h"
#include "StreamOrigins.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class FunctionFacts {
public:
  /// PerThreadOption: the check's option (or the translation unit's macro)
  /// says stream 0 is the per-thread default stream.
  FunctionFacts(ASTContext &Ctx, const ApiModel &Model,
                const FunctionDecl *FD, bool PerThreadOption);
  FunctionFacts(const FunctionFacts &) = delete;
  FunctionFacts &operator=(const FunctionFacts &) = delete;

  /// Walks the body and derives the facts. False when there is no body or
  /// it contains errors (then nothing else may be asked).
  bool collect();

  ASTContext &Ctx;
  const ApiModel &Model;
  const FunctionDecl *FD;
  const Stmt *Body;
  ParentMap PM;

  //--- Gathered by the walk, in source order ------------------------------
  std::vector<const CallExpr *> Calls;
  std::vector<const CXXConstructExpr *> ThreadStarts; ///< std::thread(f, ...)
  /// `T v(args)`: constructions by a user-provided constructor that is not
  /// a copy or move constructor (Effects applies its summary on v).
  std::vector<const CXXConstructExpr *> Constructions;
  std::vector<const CXXConstructExpr *> StreamGuards; ///< CUDAStreamGuard
  std::vector<const CXXForRangeStmt *> RangeLoops;
  /// `lhs = rhs` (Var set when lhs names a variable) and `T var = rhs`
  /// (Lhs null); std::swap / std::exchange of pointers give one per
  /// variable they change. At: the statement that makes it (the
  /// assignment, the swap's call, the initialiser).
  struct Assignment {
    const Expr *Lhs;
    const VarDecl *Var;
    const Expr *Rhs;
    const Stmt *At = nullptr;
  };
  std::vector<Assignment> Assigns;
  /// Every DeclRefExpr of a variable, MemberExpr and pointer-typed
  /// ArraySubscriptExpr (or subscript of a std::vector, isStdSequence):
  /// where a tracked buffer may occur.
  std::vector<const Expr *> Candidates;
  /// Where local variables get a new value: conditions known about them
  /// stop holding there.
  std::vector<std::pair<const VarDecl *, const Stmt *>> Writes;
  /// Where the elements of an array, container or pointed-to array rooted
  /// at a variable may change (`bufs[0] = a`, `std::swap(bufs[0],
  /// bufs[1])`, `rotate(bufs)`, `slots[i].reset()`, `for (auto &sl :
  /// slots)`): a copy's element index names another element after it
  /// (PendingCopy::IndicesHeld).
  std::vector<std::pair<const VarDecl *, const Stmt *>> ElementWrites;
  std::set<const VarDecl *> MutatedVars;
  /// Variables whose address escapes (&v, bound to a non-const reference,
  /// captured by reference by a lambda that may change them): their value
  /// may change behind the analysis.
  std::set<const VarDecl *> AddressTaken;
  /// Captured by reference by a lambda whose body may change it (clang's
  /// ExprMutationAnalyzer on the body, or a nested by-reference capture):
  /// `[&] { s2 = s1; }()` may change s2 wherever the lambda runs, not s1
  /// (a subset of AddressTaken).
  std::set<const VarDecl *> CapturedByRef;
  /// Bound to a non-const reference parameter of a function outside the
  /// standard library, which may change it (a subset of AddressTaken).
  std::set<const VarDecl *> BoundToReference;
  /// Local variables of class type whose destructor has a body the check
  /// reads (summarizable): it runs where each goes out of scope (the CFG's
  /// CFGAutomaticObjDtor elements), as a call on the variable. In
  /// declaration order, each with the end of its scope (the closing brace
  /// of the block declaring it, or the end of the statement whose
  /// condition or init-statement does).
  std::vector<std::pair<const VarDecl *, SourceLocation>> DestroyedVars;

  //--- Derived --------------------------------------------------------------
  AliasClasses Aliases;
  /// Local pointer variables followed by value (PointerValues.cpp): each
  /// is given a new pointer by a plain assignment or a std::swap somewhere
  /// in the callable (`cur = next;`), or is initialised from one such
  /// (`float *tmp = cur;`); its address is taken only by a pinned or device
  /// allocation (`cudaMallocHost(&cur, n)`), and no lambda or function
  /// other than the standard library's may change it. Which pending copies
  /// one may hold is part of the solver's state (PendingCopy::Holders).
  std::set<const VarDecl *> FollowedPointers;
  /// A definition of a followed pointer: the value it is given (null: a
  /// new allocation through its address).
  struct PointerDefinition {
    const VarDecl *Var;
    const Expr *Value;
  };
  /// The definitions of followed pointers, by the statement that makes
  /// them: all of one statement at once (`std::swap(cur, next)`).
  std::map<const Stmt *, std::vector<PointerDefinition>> PointerDefinitions;
  /// Alias classes of the assignments other than the followed pointers'
  /// (`next = base + 64`, `float *ring[2] = {a, b}`): which paths a
  /// followed pointer's value may meet (PointerValues.cpp).
  AliasClasses ValueClasses;
  /// Per-thread default-stream mode: the option, or a call of the API's
  /// per-thread variants (cudaMemcpyAsync_ptsz) anywhere in the callable.
  bool PerThread;
  /// Results of cudaStreamQuery / cudaEventQuery kept in a variable, when
  /// every value the variable is given is the same query.
  llvm::DenseMap<const VarDecl *, const CallExpr *> QueryVars;
  /// Calls of helpers that return whether a query succeeded
  /// (HelperSummary::ReturnsQuerySuccess; set by EffectBuilder): a branch
  /// on one is a branch on that query's result.
  std::set<const CallExpr *> QueryWrapperCalls;

  /// Parameters bound at the call being summarized (CallBindings).
  CallBindings Bound;
  /// Per helper definition, across the translation unit (owned by
  /// AsyncCopyAnalysis; null: not cached): whether its body sets the
  /// current stream. A helper called from hundreds of callables was walked
  /// once per caller.
  llvm::DenseMap<const FunctionDecl *, bool> *SetsCurrentStreamCache =
      nullptr;
  /// Members' and globals' streams across the translation unit (owned by
  /// AsyncCopyAnalysis; null: none known).
  StreamOrigins *Origins = nullptr;
  /// What the callers of this callable (or of the function declaring a
  /// variable it captures) give it (owned by AsyncCopyAnalysis; null: the
  /// context is not read).
  CallerContexts *Contexts = nullptr;

  //--- Queries --------------------------------------------------------------
  /// The function a call calls: its direct callee, the function a bound
  /// function-pointer parameter stands for (`query(object)`), or the one a
  /// const pointer or a const table's element by a constant index is
  /// initialised with (`kWait[kPolicy](s)`). Null when unknown.
  const FunctionDecl *calleeOf(const CallExpr *C) const;
  bool isFollowedPointer(const VarDecl *V) const {
    return V && FollowedPointers.count(V);
  }
  /// The model's row for a call's callee (calleeOf), or null.
  const ApiEntry *lookup(const CallExpr *C) const {
    return Model.lookup(calleeOf(C));
  }
  /// The stream an argument names; null: the argument was omitted (the
  /// default stream).
  StreamRef streamOf(const Expr *E);
  /// The stream or event a handle path holds, by value (a handle is a
  /// pointer: copying it names the same stream). Followed, up to 4 steps:
  ///  - a local variable (not a parameter, not an init-capture, whose
  ///    summary names the caller's object by it, not a reference) of non-class
  ///    type, never changed after its initialiser and whose address does
  ///    not escape: `cudaStream_t t = s;` holds s;
  ///  - a member of a local object, `c.m`, initialised by aggregate
  ///    initialisation (`Ctx c{s}`) or by a constructor with a visible body
  ///    whose member initialiser copies one of its parameters (`Guard(
  ///    cudaStream_t s) : s_(s) {}` at `Guard g(s)`), when neither this
  ///    function (ExprMutationAnalyzer), nor the constructor's body, nor a
  ///    non-const member function called on the object changes it (a
  ///    member function without a visible body might: then not followed).
  /// Only to a path rooted at a variable or `this` (a call's result is not
  /// followed: two calls may return different streams). The variable
  /// copied from may be assigned later (`t = s; s = other;`): t is still
  /// taken as s, a race missed rather than a false warning in loops such as
  /// `s = streams[i]; cudaStream_t t = s;`. Else P itself.
  AccessPath handleValue(const AccessPath &P) const;
  /// handleValue(AccessPath::of(E)).
  AccessPath handleOf(const Expr *E) const {
    return handleValue(AccessPath::of(E));
  }
  /// Which elements of an array or container of streams or events an
  /// expression names (ElementRange): `s[c]` with c constant, `s[i]` with i
  /// the induction variable of a loop around the expression that runs it
  /// from constant to constant (`for (int i = 0; i < N; ++i)`, i changed
  /// nowhere else in the loop), `v[i]` of a container, and a range-for's
  /// variable (every element of its range; [0, N) of an array of N).
  /// nullopt when the expression is not an element.
  std::optional<ElementRange> elementsOf(const Expr *E) const;
  /// The same for a path whose last step is an element (`ev_[0]`, `ev_[k]`
  /// of a helper's summary rebased to this callable's argument k, whose
  /// index expression is then this callable's); nullopt otherwise.
  std::optional<ElementRange> elementsOfPath(const AccessPath &P) const;
  /// Is stream S being captured into a graph at call At: a
  /// cudaStreamBeginCapture of the same stream comes before At in this
  /// callable, with no cudaStreamEndCapture of it in between (in source
  /// order)? Work issued then is recorded, not run.
  bool capturing(const Expr *At, const StreamRef &S) const;
  /// Does the graph launch Launch (ApiRole::GraphLaunch) run what was
  /// captured on stream S at At: the first cudaStreamEndCapture(s, &g) of
  /// S after At returned graph g, and Launch's executable graph x was last
  /// instantiated before it from g (cudaGraphInstantiate(&x, g, ...)), all
  /// in this callable in source order, g not captured into again in
  /// between? Only variables and members named at every step are followed
  /// (a graph or executable graph handed through a pointer is not), and a
  /// capture that records an event on S after At is not (the event's
  /// record in the graph is not modelled): false, a race missed.
  bool launchesCapture(const CallExpr *Launch, const Expr *At,
                       const StreamRef &S) const;
  /// A loop whose body runs at least once whenever the loop is reached:
  /// a `for` over constant bounds (forBounds) with Lo < Hi, or a range-for
  /// over an array of known, non-zero size or a non-empty braced list (in
  /// place, or the unchanged initialiser of a local container). (A `break`
  /// may still leave the body early; the CFG shows that.)
  bool certainlyRuns(const Stmt *Loop) const;
  /// A `for` over constant bounds (forBounds) with exactly one iteration,
  /// its counter not changed in the body: its back edge is never taken.
  bool runsOnce(const Stmt *Loop) const;
  /// Is V, a local pointer declared (at At: its initializer, or its
  /// declaration when it has none) in the body of a loop, bound to another
  /// buffer in each iteration of the innermost loop around it? Its
  /// initializer names an element by that loop's own counter
  /// (`float *h = items[i].data` in `for (...; ...; ++i)`, i written nowhere
  /// in the body) or by a range-for's variable (`float *h = it.data`); or it
  /// has no initializer, is never assigned, and a pinned allocation gives
  /// it its value (`float *h; cudaMallocHost(&h, n);`). Elements by another
  /// index (`bufs[i % 2]`, a ring) and an outer loop's counter are not.
  bool newBufferEachIteration(const VarDecl *V, const Stmt *At);
  /// The test a `for` loop's first iteration passes, when its bound is a
  /// variable that keeps one value in the callable: counter from constant
  /// Lo, `counter < N` or `counter <= N` (N a local or parameter never
  /// changed, or changed only before the loop and outside every loop:
  /// `int n; cudaGetDeviceCount(&n);`). Two loops with equal tests run
  /// their first iteration together: if one ran, so does the other.
  struct FirstTest {
    long long Lo;
    const VarDecl *Bound;
    bool Inclusive; ///< `<=`
    bool operator==(const FirstTest &O) const {
      return Lo == O.Lo && Bound == O.Bound && Inclusive == O.Inclusive;
    }
  };
  std::optional<FirstTest> firstTest(const Stmt *Loop) const;
  /// firstTest of a for loop whose counter only grows (`++i`, `i++`, `i +=
  /// 1`, written nowhere in the body): every entry of its body has the
  /// bound past the counter's first value, not only the first.
  std::optional<FirstTest> countingUp(const ForStmt *L) const;
  /// Is S inside the body of a loop whose first test is T?
  bool inLoopWithFirstTest(const Stmt *S, const FirstTest &T) const;
  /// Where an event record `cudaEventRecord(ev[i], s)` (Record, naming
  /// EventE on stream expression StreamE, null for an omitted stream 0)
  /// lies in a `for` loop over counter i from constant Lo to constant Hi
  /// (forBounds: the counter steps by one), the loop and the element Hi - 1
  /// it names in the last iteration, when every run of the loop that ends by
  /// its test ran the record in that iteration on one stream: no `break`,
  /// `continue` or `goto` of the loop in its body, the record on every path
  /// through the body (not under a branch, a nested loop or a lambda), and
  /// a stream that is the same in every iteration (variables declared
  /// outside the loop and not written in its body, their members, this,
  /// constants). After such a loop, then, the latest record of the array
  /// is of element Hi - 1, and in stream order after every earlier
  /// iteration's work on that stream. nullopt otherwise.
  std::optional<std::pair<const ForStmt *, long long>>
  lastIterationElement(const Expr *EventE, const Expr *StreamE,
                       const Stmt *Record) const;
  /// The device current at a call (CurrentDevice.cpp): the ordinals the
  /// calling thread's current device may have there, as this callable's own
  /// cudaSetDevice / hipSetDevice calls say (CUDA Runtime API,
  /// cudaSetDevice: "Sets device as the current device for the calling host
  /// thread"). Lo..Hi are ordinals; with Bound, Hi is that variable's value
  /// (a loop's bound, `for (d = 0; d < n; ++d)`, n kept from the loop on).
  struct DeviceSet {
    long long Lo = 0, Hi = 0; ///< [Lo, Hi), or with Bound [Lo, Bound)
    const VarDecl *Bound = nullptr;
    bool Last = false; ///< with Bound: the one device Bound - 1
    /// Every device of O is one of these (where that holds for every value
    /// of Bound).
    bool covers(const DeviceSet &O) const;
    /// "device 1", "devices 0 to 3", "devices 0 to 'n' - 1", "device 'n' - 1".
    std::string describe() const;
  };
  /// The devices current at At: set by a cudaSetDevice (or hipSetDevice) of
  /// this callable that reaches At in straight-line code (a constant
  /// ordinal, or the counter of a counting loop around both), or by the
  /// last iteration of a counting loop before At whose body sets the device
  /// to its counter on every path (no break, continue or goto: after `for
  /// (d = 0; d < n; ++d) cudaSetDevice(d);` device n - 1). nullopt where
  /// anything else may have changed it since (a branch or a loop that sets
  /// it, a call that may, a device guard object, the caller).
  std::optional<DeviceSet> currentDevice(const Stmt *At) const;
  /// What the walk back from a statement finds in an earlier statement
  /// (latestBefore): the answer, a possible change (the walk stops), or
  /// neither.
  enum class WalkStep { Next, Found, Stop };
  /// The walk back from At through what runs before it in straight-line
  /// code (reachingValue, currentDevice): in each block around At, the
  /// statements before it, latest first, each given to Reach. Changes says
  /// whether a statement may change what is asked: the statement holding
  /// At in each block, and each loop around At (a change later in its body
  /// reaches At in the next iteration), end the walk if so. The statement
  /// Reach found, or null: a Stop, a label, a case or a lambda's body ends
  /// the walk.
  const Stmt *latestBefore(const Stmt *At,
                           llvm::function_ref<WalkStep(const Stmt *)> Reach,
                           llvm::function_ref<bool(const Stmt *)> Changes) const;
  /// What local V is at At, where it stands for an element index or an
  /// element of an array of buffers: the definition reaching At in
  /// straight-line code (reachingValue) when it is an index expression of
  /// other variables (`const int nxt = 1 - cur;`) or, for a pointer, an
  /// element of an array of buffers (`float *src = bufs[cur];`), and
  /// nothing between it and At changes what it read (its variables, the
  /// array's elements). Null otherwise.
  const Expr *definedAs(const VarDecl *V, const Stmt *At) const;
  /// Path P read at At with such locals replaced by their definitions:
  /// its root (`src[0]` as `bufs[cur][0]`) and its indices that are one
  /// (`bufs[nxt]` as `bufs[1 - cur]`), so that two elements of one array
  /// can be told apart (ElementIndices.h).
  AccessPath expandAliases(const AccessPath &P, const Stmt *At) const;
  /// Is R a read of its variable's value (converted to an rvalue, through
  /// parentheses)?
  bool readsValue(const DeclRefExpr *R) const;
  /// Is S Ancestor or inside it?
  bool within(const Stmt *S, const Stmt *Ancestor) const;
  /// The container a loop runs over, when it runs over all of it: a
  /// range-for's range, or X of `for (i = 0; i < X.size(); ++i)`.
  std::optional<AccessPath> loopContainer(const Stmt *Loop) const;
  /// libtorch's current CUDA stream at a point: the innermost
  /// CUDAStreamGuard in scope or the last setCurrentCUDAStream before it,
  /// else the default stream (PyTorch's default: the device's stream 0).
  StreamRef currentStreamAt(SourceLocation L);
  /// A stream this callable creates into local V and changes nowhere else
  /// (StreamRef::Fresh).
  bool isFreshStream(const VarDecl *V) const {
    return FreshStreams.count(AccessPath::ofVar(V)) != 0;
  }
  /// Is the stream with this key created with cudaStreamNonBlocking (or
  /// taken from libtorch's pool)?
  bool isNonBlockingStream(const AccessPath &Stream) const {
    return NonBlockingStreams.count(Stream) != 0;
  }
  /// A named stream whose handle is a member or global (StreamOrigins: the
  /// same in every callable of the unit) every write of which creates a
  /// stream: Created, its Origin and, for cudaStreamNonBlocking, NonBlocking.
  void applyOrigin(StreamRef &S) const;
  /// The stream a math library handle (`cusolver_handle_`, `ctx.blas`)
  /// holds where this callable gives it none: for a handle member or
  /// global whose setters all give one stream member or global
  /// (StreamOrigins::handleStream) of a known origin, that stream --
  /// Created, its Origin that member (or the one it copies), ViaHandle --
  /// named by the handle's path and spelled as the stream member; else
  /// nullopt.
  std::optional<StreamRef> heldByHandle(const Expr *Handle) const;
  /// A local object of class type built here by a constructor other than a
  /// copy or move, handed no other object of its class, and used only
  /// through its members and member functions (none handed such an
  /// object): a created member of it is its own stream (applyOrigin).
  bool ownStreamObject(const VarDecl *V) const;

  /// The provenance of a buffer root (bufferRoot): its alias class's,
  /// or its declaration's (a std::vector, a local array).
  Provenance provenanceOf(const Expr *Root);
  /// The same for a variable of this callable, or one it captures.
  Provenance provenanceOfVar(const VarDecl *V);
  /// What a variable's declaration alone says: std containers and local
  /// arrays and scalars are pageable.
  static Provenance varProvenance(const VarDecl *V);

  /// The value of an argument that names a constant: a literal, an
  /// enumerator, a const variable, a local initialised once and never
  /// changed, a parameter bound to a constant at the call being
  /// summarized and never changed, or a sum, difference or product of
  /// these (`n * sizeof(float)`). nullopt otherwise (on overflow, and for
  /// null).
  std::optional<long long> constantArg(const Expr *E) const;
  /// The value variable V holds wherever the callable reads it: a local
  /// initialised with a constant (constantArg) and never changed (`int nDev
  /// = 4;`, `bool wait = true;`, `size_t bytes = n * sizeof(float);`), or
  /// boundConstant. The one value fact that loop bounds,
  /// branch conditions and arguments read. nullopt otherwise.
  std::optional<long long> knownValue(const VarDecl *V) const;
  /// The values integer variable V may hold at At (IndexValues.cpp): a
  /// local's from its declaration and every write of it, where each write
  /// is one evaluateAt follows and the values stay few (`head = (head + 1)
  /// % 3`: [0, 2]); a loop counter's in its loop's body, from its first
  /// value and its test `i < e` (below the type's largest value; `i != e`
  /// from 0 alike); the
  /// constant bounds of its loop (loopRange). nullopt when unknown: a
  /// parameter, a variable whose address escapes, another write.
  std::optional<IndexInterval> valueRange(const VarDecl *V,
                                          const Stmt *At) const;
  /// Where S is a local that a math library's getter
  /// (isHandleStreamGetter) gave the stream of a handle parameter, which
  /// the callable neither changes nor gives a stream by a setter: that
  /// parameter and the getter. nullopt otherwise.
  std::optional<std::pair<const ParmVarDecl *, const FunctionDecl *>>
  handleParamStream(const StreamRef &S) const;
  /// knownValue's variables being evaluated (`int n = n + 1;` ends).
  mutable llvm::SmallPtrSet<const VarDecl *, 4> ValuesOpen;
  /// The references to V among Candidates, from an index built on first
  /// use (a scan of every candidate per variable was quadratic in the
  /// number of variables: streams, guards).
  llvm::ArrayRef<const DeclRefExpr *> refsOf(const VarDecl *V) const;
  /// The value every object of FD's class holds in FD, when FD is a const
  /// member (C++ [dcl.type.cv]: not changed after construction) of an
  /// integral or enumeration type that every constructor (copies and moves
  /// aside, which copy it) initialises with the same constant, in its
  /// initializer list or by FD's default member initializer (`Reader() :
  /// blocking_(true) {}`), and every constructor's definition is visible;
  /// nullopt otherwise.
  std::optional<long long> knownFieldValue(const FieldDecl *FD) const;
  /// The constant a write of V (an entry of Writes) gives it: `v = C`, or
  /// the declaration's initializer; nullopt for anything else (`v += 1`,
  /// `++v`, a call's result).
  std::optional<long long> writtenConstant(const VarDecl *V,
                                           const Stmt *At) const;
  /// Some write of V gives it a constant (writtenConstant).
  bool writtenWithConstant(const VarDecl *V) const {
    return llvm::any_of(writesOf(V), [&](const Stmt *At) {
      return writtenConstant(V, At).has_value();
    });
  }
  /// The constant parameter V is bound to at the call being summarized
  /// (CallBindings::Constants), when the callable never changes V; nullopt
  /// otherwise.
  std::optional<long long> boundConstant(const VarDecl *V) const;

  /// The last value written to Field of the parameter struct behind `Ptr`
  /// (`&p`) before call C, or nullptr. Field is a ParamsStructFields name
  /// (`dstPtr.ptr` also finds `dstPtr = make_cudaPitchedPtr(h, ...)`).
  const Expr *paramsField(const Expr *Ptr, const CallExpr *C,
                          llvm::StringRef Field) const;

  /// The cudaMemcpyKind of a copy: its kind argument, the direction its
  /// function always has, or the fields of its parameter struct.
  std::optional<long long> copyKind(const CallExpr *C, const ApiEntry &E) const;

  /// For a call of a helper (a visible body outside system headers) whose
  /// every return statement returns the same pointer parameter
  /// (`float *download(float *p, ...) { ...; return p; }`; a stream or
  /// event handle the body never changes, `return e;`), or a std::optional
  /// of it with `return std::nullopt;` on other paths: the argument for
  /// it; for `std::exchange(a, v)` of buffer pointers, `a`. Else null.
  const Expr *returnedArgument(const Expr *E) const;
  /// For a call E of a helper (a visible body outside system headers) whose
  /// every return statement returns an aggregate initialised with the same
  /// parameter for Field, which it never changes (`return Pending{h, n,
  /// s};`): the call's argument for that parameter, which Field of the
  /// result holds; else null (C++ [dcl.init.aggr]).
  const Expr *returnedField(const Expr *E, const FieldDecl *Field) const;

  /// What this callable's return statements return (not those of lambdas
  /// or local classes in it); null for `return;`.
  std::vector<const Expr *> returnedValues() const;

  /// The pointer an allocation call writes: `&p` (or `(void **)&p`).
  const Expr *allocTarget(const CallExpr *C, const ApiEntry &E) const;

private:
  class Walker;
  /// p.dstPtr = make_cudaPitchedPtr(h, ...); p.dstPtr.ptr = h; p.kind = k;
  struct ParamsWrite {
    const VarDecl *Var;
    std::string Field;
    const Expr *Value;
  };
  /// Where libtorch's current stream changes: from Begin to the end of
  /// Scope (or of the function, for a null Scope), in source order.
  struct StreamSetter {
    SourceLocation Begin;
    const Stmt *Scope;
    StreamRef Stream;
  };

  /// `for (int i = Lo; i < Hi; ++i)` (also `i = Lo`, `<=`, `!=`, `Hi > i`,
  /// `i += 1`) with constant bounds.
  struct LoopBounds {
    const VarDecl *Var;
    long long Lo, Hi;
  };
  std::optional<LoopBounds> forBounds(const ForStmt *L) const;
  std::optional<long long> rangeArraySize(const CXXForRangeStmt *L) const;
  std::optional<long long> rangeListSize(const CXXForRangeStmt *L) const;
  /// The values [Lo, Hi) induction variable V takes at At, from the loops
  /// around At; nullopt when unknown.
  std::optional<std::pair<long long, long long>>
  loopRange(const VarDecl *V, const Stmt *At) const;
  /// A for loop's counter, a different value in each iteration (see
  /// LoopFacts.cpp), or null.
  const VarDecl *counterOf(const ForStmt *L) const;
  StreamRef computeStreamOf(const Expr *E);
  /// R's elements [Lo, Hi) for index expression Index at At: a constant,
  /// or a loop counter's range (loopRange); unknown otherwise.
  void indexRange(ElementRange &R, const Expr *Index, const Stmt *At) const;
  /// StreamRef::Supplied of a named stream's handle path (not Created).
  bool suppliedHandle(const AccessPath &P) const;
  /// The one call local V is handed to by address, where every other use
  /// of V reads its value (`hipStream_t s; rocblas_get_stream(h, &s);`):
  /// the call that gives V its value. Null otherwise.
  const CallExpr *outParamCall(const VarDecl *V) const;
  /// Is the handle at P given a value in this callable (assigned, created
  /// into)?
  bool handleWrittenHere(const AccessPath &P) const;
  /// One step of handleValue: the expression P was initialised from.
  const Expr *handleInit(const AccessPath &P) const;
  /// One step of handleValue for a member of a local object copied from
  /// another (`Stage c = st;`, `auto [h, s] = st;`, by an implicit or
  /// defaulted copy or move constructor, which copies each member, C++
  /// [class.copy.ctor]): `c.s` holds what `st.s` held, under handleInit's
  /// conditions on the local and the member. nullopt otherwise.
  std::optional<AccessPath> copiedMember(const AccessPath &P) const;
  /// Does anything change member Field of local object V after its
  /// construction (see handleValue)?
  bool memberChanged(const VarDecl *V, const FieldDecl *Field) const;
  void buildAliasesAndProvenance();
  void collectFollowedPointers();
  void applyTensorOrigin(const AccessPath &Tensor, const Expr *Rhs);
  void collectQueryVars();
  void collectStreamSetters();
  StreamRef guardStream(const Expr *Arg);
  StreamRef anyStream(const Expr *E) const;
  const CXXConstructExpr *guardOf(const Expr *Object) const;
  Provenance declProvenance(const Expr *Root);
  Provenance contextProvenance(const VarDecl *V);
  const Expr *currentStreamSource(const Expr *E) const;
  const Expr *streamSource(const Expr *E) const;

  std::vector<ParamsWrite> ParamsWrites;
  std::vector<StreamSetter> Setters;
  std::set<AccessPath> NonBlockingStreams;
  std::set<AccessPath> FreshStreams; ///< see StreamRef::Fresh
  std::set<const VarDecl *> ReboundStreams; ///< see StreamRef::Rebound
  /// Tensors over host memory (from_blob without CUDA options).
  std::vector<AccessPath> HostTensors;
  llvm::DenseMap<const Expr *, StreamRef> StreamCache; ///< streamOf's
  /// memberChanged's answers.
  mutable std::map<std::pair<const VarDecl *, const FieldDecl *>, bool>
      MemberChangedCache;
  mutable std::optional<
      llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 4>>>
      RefsIndex;
  /// valueRange's interval from V's writes, memoized in WrittenRanges.
  std::optional<IndexInterval> writtenRange(const VarDecl *V) const;
  mutable llvm::DenseMap<const VarDecl *, std::optional<IndexInterval>>
      WrittenRanges;
  /// valueRange's interval of a counter of a loop around At.
  std::optional<IndexInterval> counterRange(const VarDecl *V,
                                            const Stmt *At) const;
  /// Writes of V (from Writes), indexed on first use (loopRange asks per
  /// loop variable).
  llvm::ArrayRef<const Stmt *> writesOf(const VarDecl *V) const;
  mutable std::optional<
      llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Stmt *, 2>>>
      WritesIndex;
  /// N is changed only before Loop, outside any loop (firstTest).
  bool changedOnlyBefore(const VarDecl *N, const Stmt *Loop) const;
  bool stepsByOne(const ForStmt *L, const VarDecl *V) const;
  /// The expression that gave local V (a stream handle the callable
  /// assigns: StreamRef::Rebound) its value at Use, a read of V: the
  /// latest `V = X;` or `T V = X;` before Use in a block around it, with no
  /// other change of V (an assignment, a reference or pointer taken, an
  /// increment) in the statements between, in the statement holding Use,
  /// or in a loop around Use inside that block; no label or case between;
  /// V's address never taken and no lambda capturing it by reference.
  /// Null otherwise (the handle may hold any stream there).
  const Expr *reachingValue(const VarDecl *V, const Expr *Use) const;
  /// A device or context change in S (CurrentDevice.cpp): a call that sets
  /// the current device, or may (a function whose visible body may, one
  /// without a visible body outside system headers, an unknown target), a
  /// device guard's construction.
  bool changesDevice(const Stmt *S) const;
  /// changesDevice of one call or construction (not its arguments).
  bool callChangesDevice(const Expr *C) const;
  /// The devices S leaves current on every path through it, if it sets
  /// them in a way currentDevice follows.
  std::optional<DeviceSet> setsDevice(const Stmt *S, const Stmt *At) const;
  mutable llvm::DenseMap<const Stmt *, std::optional<DeviceSet>> DeviceCache;
  mutable llvm::DenseMap<const FunctionDecl *, bool> DeviceChangers;
  /// The innermost loop whose body holds S, or null (LoopFacts.cpp).
  const Stmt *innermostLoop(const Stmt *S) const;
  /// lastIterationElement's test of a stream expression (LoopFacts.cpp).
  bool invariantIn(const Expr *E, const ForStmt *L) const;
  bool counterKeptByBody(const ForStmt *L, const VarDecl *V) const;
  /// The uses of V in the body that are not reads of its value (writes,
  /// `&V`, bindings to references), from one walk per variable on first
  /// use (firstTest asks per loop and per copy in a loop).
  llvm::ArrayRef<const DeclRefExpr *> changesOf(const VarDecl *V) const;
  mutable llvm::DenseMap<const VarDecl *,
                         llvm::SmallVector<const DeclRefExpr *, 4>>
      ChangesIndex;
  std::vector<const CallExpr *> CaptureCalls; ///< begin / end of a capture
  /// Graph instantiations and event records (launchesCapture), in source
  /// order.
  std::vector<const CallExpr *> GraphCalls;
  /// handleWrittenHere's index: stream handles assigned or created into.
  mutable std::optional<std::set<AccessPath>> WrittenHandles;
  bool Broken = false;
};

/// Does S hold a jump out of the loop whose body it is, or into it: a
/// `break` or `continue` of that loop (not of a loop or switch inside it),
/// a `goto`, a label? Lambdas' bodies are their own. (LoopFacts.cpp)
bool jumpsOut(const Stmt *S, bool InLoop = false, bool InSwitch = false);
/// The variable E names, through parentheses and implicit casts, or null.
/// (LoopFacts.cpp)
const VarDecl *varOf(const Expr *E);
/// Is S run whenever the body Body it is in runs to its end: reached from
/// Body through statements and expressions that evaluate it, not a branch,
/// a loop (but `do { ... } while (0)` of a macro), a handler or a lambda?
/// (LoopFacts.cpp)
bool onEveryPath(const ParentMap &PM, const ASTContext &Ctx, const Stmt *S,
                 const Stmt *Body);
/// A for loop's init `int i = e` or `i = e`: the variable and e, or nulls.
/// (LoopFacts.cpp)
std::pair<const VarDecl *, const Expr *> forInit(const ForStmt *L);
/// A for loop's test on its counter V, written with V on the left: `i < e`,
/// `i <= e`, `i != e` (`e > i`, `e >= i`, `e != i` turned around); the
/// operator and e, or BO_Comma and null. (LoopFacts.cpp)
std::pair<BinaryOperatorKind, const Expr *> counterTest(const ForStmt *L,
                                                        const VarDecl *V);

} // namespace clang::tidy::cuda

#endif
