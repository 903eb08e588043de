//===--- AsyncCopyAnalysis.cpp - Host accesses racing async D2H copies ----===//

#include "AsyncCopyAnalysis.h"
#include "ExprUtils.h"
#include "TorchModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

namespace clang::tidy::cuda {
namespace {

enum class Provenance { Unknown, Pageable, Device, Pinned };

/// Helpers whose bodies are looked through: defined outside system headers,
/// not templated patterns, not virtual (an override may run instead).
const FunctionDecl *summarizable(const FunctionDecl *FD,
                                 const SourceManager &SM) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isTemplated() ||
      Def->isInvalidDecl() || SM.isInSystemHeader(Def->getLocation()))
    return nullptr;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && M->isVirtual())
    return nullptr;
  return Def;
}


//===----------------------------------------------------------------------===//
// Alias classes: union-find over buffer keys
//===----------------------------------------------------------------------===//

class AliasClasses {
public:
  /// Buffers are tracked as a whole, and so are arrays of buffers:
  /// `h[b]` and `h[1 - b]` of a ring of pinned buffers are one class.
  static std::string wholeBuffer(const std::string &Key) {
    std::string R;
    int Depth = 0;
    for (char C : Key) {
      if (C == '[') {
        if (Depth++ == 0)
          R += "[*";
        continue;
      }
      if (C == ']') {
        if (--Depth == 0)
          R += ']';
        continue;
      }
      if (Depth == 0)
        R += C;
    }
    return R;
  }
  unsigned id(const std::string &RawKey) {
    std::string Key = wholeBuffer(RawKey);
    auto [It, New] = Ids.try_emplace(Key, Parent.size());
    if (New) {
      Parent.push_back(Parent.size());
      Prov.push_back(Provenance::Unknown);
    }
    return It->second;
  }
  unsigned find(unsigned I) {
    while (Parent[I] != I)
      I = Parent[I] = Parent[Parent[I]];
    return I;
  }
  unsigned classOf(const std::string &Key) { return find(id(Key)); }
  void unite(const std::string &A, const std::string &B) {
    unsigned X = classOf(A), Y = classOf(B);
    if (X == Y)
      return;
    Parent[Y] = X;
    Prov[X] = std::max(Prov[X], Prov[Y]);
  }
  /// Pinned evidence beats device, which beats pageable.
  void mark(const std::string &Key, Provenance P) {
    unsigned C = classOf(Key);
    Prov[C] = std::max(Prov[C], P);
  }
  Provenance provenance(const std::string &Key) {
    return Prov[classOf(Key)];
  }
  std::string classKey(const std::string &Key) {
    return "#" + std::to_string(classOf(Key));
  }

private:
  llvm::StringMap<unsigned> Ids;
  std::vector<unsigned> Parent;
  std::vector<Provenance> Prov;
};

//===----------------------------------------------------------------------===//
// Events: what happens at a CFG element
//===----------------------------------------------------------------------===//

struct Event {
  enum Kind { Access, Copy, Api, KernelLaunch, Call, Write, LambdaArg } K;
  explicit Event(Kind K) : K(K) {}
  const Stmt *Anchor = nullptr;
  // Access
  std::string Buffer; ///< alias class key
  AccessKind AK = AccessKind::Read;
  const Expr *Loc = nullptr;  ///< the accessing expression
  const Expr *Name = nullptr; ///< the tracked buffer as named there
  const NamedDecl *Callee = nullptr;
  // Copy: the copy site index
  unsigned CopyId = 0;
  // Api / KernelLaunch / Call
  const CallExpr *CE = nullptr;
  const ApiEntry *Entry = nullptr;
  const HelperSummary *Summary = nullptr; ///< Call: null if opaque;
                                          ///< LambdaArg: the lambda's
  const VarDecl *Var = nullptr;           ///< Write: the variable
  const CXXMethodDecl *Lambda = nullptr;  ///< LambdaArg: its call operator
  std::vector<unsigned> HelperCopies;     ///< Call: copies it leaves pending
};

/// A branch condition on a variable that the callable never changes:
/// `v == C` or `v != C` (`if (v)` is `v != 0`). Conditions on such variables
/// are correlated across branches (`if (async) copy(); ... if (async)
/// sync();`), which a purely flow-sensitive analysis would merge into a
/// false path.
struct Literal {
  const VarDecl *V;
  bool Eq;
  long long C;
  bool operator<(const Literal &O) const {
    return std::tie(V, Eq, C) < std::tie(O.V, O.Eq, O.C);
  }
  bool operator==(const Literal &O) const {
    return V == O.V && Eq == O.Eq && C == O.C;
  }
  bool contradicts(const Literal &O) const {
    if (V != O.V)
      return false;
    if (Eq && O.Eq)
      return C != O.C;
    return Eq != O.Eq && C == O.C;
  }
};
using Literals = std::set<Literal>;

Literals intersect(const Literals &A, const Literals &B) {
  Literals R;
  std::set_intersection(A.begin(), A.end(), B.begin(), B.end(),
                        std::inserter(R, R.begin()));
  return R;
}
std::set<unsigned> intersect(const std::set<unsigned> &A,
                             const std::set<unsigned> &B) {
  std::set<unsigned> R;
  std::set_intersection(A.begin(), A.end(), B.begin(), B.end(),
                        std::inserter(R, R.begin()));
  return R;
}

/// A class of copies (same buffer, same stream) that may still be in
/// flight. Stream order completes an earlier copy of a class before a later
/// one, so every sync treats them alike and one entry stands for all.
struct PendingCopy {
  MissNote Miss; ///< the last sync-like call that did not cover it
  /// The conditions under which one was issued, one set per way it got
  /// here (`if (a) copy(h); if (b) copy(h);` gives {a} and {b}); it is
  /// pending on paths where every literal of some set holds. Kept minimal
  /// (no set includes another) and few (past MaxGuards, just {}).
  std::set<Literals> Guards;
  unsigned Site = 0; ///< the copy site that issued it last (for notes)
  static constexpr size_t MaxGuards = 8;

  bool operator==(const PendingCopy &O) const {
    return Miss.Reason == O.Miss.Reason && Miss.Where == O.Miss.Where &&
           Guards == O.Guards && Site == O.Site;
  }
  void addGuards(const std::set<Literals> &More) {
    Guards.insert(More.begin(), More.end());
    simplify();
  }
  void simplify() {
    for (auto It = Guards.begin(); It != Guards.end();) {
      bool Subsumed = llvm::any_of(Guards, [&](const Literals &Other) {
        return &Other != &*It && Other.size() < It->size() &&
               std::includes(It->begin(), It->end(), Other.begin(),
                             Other.end());
      });
      It = Subsumed ? Guards.erase(It) : std::next(It);
    }
    if (Guards.size() > MaxGuards)
      Guards = {Literals{}};
  }
};

/// The dataflow fact at a program point.
struct State {
  bool Reached = false;
  /// By copy class (may: union); see PendingCopy.
  std::map<unsigned, PendingCopy> Pending;
  struct EventInfo {
    std::set<unsigned> Covered; ///< copies a record captured (must)
    const Expr *Record = nullptr;
    StreamRef Stream;
    bool operator==(const EventInfo &O) const {
      return Covered == O.Covered && Record == O.Record;
    }
  };
  std::map<std::string, EventInfo> Events;
  /// Per cudaStreamQuery / cudaEventQuery call: the copies it would find
  /// complete if it returned cudaSuccess (must).
  std::map<const Expr *, std::set<unsigned>> Queried;
  /// Per stream that cudaStreamWaitEvent made wait for an event: the copies
  /// that event covers, which a later host sync of that stream covers too
  /// (must).
  std::map<std::string, EventInfo> Waits;
  Literals Assumed; ///< conditions known to hold here (must)

  bool operator==(const State &O) const {
    return Reached == O.Reached && Pending == O.Pending &&
           Events == O.Events && Queried == O.Queried && Waits == O.Waits &&
           Assumed == O.Assumed;
  }

  void join(const State &O) {
    if (!O.Reached)
      return;
    if (!Reached) {
      *this = O;
      return;
    }
    for (const auto &[Id, P] : O.Pending) {
      auto [It, New] = Pending.try_emplace(Id, P);
      if (New)
        continue;
      if (It->second.Miss.Reason == MissReason::None)
        It->second.Miss = P.Miss;
      It->second.addGuards(P.Guards);
    }
    for (auto *M : {&Events, &Waits}) {
      const auto &OM = M == &Events ? O.Events : O.Waits;
      for (auto It = M->begin(); It != M->end();) {
        auto Other = OM.find(It->first);
        if (Other == OM.end()) {
          It = M->erase(It);
          continue;
        }
        It->second.Covered =
            intersect(It->second.Covered, Other->second.Covered);
        ++It;
      }
    }
    for (auto It = Queried.begin(); It != Queried.end();) {
      auto Other = O.Queried.find(It->first);
      if (Other == O.Queried.end()) {
        It = Queried.erase(It);
        continue;
      }
      It->second = intersect(It->second, Other->second);
      ++It;
    }
    Assumed = intersect(Assumed, O.Assumed);
  }

  /// A variable got a new value: what was known about it no longer holds.
  void forget(const VarDecl *V) {
    auto Drop = [&](Literals &Set) {
      for (auto It = Set.begin(); It != Set.end();)
        It = It->V == V ? Set.erase(It) : std::next(It);
    };
    Drop(Assumed);
    for (auto &[Id, P] : Pending) {
      std::set<Literals> Kept;
      for (Literals G : P.Guards) {
        Drop(G);
        Kept.insert(std::move(G));
      }
      P.Guards = std::move(Kept);
      P.simplify();
    }
  }

  /// Takes the edge on which L holds; false if the edge is infeasible.
  bool assume(const Literal &L) {
    for (const Literal &A : Assumed)
      if (A.contradicts(L))
        return false;
    for (auto It = Pending.begin(); It != Pending.end();) {
      std::set<Literals> &Guards = It->second.Guards;
      for (auto G = Guards.begin(); G != Guards.end();) {
        bool Infeasible = llvm::any_of(
            *G, [&](const Literal &Lit) { return Lit.contradicts(L); });
        G = Infeasible ? Guards.erase(G) : std::next(G);
      }
      It = Guards.empty() ? Pending.erase(It) : std::next(It);
    }
    Assumed.insert(L);
    return true;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// The analysis of one callable
//===----------------------------------------------------------------------===//

struct AsyncCopyAnalysis::Impl {
  AsyncCopyAnalysis &Owner;
  ASTContext &Ctx;
  const ApiModel &Model;
  const AnalysisOptions &Opts;
  const FunctionDecl *FD;
  const Stmt *Body;
  unsigned Depth;
  bool SummaryMode; ///< seeds synthetic copies on parameters

  ParentMap PM;
  AliasClasses Aliases;
  std::vector<CopySite *> Copies; ///< owned by Owner.OwnedCopies
  /// Copy site -> its class (a site id): copies into the same buffer on the
  /// same stream.
  std::vector<unsigned> ClassOf;
  std::vector<Event> Events;
  std::set<std::string> NonBlockingStreams;
  llvm::DenseMap<const VarDecl *, const CallExpr *> QueryVars;
  std::set<const VarDecl *> MutatedVars;
  std::set<const VarDecl *> AddressTaken;
  /// Where local variables get a new value: conditions known about them
  /// stop holding there.
  std::vector<std::pair<const VarDecl *, const Stmt *>> Writes;
  bool PerThread;
  bool Broken = false;
  /// A helper summary was cut short by the depth bound or recursion.
  bool Truncated = false;

  // Collected by the AST walk.
  std::vector<const CallExpr *> Calls;
  std::vector<const CXXConstructExpr *> ThreadStarts; ///< std::thread(f, ...)
  std::vector<const CXXConstructExpr *> Guards; ///< CUDAStreamGuard
  /// Where libtorch's current stream changes: from Begin to the end of
  /// Scope (or of the function, for a null Scope), in source order.
  struct StreamSetter {
    SourceLocation Begin;
    const Stmt *Scope;
    StreamRef Stream;
  };
  std::vector<StreamSetter> Setters;
  /// `lhs = rhs` (Var set when lhs names a variable) and `T var = rhs`
  /// (Lhs null), in source order.
  struct Assignment {
    const Expr *Lhs;
    const VarDecl *Var;
    const Expr *Rhs;
  };
  std::vector<Assignment> Assigns;
  std::vector<const Expr *> Candidates; ///< DeclRefExpr / MemberExpr / ...
  /// cudaMemcpy3DParms fields assigned: var -> (field name, value, location)
  struct ParamsWrite {
    const VarDecl *Var;
    std::string Field;
    const Expr *Value;
  };
  std::vector<ParamsWrite> ParamsWrites;

  std::vector<Finding> Findings;
  std::map<const Expr *, size_t> FindingAt; ///< one per access site
  /// SummaryMode: one finding per access site and seed, since each seed
  /// (a parameter on one stream) answers its own question.
  std::set<std::pair<const Expr *, const CopySite *>> SeedFindings;

  Impl(AsyncCopyAnalysis &Owner, const FunctionDecl *FD, unsigned Depth,
       bool SummaryMode)
      : Owner(Owner), Ctx(Owner.Ctx), Model(Owner.Model), Opts(Owner.Opts),
        FD(FD),
        Body(FD->getBody()), Depth(Depth), SummaryMode(SummaryMode),
        PM(const_cast<Stmt *>(FD->getBody())),
        PerThread(Opts.PerThreadDefaultStream) {}

  //--- Streams --------------------------------------------------------------

  StreamRef streamOf(const Expr *E) {
    StreamRef S;
    if (!E) { // omitted: the default stream
      S.K = PerThread ? StreamRef::PerThread : StreamRef::Legacy;
      S.Spelling = "0";
      return S;
    }
    S.Spelling = spelling(E, Ctx);
    if (const Expr *Current = currentStreamSource(E)) {
      // Named after the stream it resolves to (a guard's), if any.
      StreamRef C = currentStreamAt(Current->getBeginLoc());
      if (C.K != StreamRef::Named)
        C.Spelling = S.Spelling;
      return C;
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
    S.Key = exprKey(E);
    S.NonBlocking = NonBlockingStreams.count(S.Key) != 0;
    return S;
  }

  /// `getCurrentCUDAStream()`, or a variable initialised from it: the call.
  const Expr *currentStreamSource(const Expr *E) {
    E = strip(E);
    if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
          V && V->hasLocalStorage() && V->getInit() && !MutatedVars.count(V))
        E = strip(V->getInit());
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1)
      E = strip(CE->getArg(0));
    const auto *C = dyn_cast_or_null<CallExpr>(E);
    const ApiEntry *A = C ? Model.lookup(C->getDirectCallee()) : nullptr;
    return A && A->Role == ApiRole::CurrentStream ? C : nullptr;
  }

  /// libtorch's current CUDA stream at a point: the innermost
  /// CUDAStreamGuard in scope or the last setCurrentCUDAStream before it,
  /// else the default stream (PyTorch's default: the device's stream 0).
  StreamRef currentStreamAt(SourceLocation L) {
    const SourceManager &SM = Ctx.getSourceManager();
    StreamRef Best = streamOf(nullptr);
    for (const StreamSetter &Set : Setters) {
      if (!SM.isBeforeInTranslationUnit(Set.Begin, L))
        continue;
      if (Set.Scope && !SM.isBeforeInTranslationUnit(
                           L, Set.Scope->getEndLoc()))
        continue;
      Best = Set.Stream;
    }
    return Best;
  }

  void collectStreamSetters() {
    auto Add = [&](const Expr *At, const Expr *StreamE, const Stmt *Scope) {
      Setters.push_back({At->getBeginLoc(), Scope, streamOf(StreamE)});
    };
    for (const CXXConstructExpr *G : Guards) {
      const Stmt *Scope = G;
      while (Scope && !isa<CompoundStmt>(Scope))
        Scope = PM.getParent(Scope);
      Add(G, G->getArg(0), Scope);
    }
    for (const CallExpr *C : Calls) {
      const ApiEntry *E = Model.lookup(C->getDirectCallee());
      if (E && E->Role == ApiRole::SetCurrentStream && C->getNumArgs() > 0)
        Add(C, C->getArg(0), nullptr);
    }
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::sort(Setters, [&](const StreamSetter &A, const StreamSetter &B) {
      return SM.isBeforeInTranslationUnit(A.Begin, B.Begin);
    });
  }

  /// Does a host sync of stream S complete a copy on stream C? ("Stream
  /// synchronization behavior": the legacy default stream waits for every
  /// blocking stream, and the per-thread default stream is blocking.)
  static bool covers(const StreamRef &S, const StreamRef &C) {
    if (S.K == StreamRef::Unknown || C.K == StreamRef::Unknown)
      return false;
    if (S.sameStream(C))
      return true;
    if (S.K == StreamRef::Legacy)
      return C.K == StreamRef::PerThread ||
             (C.K == StreamRef::Named && !C.NonBlocking);
    return false;
  }

  MissReason missFor(const StreamRef &S, const StreamRef &C) const {
    if (S.K == StreamRef::Legacy && C.NonBlocking)
      return MissReason::NonBlockingStream;
    if (S.K == StreamRef::PerThread && PerThread && S.Spelling != "" &&
        C.K != StreamRef::PerThread)
      return MissReason::PerThreadDefaultStream;
    return MissReason::OtherStream;
  }

  //--- Collection -----------------------------------------------------------

  struct Walker : RecursiveASTVisitor<Walker> {
    Impl &I;
    explicit Walker(Impl &I) : I(I) {}
    // Lambdas, blocks and local classes are callables of their own;
    // unevaluated operands and types are not host accesses.
    bool TraverseLambdaExpr(LambdaExpr *L) {
      // Not its body; but a by-reference capture may change the variable
      // whenever the lambda runs.
      for (const LambdaCapture &Cap : L->captures())
        if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
          if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar()))
            escape(V);
      return true;
    }
    bool TraverseBlockExpr(BlockExpr *) { return true; }
    bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
    bool TraverseRecordDecl(RecordDecl *) { return true; }
    bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
      return true;
    }
    bool TraverseCXXTypeidExpr(CXXTypeidExpr *) { return true; }
    bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
    bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }

    bool VisitExpr(Expr *E) {
      if (E->containsErrors())
        I.Broken = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      I.Calls.push_back(C);
      // A variable bound to a non-const reference parameter may be changed
      // by the callee.
      if (const FunctionDecl *F = C->getDirectCallee();
          F && !isa<CXXOperatorCallExpr>(C))
        for (unsigned N = 0; N < F->getNumParams() && N < C->getNumArgs(); ++N)
          escapeIfBound(F->getParamDecl(N)->getType(), C->getArg(N));
      return true;
    }
    void escapeIfBound(QualType T, const Expr *E) {
      if (!T->isLValueReferenceType() ||
          T.getNonReferenceType().isConstQualified())
        return;
      if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
          escape(V);
    }
    void escape(const VarDecl *V) {
      I.MutatedVars.insert(V);
      I.AddressTaken.insert(V);
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      // c10::cuda::CUDAStreamGuard g(s): s is current until the scope ends.
      const ApiEntry *E = I.Model.lookup(C->getConstructor());
      if (E && E->Role == ApiRole::SetCurrentStream && C->getNumArgs() > 0)
        I.Guards.push_back(C);
      // std::thread t(f): starts running f at once.
      const CXXRecordDecl *R = C->getConstructor()->getParent();
      if (R->isInStdNamespace() && R->getIdentifier() &&
          (R->getName() == "thread" || R->getName() == "jthread") &&
          C->getNumArgs() > 0)
        I.ThreadStarts.push_back(C);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (isa<VarDecl>(D->getDecl()))
        I.Candidates.push_back(D);
      return true;
    }
    bool VisitMemberExpr(MemberExpr *M) {
      I.Candidates.push_back(M);
      return true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
      if (A->getType()->isPointerType())
        I.Candidates.push_back(A);
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp()) {
        if (B->getOpcode() == BO_Assign) {
          const auto *D = dyn_cast<DeclRefExpr>(strip(B->getLHS()));
          I.Assigns.push_back({B->getLHS(),
                               D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr,
                               B->getRHS()});
        }
        noteMutation(B->getLHS(), B);
        noteParamsWrite(B->getLHS(), B->getRHS());
      }
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      // Class-type assignment, e.g. `p.dstPtr = make_cudaPitchedPtr(...)`.
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        noteParamsWrite(Op->getArg(0), Op->getArg(1));
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp())
        noteMutation(U->getSubExpr(), U);
      if (U->getOpcode() == UO_AddrOf)
        if (const auto *D = dyn_cast<DeclRefExpr>(strip(U->getSubExpr())))
          if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
            escape(V);
      return true;
    }
    bool VisitVarDecl(VarDecl *V) {
      if (const Expr *Init = V->getInit())
        escapeIfBound(V->getType(), Init); // bool &r = flag;
      if (const Expr *Init = V->getInit())
        if (!V->getType()->isDependentType()) {
          I.Assigns.push_back({nullptr, V, Init});
          I.Writes.push_back({V, Init}); // a new value each time it runs
        }
      return true;
    }
    void noteMutation(const Expr *E, const Stmt *At) {
      if (const auto *D = dyn_cast<DeclRefExpr>(strip(E)))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
          I.MutatedVars.insert(V);
          I.Writes.push_back({V, At});
        }
    }
    /// p.dstPtr = make_cudaPitchedPtr(h, ...); p.dstPtr.ptr = h; p.kind = k;
    void noteParamsWrite(const Expr *Lhs, const Expr *Rhs) {
      const auto *M = dyn_cast<MemberExpr>(strip(Lhs));
      if (!M || !M->getMemberDecl()->getIdentifier())
        return;
      std::string Field = M->getMemberDecl()->getName().str();
      const Expr *Base = strip(M->getBase());
      if (const auto *Inner = dyn_cast<MemberExpr>(Base)) {
        if (Field != "ptr" || !Inner->getMemberDecl()->getIdentifier())
          return;
        Field = Inner->getMemberDecl()->getName().str() + ".ptr";
        Base = strip(Inner->getBase());
      }
      const auto *D = dyn_cast<DeclRefExpr>(Base);
      const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      if (V)
        I.ParamsWrites.push_back({V, Field, Rhs});
    }
  };

  //--- Provenance -----------------------------------------------------------

  Provenance declProvenance(const Expr *Root) {
    const auto *D = dyn_cast<DeclRefExpr>(strip(Root));
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V)
      return isStdContainer(Root->getType()) ? Provenance::Pageable
                                             : Provenance::Unknown;
    return varProvenance(V);
  }
  static Provenance varProvenance(const VarDecl *V) {
    QualType T = V->getType();
    if (isStdContainer(T))
      return Provenance::Pageable;
    // A stack array or scalar (or plain struct); not a class object, which
    // may own pinned memory (std::unique_ptr with a cudaFreeHost deleter).
    if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && !T->isReferenceType() &&
        !T->isPointerType() &&
        !(T->getAsCXXRecordDecl() &&
          !T->getAsCXXRecordDecl()->isCLike()))
      return Provenance::Pageable;
    return Provenance::Unknown;
  }

  Provenance provenanceOf(const Expr *Root) {
    Provenance P = Aliases.provenance(exprKey(Root));
    return std::max(P, declProvenance(Root));
  }

  /// Where a tensor's storage lives, from the expression that gives the
  /// variable its value; views and copies of a tensor handle share its
  /// storage (an alias).
  void tensorProvenance(const std::string &Key, const Expr *Rhs) {
    const Expr *E = strip(Rhs);
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1)
      E = strip(CE->getArg(0));
    if (!E)
      return;
    if (isa<DeclRefExpr, MemberExpr>(E) && isTensorType(E->getType())) {
      Aliases.unite(Key, exprKey(E));
      return;
    }
    const auto *C = dyn_cast<CallExpr>(E);
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    if (!F || !F->getIdentifier())
      return;
    llvm::StringRef Name = F->getName();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (Name == "pin_memory")
        return Aliases.mark(Key, Provenance::Pinned);
      if (Name == "cuda")
        return Aliases.mark(Key, Provenance::Device);
      if (Name == "cpu")
        return Aliases.mark(Key, Provenance::Pageable);
      if (Name == "to") {
        auto NB = constantArg(nonBlockingArg(C));
        if (targetsCuda(C))
          return Aliases.mark(Key, Provenance::Device);
        if (targetsCpu(C))
          return Aliases.mark(Key, NB && *NB ? Provenance::Pinned
                                             : Provenance::Pageable);
        return; // a dtype conversion: same device, new storage (unknown)
      }
      if (isTensorView(Name) && Obj && isTensorType(Obj->getType()))
        if (const Expr *Root = bufferRoot(Obj))
          Aliases.unite(Key, exprKey(Root));
      return;
    }
    // Factories: CPU memory unless the options say otherwise.
    if (F->isInStdNamespace() || !llvm::is_contained(
            {"empty", "zeros", "ones", "full", "rand", "randn", "randint",
             "arange", "linspace", "empty_strided", "tensor"},
            Name))
      return;
    Aliases.mark(Key, mentions(C, Mention::Pinned) ? Provenance::Pinned
                      : mentions(C, Mention::Cuda) ? Provenance::Device
                                                   : Provenance::Pageable);
  }

  /// The pointer an allocation call writes: `&p` (or `(void **)&p`).
  const Expr *allocTarget(const CallExpr *C, const ApiEntry &E) {
    const Expr *A = arg(C, E.PtrArg);
    if (!A)
      return nullptr;
    if (E.PtrForm == PtrArgForm::Pointer)
      return bufferRoot(A);
    const auto *U = dyn_cast<UnaryOperator>(strip(A));
    if (!U || U->getOpcode() != UO_AddrOf)
      return nullptr;
    return strip(U->getSubExpr());
  }

  void buildAliasesAndProvenance() {
    for (const Assignment &A : Assigns) {
      std::string LhsKey;
      QualType LhsType;
      if (A.Lhs) {
        const Expr *L = strip(A.Lhs);
        // Not array slots: `dsts[0] = h1; ...; dsts[0] = h2;` would join
        // h1 and h2.
        if (!isa<DeclRefExpr, MemberExpr>(L))
          continue;
        LhsKey = exprKey(L);
        LhsType = L->getType();
      } else {
        LhsKey = "d" + ptrKey(A.Var->getCanonicalDecl());
        LhsType = A.Var->getType();
      }
      // c10::cuda::getStreamFromPool: PyTorch creates its pool streams with
      // cudaStreamNonBlocking (c10/cuda/CUDAStream.cpp).
      if (const auto *C = dyn_cast_or_null<CallExpr>(strip(A.Rhs))) {
        const ApiEntry *E = Model.lookup(C->getDirectCallee());
        if (E && E->Role == ApiRole::PoolStream) {
          NonBlockingStreams.insert(LhsKey);
          continue;
        }
      }
      if (isTensorType(LhsType)) {
        tensorProvenance(LhsKey, A.Rhs);
        continue;
      }
      if (!LhsType->isPointerType() && !LhsType->isReferenceType())
        continue;
      if (isPageableAllocation(A.Rhs)) {
        Aliases.mark(LhsKey, Provenance::Pageable);
        continue;
      }
      if (const Expr *Root = bufferRoot(A.Rhs)) {
        Aliases.unite(LhsKey, exprKey(Root));
        Aliases.mark(LhsKey, declProvenance(Root));
      }
    }
    for (const CallExpr *C : Calls) {
      const ApiEntry *E = Model.lookup(C->getDirectCallee());
      if (!E)
        continue;
      if (E->Role == ApiRole::PinnedAlloc || E->Role == ApiRole::DeviceAlloc) {
        if (const Expr *T = allocTarget(C, *E))
          Aliases.mark(exprKey(T), E->Role == ApiRole::PinnedAlloc
                                       ? Provenance::Pinned
                                       : Provenance::Device);
      } else if (E->Role == ApiRole::TorchCopy &&
                 C->getDirectCallee()->getName() == "to" && targetsCpu(C)) {
        // b.to(kCPU, ...): b is on the GPU (a CPU tensor's to(kCPU) is a
        // no-op, so there would be nothing to copy anyway).
        if (const Expr *Obj = arg(C, ObjectArg))
          if (const Expr *Root = bufferRoot(Obj);
              Root && provenanceOf(Root) == Provenance::Unknown)
            Aliases.mark(exprKey(Root), Provenance::Device);
      } else if (E->Role == ApiRole::StreamCreate && E->FlagsArg != NoArg) {
        auto Flags = evalInt(arg(C, E->FlagsArg), Ctx);
        const Expr *T = allocTarget(C, *E);
        if (T && Flags && (*Flags & StreamNonBlockingFlag))
          NonBlockingStreams.insert(exprKey(T));
      }
    }
    // Results of cudaStreamQuery / cudaEventQuery kept in a variable, when
    // every value the variable is given is the same query.
    std::set<const VarDecl *> Conflicting;
    for (const Assignment &A : Assigns) {
      const VarDecl *V = A.Var;
      if (!V)
        continue;
      const auto *Q = dyn_cast<CallExpr>(strip(A.Rhs));
      const ApiEntry *E = Q ? Model.lookup(Q->getDirectCallee()) : nullptr;
      bool IsQuery = E && (E->Role == ApiRole::StreamQuery ||
                           E->Role == ApiRole::EventQuery);
      auto It = QueryVars.find(V);
      if (!IsQuery || (It != QueryVars.end() &&
                       exprKey(It->second) != exprKey(Q)))
        Conflicting.insert(V);
      else
        QueryVars[V] = Q;
    }
    for (const VarDecl *V : Conflicting)
      QueryVars.erase(V);
  }

  /// The value of an argument that names a constant: a literal, an enumerator,
  /// a const variable, or a local initialised once and never changed.
  std::optional<long long> constantArg(const Expr *E) {
    if (!E)
      return std::nullopt;
    if (auto V = evalInt(E, Ctx))
      return V;
    const auto *D = dyn_cast<DeclRefExpr>(strip(E));
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
        !MutatedVars.count(V))
      return evalInt(V->getInit(), Ctx);
    return std::nullopt;
  }

  /// The last write of `Field` into the cudaMemcpy3DParms behind `Ptr`
  /// (`&p`) before the call.
  const Expr *paramsField(const Expr *Ptr, const CallExpr *C,
                          llvm::StringRef Field) {
    const auto *U = dyn_cast_or_null<UnaryOperator>(strip(Ptr));
    if (!U || U->getOpcode() != UO_AddrOf)
      return nullptr;
    const auto *D = dyn_cast<DeclRefExpr>(strip(U->getSubExpr()));
    if (!D)
      return nullptr;
    const SourceManager &SM = Ctx.getSourceManager();
    const Expr *Found = nullptr;
    for (const ParamsWrite &W : ParamsWrites) {
      if (W.Var != D->getDecl() ||
          !SM.isBeforeInTranslationUnit(W.Value->getBeginLoc(),
                                        C->getBeginLoc()))
        continue;
      if (W.Field == Field)
        Found = W.Value;
      else if (Field == "dstPtr.ptr" && W.Field == "dstPtr") {
        // p.dstPtr = make_cudaPitchedPtr(h, pitch, x, y)
        const auto *M = dyn_cast<CallExpr>(strip(W.Value));
        if (M && M->getNumArgs() > 0)
          Found = M->getArg(0);
      }
    }
    return Found;
  }

  //--- Copy sites -----------------------------------------------------------

  CopySite *newCopy() {
    Owner.OwnedCopies.push_back(std::make_unique<CopySite>());
    Copies.push_back(Owner.OwnedCopies.back().get());
    return Copies.back();
  }

  /// The cudaMemcpyKind of a copy: its kind argument, the direction its
  /// function always has, or the fields of its parameter struct.
  std::optional<long long> copyKind(const CallExpr *C, const ApiEntry &E) {
    switch (E.Struct) {
    case ParamsStructKind::Runtime3D:
      return constantArg(paramsField(arg(C, 0), C, "kind"));
    case ParamsStructKind::DriverMemcpy: {
      // CUmemorytype: HOST 1, DEVICE 2, ARRAY 3, UNIFIED 4.
      auto Dst = constantArg(paramsField(arg(C, 0), C, "dstMemoryType"));
      auto Src = constantArg(paramsField(arg(C, 0), C, "srcMemoryType"));
      if (!Dst || !Src)
        return std::nullopt;
      if (*Dst != 1)
        return MemcpyHostToDevice; // into device memory: not our concern
      if (*Src == 1)
        return MemcpyHostToHost;
      return *Src == 4 ? MemcpyDefault : MemcpyDeviceToHost;
    }
    case ParamsStructKind::None:
    case ParamsStructKind::Batch3DOps:
      break;
    }
    if (E.FixedKind != NoArg)
      return E.FixedKind;
    return constantArg(arg(C, E.KindArg));
  }

  /// Is this asynchronous copy one from the device into host memory?
  /// Returns its destination's root, or nullptr.
  const Expr *d2hDestination(const CallExpr *C, const ApiEntry &E,
                             bool &Pageable) {
    const Expr *Dst =
        E.Struct == ParamsStructKind::Runtime3D
            ? paramsField(arg(C, 0), C, "dstPtr.ptr")
        : E.Struct == ParamsStructKind::DriverMemcpy
            ? paramsField(arg(C, 0), C, "dstHost")
            : arg(C, E.DstArg);
    auto Kind = copyKind(C, E);
    const Expr *Root = Dst ? bufferRoot(Dst) : nullptr;
    if (!Kind || !Root)
      return nullptr; // unknown direction or untrackable destination
    Provenance DstProv = provenanceOf(Root);
    if (*Kind == MemcpyDefault) {
      // An integer destination (CUdeviceptr) that is not a cast pointer is
      // a device address.
      if (strip(Dst)->getType()->isIntegerType() &&
          Root->getType()->isIntegerType())
        return nullptr;
      // cudaMemcpyDefault infers the direction from the pointers (UVA).
      const Expr *Src = E.SrcArg == NoArg ? nullptr : arg(C, E.SrcArg);
      const Expr *SrcRoot = Src ? bufferRoot(Src) : nullptr;
      Provenance SrcProv =
          SrcRoot ? provenanceOf(SrcRoot) : Provenance::Unknown;
      if (DstProv == Provenance::Device || SrcProv == Provenance::Pinned ||
          SrcProv == Provenance::Pageable)
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

  void addCopy(const CallExpr *C, const Expr *Root, bool Pageable,
               const StreamRef &S, const Expr *Inner) {
    addCopy(C, exprKey(Root), spelling(Root, Ctx), Pageable, S, Inner);
  }
  void addCopy(const CallExpr *C, const std::string &Key,
               const std::string &Name, bool Pageable, const StreamRef &S,
               const Expr *Inner) {
    CopySite *Site = newCopy();
    Site->Call = C;
    Site->InnerCopy = Inner;
    Site->Buffer = Aliases.classKey(Key);
    Site->BufferName = Name;
    Site->Stream = S;
    Site->Pageable = Pageable;
    Event Ev(Event::Copy);
    Ev.Anchor = C;
    Ev.CopyId = Copies.size() - 1;
    Events.push_back(std::move(Ev));
  }

  /// A seed on a stream that is neither a parameter nor "any stream".
  static constexpr int MemberOrGlobalStream = -2;

  /// A member of `this` (through any chain of members), a global, or, in a
  /// lambda, a captured variable: what the caller can name too.
  /// Also a member of an object parameter (`p.s_` of `P &p`), which the
  /// caller names through its argument.
  static bool outlivesCall(const Expr *E) {
    E = strip(E);
    bool Member = false;
    while (const auto *M = dyn_cast_or_null<MemberExpr>(E)) {
      E = strip(M->getBase());
      Member = true;
    }
    if (isa_and_nonnull<CXXThisExpr>(E))
      return true;
    const auto *D = dyn_cast_or_null<DeclRefExpr>(E);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && ((V->hasGlobalStorage() && !V->isStaticLocal()) ||
                 D->refersToEnclosingVariableOrCapture() ||
                 (Member && isa<ParmVarDecl>(V)));
  }

  /// `this`, or `*this` (`(*this).wait()`).
  static bool isThis(const Expr *E) {
    E = strip(E);
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
        U && U->getOpcode() == UO_Deref)
      E = strip(U->getSubExpr());
    return isa_and_nonnull<CXXThisExpr>(E);
  }

  /// The call operator of a lambda (C++ [expr.prim.lambda.closure]).
  static const CXXMethodDecl *lambdaOperator(const FunctionDecl *F) {
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(F);
    return M && M->getParent()->isLambda() ? M : nullptr;
  }

  /// The lambda an argument denotes: written there, or a local variable
  /// initialised with one (`auto f = [&] {...}; std::for_each(.., f)`).
  /// Sets *Var to that variable.
  static const CXXMethodDecl *lambdaOf(const Expr *A,
                                       const VarDecl **Var = nullptr) {
    // Past implicit nodes and a one-argument construction (a copy or move
    // of the closure, a std::function made from it).
    auto Unwrap = [](const Expr *E) -> const Expr * {
      E = E ? E->IgnoreImplicit()->IgnoreParens() : nullptr;
      if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
          CE && CE->getNumArgs() == 1)
        E = CE->getArg(0)->IgnoreImplicit()->IgnoreParens();
      return E;
    };
    A = Unwrap(A);
    if (const auto *C = dyn_cast_or_null<CallExpr>(A);
        isStdCast(C) || (C && C->getNumArgs() == 1 &&
                         isStdFunction(C->getDirectCallee(), {"ref", "cref"})))
      A = C->getArg(0)->IgnoreImplicit()->IgnoreParens();
    if (const auto *D = dyn_cast_or_null<DeclRefExpr>(A)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (!V || !V->hasLocalStorage() || !V->getInit())
        return nullptr;
      if (Var)
        *Var = V;
      A = Unwrap(V->getInit());
    }
    const auto *L = dyn_cast_or_null<LambdaExpr>(A);
    return L ? L->getCallOperator() : nullptr;
  }

  /// The variables a lambda captures (not `this`, not structured bindings).
  static llvm::SmallVector<const VarDecl *, 8>
  capturedVars(const CXXMethodDecl *Lambda) {
    llvm::SmallVector<const VarDecl *, 8> Vars;
    for (const LambdaCapture &Cap : Lambda->getParent()->captures())
      if (const auto *V = Cap.capturesVariable()
                              ? dyn_cast<VarDecl>(Cap.getCapturedVar())
                              : nullptr)
        Vars.push_back(V);
    return Vars;
  }

  /// Buffers a lambda can capture: what a helper's parameter is seeded on.
  static bool isBufferType(QualType T) {
    return T->isPointerType() || T->isReferenceType() || T->isArrayType() ||
           isStdContainer(T) || isTensorType(T);
  }

  void seedSummaryCopies() {
    // Synthetic copies: on each stream parameter (buffer: none), on no
    // particular stream (cleared only by a device-wide sync), and into each
    // pointer parameter on each of those.
    std::vector<int> StreamParams{-1};
    for (unsigned P = 0; P < FD->getNumParams(); ++P)
      if (isStreamType(FD->getParamDecl(P)->getType()))
        StreamParams.push_back(P);
    auto Seed = [&](int Buf, int Stream) {
      CopySite *S = newCopy();
      S->Synthetic = true;
      S->SeedParam = Buf;
      S->SeedStreamParam = Stream;
      if (Buf >= 0) {
        std::string Key = "d" + ptrKey(FD->getParamDecl(Buf)->getCanonicalDecl());
        S->Buffer = Aliases.classKey(Key);
      }
      if (Stream >= 0) {
        S->Stream.K = StreamRef::Named;
        S->Stream.Key =
            "d" + ptrKey(FD->getParamDecl(Stream)->getCanonicalDecl());
      }
    };
    for (int S : StreamParams)
      Seed(-1, S);
    // Streams the helper uses that the caller names too: members of `this`
    // (`void wait() { cudaStreamSynchronize(s_); }`), globals, a lambda's
    // captures. A sync of one on every path is a sync at the call; a use on
    // one is ordered after the caller's copies on it.
    std::set<std::string> Seen;
    std::vector<StreamRef> Streams;
    auto SeedStream = [&](const StreamRef &St) {
      if (St.K != StreamRef::Named || Streams.size() >= MaxSeedStreams ||
          !Seen.insert(St.Key).second)
        return;
      CopySite *Site = newCopy();
      Site->Synthetic = true;
      Site->SeedStreamParam = MemberOrGlobalStream;
      Site->Stream = St;
      Streams.push_back(St);
    };
    // Synchronized streams first: past the cap, a stream only used is the
    // one to lose.
    for (bool Syncs : {true, false})
      for (const CallExpr *C : Calls) {
        const Expr *StreamE = nullptr;
        const ApiEntry *E = Model.lookup(C->getDirectCallee());
        bool IsSync = E && (E->Role == ApiRole::StreamSync ||
                            E->Role == ApiRole::StreamQuery);
        if (IsSync != Syncs)
          continue;
        if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C))
          StreamE = K->getConfig() ? arg(K->getConfig(), 3) : nullptr;
        else if (E)
          StreamE = arg(C, E->StreamArg);
        if (StreamE && outlivesCall(StreamE))
          SeedStream(streamOf(StreamE));
        // Handed to a helper that may sync it (`syncS(s_)`).
        if (!E && !isa<CUDAKernelCallExpr>(C))
          for (const Expr *A : C->arguments())
            if (isStreamType(A->getType()) && outlivesCall(A))
              SeedStream(streamOf(A));
      }
    // Member functions (and lambdas) called on `this`, whose summaries name
    // its members as this helper does.
    for (const CallExpr *C : Calls) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
      const FunctionDecl *Callee = C->getDirectCallee();
      bool OnThis = (MC && isThis(MC->getImplicitObjectArgument())) ||
                    lambdaOperator(Callee);
      if (!OnThis || Model.lookup(Callee) ||
          !summarizable(Callee, Ctx.getSourceManager()))
        continue;
      bool CalleeTruncated = false;
      if (const HelperSummary *CS =
              Owner.summary(Callee, Depth + 1, &CalleeTruncated))
        ThisCalleeSummaries.push_back(CS);
      Truncated |= CalleeTruncated;
    }
    for (const HelperSummary *CS : ThisCalleeSummaries)
      for (const StreamRef &St : CS->CaptureStreams)
        if (llvm::StringRef(St.Key).starts_with("this->"))
          SeedStream(St);
    const CXXMethodDecl *Op = lambdaOperator(FD);
    if (Op)
      for (const VarDecl *V : capturedVars(Op))
        if (isStreamType(V->getType())) {
          StreamRef St;
          St.K = StreamRef::Named;
          St.Key = "d" + ptrKey(V->getCanonicalDecl());
          St.Spelling = V->getName().str();
          SeedStream(St);
        }
    for (unsigned P = 0; P < FD->getNumParams(); ++P) {
      QualType T = FD->getParamDecl(P)->getType();
      if (T->isPointerType() || T->isReferenceType() || isStdContainer(T))
        for (int S : StreamParams)
          Seed(P, S);
    }
    // Events the helper synchronizes that the caller names too: an event
    // seed is covered by its event at entry (see run()).
    std::set<std::string> SeenEvents;
    auto SeedEvent = [&](const std::string &Key, const std::string &Name,
                         int Param) {
      if (!SeenEvents.insert(Key).second)
        return;
      CopySite *Site = newCopy();
      Site->Synthetic = true;
      Site->SeedEvent = Key;
      Site->SeedEventName = Name;
      Site->SeedEventParam = Param;
    };
    for (const CallExpr *C : Calls) {
      const ApiEntry *E = Model.lookup(C->getDirectCallee());
      const Expr *Ev = E && (E->Role == ApiRole::EventSync ||
                             E->Role == ApiRole::EventQuery)
                           ? arg(C, E->EventArg)
                           : nullptr;
      if (!Ev)
        continue;
      int Param = -1;
      if (const auto *D = dyn_cast<DeclRefExpr>(strip(Ev)))
        for (unsigned P = 0; P < FD->getNumParams(); ++P)
          if (D->getDecl() == FD->getParamDecl(P))
            Param = P;
      if (Param < 0 && !outlivesCall(Ev))
        continue;
      SeedEvent(exprKey(Ev), spelling(Ev, Ctx), Param);
    }
    // What member functions called on `this` do to its members (`void
    // wait() { doWait(); }`): the same seeds, so that their effects pass
    // through this helper to its caller.
    for (const HelperSummary *CS : ThisCalleeSummaries) {
      for (const HelperSummary::EventRef &E : CS->SyncsEvents)
        if (llvm::StringRef(E.Key).starts_with("this->"))
          SeedEvent(E.Key, E.Spelling, -1);
    }
    // Buffers the caller names too: a lambda's captures, and members of
    // `this` and globals the body names. Each on no particular stream, and
    // on each stream seeded above.
    auto SeedNamed = [&](std::string Key, std::string Name, const VarDecl *V) {
      if (NamedSeeds.size() >= MaxNamedBuffers ||
          llvm::any_of(NamedSeeds, [&](const auto &B) { return B.Key == Key; }))
        return;
      for (int K = -1; K < static_cast<int>(std::min(Streams.size(),
                                                     MaxNamedStreams));
           ++K) {
        CopySite *S = newCopy();
        S->Synthetic = true;
        S->SeedNamed = NamedSeeds.size();
        S->Buffer = Aliases.classKey(Key);
        if (K >= 0) {
          S->SeedStreamParam = MemberOrGlobalStream;
          S->Stream = Streams[K];
        }
      }
      HelperSummary::NamedBuffer B;
      B.Key = std::move(Key);
      B.Name = std::move(Name);
      B.Var = V;
      NamedSeeds.push_back(std::move(B));
    };
    if (Op)
      for (const VarDecl *V : capturedVars(Op))
        if (isBufferType(V->getType()))
          SeedNamed("d" + ptrKey(V->getCanonicalDecl()), V->getName().str(), V);
    for (const HelperSummary *CS : ThisCalleeSummaries)
      for (const HelperSummary::NamedBuffer &B : CS->Named)
        if (llvm::StringRef(B.Key).starts_with("this->"))
          SeedNamed(B.Key, B.Name, nullptr);
    for (const Expr *E : Candidates) {
      // The outermost member chain on `this`, or a global: `h_`, `buf_.h`.
      if (isa_and_nonnull<MemberExpr>(PM.getParent(E)) ||
          !isBufferType(E->getType()) || !outlivesCall(E))
        continue;
      const auto *D = dyn_cast<DeclRefExpr>(strip(E));
      if (D && (D->refersToEnclosingVariableOrCapture() ||
                Ctx.getSourceManager().isInSystemHeader(
                    D->getDecl()->getLocation())))
        continue; // a capture, seeded above; stderr and the like
      SeedNamed(exprKey(E), spelling(E, Ctx), nullptr);
    }
  }
  /// Bounds on the seeds of one summary: streams the caller names, buffers
  /// it names, and the streams those buffers are crossed with.
  static constexpr size_t MaxSeedStreams = 16, MaxNamedBuffers = 8,
                          MaxNamedStreams = 4;
  /// SummaryMode: the buffers SeedNamed indexes.
  std::vector<HelperSummary::NamedBuffer> NamedSeeds;
  /// SummaryMode: summaries of member functions called on `this`.
  std::vector<const HelperSummary *> ThisCalleeSummaries;

  //--- Use classification ---------------------------------------------------

  /// Do a user-declared row's argument positions exist in this call?
  static bool fitsCall(const ApiEntry &E, const CallExpr *C) {
    for (int P : {E.DstArg, E.StreamArg, E.EventArg})
      if (P >= 0 && static_cast<unsigned>(P) >= C->getNumArgs())
        return false;
    return true;
  }

  /// The argument for a callee's parameter: member operator calls
  /// (`functor(h, s)`, lambdas) carry the object as argument 0.
  static const Expr *paramArg(const CallExpr *C, int Param) {
    return arg(C, Param + argShift(C));
  }
  /// How many arguments precede the callee's first parameter: 1 for a member
  /// operator call (`functor(h, s)`, lambdas), whose object is argument 0,
  /// unless the object is the explicit parameter (C++23 `this auto self`).
  static unsigned argShift(const CallExpr *C) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
    const auto *M =
        Op ? dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()) : nullptr;
    return M && M->isImplicitObjectMemberFunction() ? 1 : 0;
  }

  /// Is a call's callee something the analysis looks into or knows?
  bool isModelledCall(const CallExpr *C) {
    if (isa<CUDAKernelCallExpr>(C))
      return true;
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return false;
    const ApiEntry *E = Model.lookup(F);
    if (E && E->Family == ApiFamily::Torch)
      return false; // tensors handed to copy_ / to are read on the host
    return E || isUnmodelledGpuApi(F);
  }

  /// Classifies one occurrence of a tracked buffer; adds an Access event when
  /// the occurrence reads or writes host memory. `Class` is its alias class.
  void classifyUse(const Expr *Node, const std::string &Class) {
    const Stmt *Cur = Node;
    bool Element = false; // Cur denotes an element, not the pointer/object
    auto Emit = [&](AccessKind K, const Stmt *Anchor,
                    const NamedDecl *Callee = nullptr) {
      Event Ev(Event::Access);
      Ev.Anchor = Anchor;
      Ev.Buffer = Class;
      Ev.AK = K;
      Ev.Loc = cast<Expr>(Cur);
      Ev.Name = Node;
      Ev.Callee = Callee;
      Events.push_back(std::move(Ev));
    };
    for (unsigned Steps = 0; Steps < 64; ++Steps) {
      const Stmt *P = PM.getParent(Cur);
      if (!P)
        return;
      if (isa<ParenExpr, ExplicitCastExpr, ConditionalOperator,
              MaterializeTemporaryExpr, ExprWithCleanups,
              CXXBindTemporaryExpr>(P)) {
        if (const auto *CO = dyn_cast<ConditionalOperator>(P);
            CO && CO->getCond() == Cur)
          return;
        Cur = P;
        continue;
      }
      if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
        if (IC->getCastKind() == CK_LValueToRValue && Element)
          return Emit(AccessKind::Read, P);
        Cur = P;
        continue;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(P)) {
        bool IsLhs = B->getLHS()->IgnoreParens() == Cur;
        if (B->isAdditiveOp() && B->getType()->isPointerType()) {
          Cur = P;
          continue;
        }
        if (B->isAssignmentOp()) {
          if (IsLhs && Element)
            return Emit(AccessKind::Write, P);
          if (!IsLhs && Element)
            return Emit(AccessKind::Read, P);
          return; // the pointer itself is rebound or copied (an alias)
        }
        if (B->getOpcode() == BO_Comma && !IsLhs) {
          Cur = P;
          continue;
        }
        if (Element)
          return Emit(AccessKind::Read, P);
        return; // comparisons and tests of the pointer value
      }
      if (const auto *U = dyn_cast<UnaryOperator>(P)) {
        switch (U->getOpcode()) {
        case UO_Deref:
          if (Element)
            return Emit(AccessKind::Read, P);
          Element = true;
          Cur = P;
          continue;
        case UO_AddrOf:
          if (!Element)
            return; // &p: the pointer variable's own address
          Element = false;
          Cur = P;
          continue;
        case UO_PreInc:
        case UO_PreDec:
        case UO_PostInc:
        case UO_PostDec:
          if (Element)
            return Emit(AccessKind::Write, P);
          return;
        default:
          if (Element)
            return Emit(AccessKind::Read, P);
          return;
        }
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(P)) {
        if (A->getBase()->IgnoreParenImpCasts() != Cur &&
            A->getBase()->IgnoreParens() != Cur)
          return; // used as an index
        if (Element)
          return Emit(AccessKind::Read, P);
        Element = true;
        Cur = P;
        continue;
      }
      if (const auto *M = dyn_cast<MemberExpr>(P)) {
        if (M->isArrow() && !Element) { // h->x
          Element = true;
          Cur = P;
          continue;
        }
        if (Element) { // h[i].x, h[i].method()
          if (const auto *MC =
                  dyn_cast_or_null<CXXMemberCallExpr>(PM.getParent(P));
              MC && MC->getCallee()->IgnoreParens() == P)
            return Emit(AccessKind::Read, MC);
          Cur = P;
          continue;
        }
        // v.method(): a container or tensor object.
        const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(PM.getParent(P));
        const CXXMethodDecl *Method = MC ? MC->getMethodDecl() : nullptr;
        if (!Method || !Method->getIdentifier())
          return Emit(AccessKind::Read, P);
        llvm::StringRef Name = Method->getName();
        if (llvm::is_contained({"data", "get", "c_str", "data_ptr",
                                "mutable_data_ptr", "const_data_ptr"},
                               Name)) {
          Cur = MC;
          continue;
        }
        // Metadata, not storage (containers and tensors).
        if (llvm::is_contained(
                {"size", "capacity", "empty", "length", "max_size",
                 "get_allocator", "sizes", "numel", "dim", "dtype",
                 "scalar_type", "device", "is_pinned", "is_cuda", "is_cpu",
                 "options", "defined", "stride", "strides", "element_size",
                 "nbytes", "itemsize", "get_device", "layout",
                 "requires_grad", "is_contiguous"},
                Name))
          return;
        // A copy to the GPU on the current stream is ordered after the
        // copy that produced the tensor.
        if (Name == "cuda" || (Name == "to" && targetsCuda(MC)))
          return;
        // A view shares the storage: what is done with it decides.
        if (isTensorType(MC->getType()) && isTensorView(Name)) {
          Cur = MC;
          continue;
        }
        Cur = MC;
        bool Mutates =
            Name.ends_with("_") || // in-place tensor operations
            llvm::is_contained({"push_back", "emplace_back", "pop_back",
                                "resize", "assign", "clear", "insert",
                                "emplace", "erase", "fill", "swap", "append",
                                "replace"},
                               Name);
        return Emit(Mutates ? AccessKind::Write : AccessKind::Read, MC);
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P);
          Op && Op->getOperator() != OO_Call) {
        if (Op->getOperator() == OO_Subscript && Op->getArg(0) == Cur &&
            isTensorType(Op->getType())) {
          Cur = P; // t[0] is a view of t's storage
          continue;
        }
        if (Op->isAssignmentOp() && Op->getArg(0) == Cur &&
            BindingAssignments.count(Op))
          return; // `t = b.to(kCPU, true)`: binds the copy's destination
        if (Op->getOperator() == OO_Subscript && Op->getArg(0) == Cur) {
          if (Element)
            return Emit(AccessKind::Read, P);
          Element = true;
          Cur = P;
          continue;
        }
        if (Op->isAssignmentOp() && Op->getArg(0) == Cur)
          return Emit(AccessKind::Write, P);
        return Emit(AccessKind::Read, P);
      }
      if (const auto *C = dyn_cast<CallExpr>(P)) {
        if (C->getCallee()->IgnoreParenImpCasts() == Cur)
          return;
        if (isStdCast(C)) {
          Cur = P;
          continue;
        }
        if (isModelledCall(C))
          return; // its own transfer function handles the argument
        if (!Element &&
            summarizable(C->getDirectCallee(), Ctx.getSourceManager()))
          return; // applyHelper decides from the helper's summary
        // A tensor handle stored in a container (outs.push_back(t)) is
        // another handle to the storage, not a read of it.
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
            MC && !Element && isTensorType(cast<Expr>(Cur)->getType()) &&
            MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
            llvm::is_contained({"push_back", "emplace_back", "insert",
                                "emplace", "push", "push_front"},
                               MC->getMethodDecl()->getName()))
          return;
        // The pointer, or an element bound to a reference parameter.
        return Emit(AccessKind::PassedToFunction, C, C->getDirectCallee());
      }
      if (isa<InitListExpr, CXXStdInitializerListExpr>(P) && !Element &&
          !cast<Expr>(Cur)->getType()->isPointerType()) {
        Cur = P; // torch::cat({a, b}): the list is what is passed
        continue;
      }
      if (const auto *CC = dyn_cast<CXXConstructExpr>(P)) {
        if (isTensorType(CC->getType()) && !Element) {
          // Another handle to the same storage: an alias where it is bound
          // to a variable or returned; passed on (by value, in a list),
          // what it is passed to decides.
          if (isa_and_nonnull<DeclStmt, ReturnStmt>(PM.getParent(CC)))
            return;
          Cur = P;
          continue;
        }
        // A wrapper built only to be passed on (an ArrayRef or list of
        // tensors for torch::cat): the call it is passed to is the consumer.
        const Stmt *Up = PM.getParent(CC);
        while (isa_and_nonnull<MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                                ImplicitCastExpr>(Up))
          Up = PM.getParent(Up);
        if (!Element && isa_and_nonnull<CallExpr>(Up)) {
          Cur = P;
          continue;
        }
        const CXXConstructorDecl *Ctor = CC->getConstructor();
        if (Ctor && (Ctor->isCopyOrMoveConstructor() || Element))
          return Emit(AccessKind::Read, P);
        return Emit(AccessKind::PassedToFunction, P,
                    Ctor ? Ctor->getParent() : nullptr);
      }
      if (const auto *DS = dyn_cast<DeclStmt>(P)) {
        if (const auto *For = dyn_cast_or_null<CXXForRangeStmt>(PM.getParent(DS));
            For && For->getRangeStmt() == DS)
          return Emit(AccessKind::Read, Cur);
        if (Element) {
          const auto *V = DS->isSingleDecl()
                              ? dyn_cast<VarDecl>(DS->getSingleDecl())
                              : nullptr;
          if (V && V->getType()->isReferenceType())
            return; // float &r = h[0]: an alias of the element
          return Emit(AccessKind::Read, Cur);
        }
        return; // float *p = h + k: an alias
      }
      if (isa<CXXForRangeStmt>(P))
        return Emit(AccessKind::Read, Cur);
      if (Element)
        return Emit(AccessKind::Read, Cur);
      return; // return p; if (p); init lists; ...
    }
  }

  //--- Events from calls ----------------------------------------------------

  void collectCallEvents() {
    for (const CallExpr *C : Calls) {
      if (isa<CUDAKernelCallExpr>(C)) {
        Event Ev(Event::KernelLaunch);
        Ev.Anchor = C;
        Ev.CE = C;
        Events.push_back(std::move(Ev));
        continue;
      }
      const FunctionDecl *Callee = C->getDirectCallee();
      if (const ApiEntry *E = Model.lookup(Callee);
          E && E->Family == ApiFamily::User && !fitsCall(*E, C))
        continue; // a declared position past the call's arguments
      if (const ApiEntry *E = Model.lookup(Callee)) {
        if (isPerThreadName(Callee))
          PerThread = true;
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
            if (!Pageable || Opts.StrictMode)
              addCopy(C, Root, Pageable, streamOf(arg(C, E->StreamArg)),
                      nullptr);
            continue;
          }
          // Not a device-to-host copy: stream-ordered work on its pointers.
        }
        Event Ev(Event::Api);
        Ev.Anchor = C;
        Ev.CE = C;
        Ev.Entry = E;
        Events.push_back(std::move(Ev));
        continue;
      }
      const CXXMethodDecl *CalleeLambda = lambdaOperator(Callee);
      if (!CalleeLambda)
        addLambdaArgs(C, C->arguments(), Callee);
      if (!Callee || isUnmodelledGpuApi(Callee) ||
          !summarizable(Callee, Ctx.getSourceManager()))
        continue; // opaque: classifyUse reports buffers passed to it
      bool CalleeTruncated = false;
      const HelperSummary *S =
          Owner.summary(Callee, Depth + 1, &CalleeTruncated);
      Truncated |= CalleeTruncated;
      Event Ev(Event::Call);
      Ev.Anchor = C;
      Ev.CE = C;
      Ev.Summary = S;
      if (S)
        for (const HelperSummary::PendingCopy &PC : S->CopiesLeftPending) {
          std::string Key, Name;
          Provenance Prov;
          if (PC.DstNamed >= 0) {
            const HelperSummary::NamedBuffer &B = S->Named[PC.DstNamed];
            Key = B.Key;
            Name = B.Name;
            const Expr *Init = nullptr;
            if (!nameAtCall(Key, Name, C, CalleeLambda, &Init))
              continue;
            const Expr *Root = Init ? bufferRoot(Init) : nullptr;
            Prov = Root ? provenanceOf(Root)
                        : std::max(Aliases.provenance(Key),
                                   B.Var ? varProvenance(B.Var)
                                         : Provenance::Unknown);
          } else {
            const Expr *Dst = paramArg(C, PC.DstParam);
            const Expr *Root = Dst ? bufferRoot(Dst) : nullptr;
            if (!Root)
              continue;
            Key = exprKey(Root);
            Name = spelling(Root, Ctx);
            Prov = provenanceOf(Root);
          }
          if (Prov == Provenance::Device ||
              (Prov == Provenance::Pageable && !Opts.StrictMode))
            continue;
          StreamRef Stream =
              PC.StreamParam >= 0 ? streamOf(paramArg(C, PC.StreamParam))
                                  : PC.Stream;
          if (PC.StreamParam < 0 &&
              !streamAtCall(Stream, C, CalleeLambda))
            Stream = StreamRef{}; // an object the caller cannot name
          CopySite *Site = newCopy();
          Site->Call = C;
          Site->InnerCopy = PC.Copy;
          Site->Buffer = Aliases.classKey(Key);
          Site->BufferName = Name;
          Site->Stream = Stream;
          Site->Pageable = Prov == Provenance::Pageable;
          Ev.HelperCopies.push_back(Copies.size() - 1);
        }
      Events.push_back(std::move(Ev));
    }
    for (const CXXConstructExpr *T : ThreadStarts)
      addLambdaArgs(T, T->arguments(), T->getConstructor()->getParent());
  }

  /// Lambdas handed to a function (`std::for_each(.., [&](int i) {
  /// use(h[i]); })`, `std::thread t([&] {...})`), which may run them: their
  /// captured buffers count as passed to it, as a pointer would. Utilities
  /// that only forward or wrap the lambda do not run it.
  template <class Args>
  void addLambdaArgs(const Expr *Call, Args Arguments,
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
      bool CalleeTruncated = false;
      const HelperSummary *S = Owner.summary(Op, Depth + 1, &CalleeTruncated);
      Truncated |= CalleeTruncated;
      if (!S || llvm::none_of(S->Named, [](const auto &B) {
            return !B.Unsynced.empty();
          }))
        continue;
      Event Ev(Event::LambdaArg);
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
      Events.push_back(std::move(Ev));
    }
  }

  /// cudaMemcpyBatchAsync(dsts, ...): the destinations are the elements of
  /// the array `dsts`, from its initializer (`void *dsts[] = {h1, h2}`) and
  /// from assignments to its elements (`dsts[i] = h`), or, for
  /// cudaMemcpy3DBatchAsync, `ops[i].dst.op.ptr.ptr = h`. The direction of
  /// each copy follows from the pointers: a destination known to be host
  /// memory (pinned, or pageable under StrictMode) becomes pending.
  void collectBatchCopy(const CallExpr *C, const ApiEntry &E) {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(arg(C, E.DstArg)));
    const auto *Array = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!Array)
      return;
    bool Ops = E.Struct == ParamsStructKind::Batch3DOps;
    // Per slot (its index, as written), the last value stored before the
    // call: a slot reused for another buffer holds only the latest.
    std::map<std::string, const Expr *> Slots;
    if (const auto *Init =
            dyn_cast_or_null<InitListExpr>(Array->getInit()
                                               ? Array->getInit()->IgnoreImplicit()
                                               : nullptr);
        Init && !Ops)
      for (unsigned N = 0; N < Init->getNumInits(); ++N)
        Slots[std::to_string(N)] = Init->getInit(N);
    const SourceManager &SM = Ctx.getSourceManager();
    for (const Assignment &A : Assigns) {
      if (!A.Lhs || !SM.isBeforeInTranslationUnit(A.Lhs->getBeginLoc(),
                                                  C->getBeginLoc()))
        continue;
      const Expr *L = strip(A.Lhs);
      if (Ops) { // ops[i].dst.op.ptr.ptr
        static constexpr llvm::StringLiteral Path[] = {"ptr", "ptr", "op",
                                                       "dst"};
        bool Match = true;
        for (llvm::StringRef Field : Path) {
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
        Slots[Index ? std::to_string(*Index) : exprKey(Sub->getIdx())] = A.Rhs;
      }
    }
    std::vector<const Expr *> Dsts;
    for (const auto &[Slot, Value] : Slots)
      Dsts.push_back(Value);
    for (const Expr *Dst : Dsts) {
      const Expr *Root = bufferRoot(Dst);
      if (!Root)
        continue;
      Provenance P = provenanceOf(Root);
      if (P == Provenance::Pinned ||
          (P == Provenance::Pageable && Opts.StrictMode))
        addCopy(C, Root, P == Provenance::Pageable,
                streamOf(arg(C, E.StreamArg)), nullptr);
    }
  }

  /// libtorch copies. `b.to(<CPU>, .., /*non_blocking=*/true)` copies into
  /// a new pinned tensor: the variable it initialises or is assigned to,
  /// or else a temporary that its consumer reads at once (the seed:
  /// `a.copy_(b.to(kCPU, true))`). `dst.copy_(src, true)` copies into dst.
  /// Blocking forms, `.item()` and `.cpu()` of a tensor known to be on the
  /// GPU synchronize the current stream.
  void collectTorchCopy(const CallExpr *C, const ApiEntry &E) {
    const Expr *Obj = arg(C, ObjectArg);
    const Expr *ObjRoot = Obj ? bufferRoot(Obj) : nullptr;
    auto OnDevice = [&](const Expr *Root) {
      return Root && provenanceOf(Root) == Provenance::Device;
    };
    // b.sum().item(): a tensor computed from a GPU tensor is on the GPU.
    if (!ObjRoot && Obj) {
      const Expr *X = strip(Obj);
      while (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(X)) {
        const CXXMethodDecl *M = MC->getMethodDecl();
        if (!M || !M->getIdentifier() ||
            llvm::is_contained({"to", "cpu", "cuda", "pin_memory"},
                               M->getName()) ||
            !isTensorType(MC->getType()))
          break;
        X = strip(MC->getImplicitObjectArgument());
        if (const Expr *Root = bufferRoot(X)) {
          ObjRoot = Root;
          break;
        }
      }
    }
    llvm::StringRef Name = C->getDirectCallee()->getName();
    auto NB = constantArg(nonBlockingArg(C));
    bool Async = NB && *NB;
    StreamRef Current = currentStreamAt(C->getBeginLoc());
    auto BlockingSync = [&] {
      Event Ev(Event::Api);
      Ev.Anchor = C;
      Ev.CE = C;
      Ev.Entry = &E;
      Events.push_back(std::move(Ev));
    };
    if (E.Role == ApiRole::TorchBlockingRead || (Name == "to" && !Async)) {
      if (OnDevice(ObjRoot) && (E.Role == ApiRole::TorchBlockingRead ||
                                targetsCpu(C)))
        BlockingSync();
      return;
    }
    if (Name == "copy_") {
      const Expr *Src = arg(C, 0);
      const Expr *SrcRoot = Src ? bufferRoot(Src) : nullptr;
      if (!Async) {
        if (OnDevice(SrcRoot))
          BlockingSync();
        return;
      }
      if (!ObjRoot)
        return;
      Provenance Dst = provenanceOf(ObjRoot);
      Provenance From = SrcRoot ? provenanceOf(SrcRoot) : Provenance::Unknown;
      if (Dst == Provenance::Device || From == Provenance::Pinned ||
          From == Provenance::Pageable)
        return; // into the GPU, or host to host
      bool Pageable = Dst == Provenance::Pageable;
      if (Pageable && !Opts.StrictMode)
        return;
      addCopy(C, ObjRoot, Pageable, Current, nullptr);
      return;
    }
    if (Name != "to" || !targetsCpu(C))
      return;
    if (ObjRoot && (provenanceOf(ObjRoot) == Provenance::Pageable ||
                    provenanceOf(ObjRoot) == Provenance::Pinned))
      return; // already on the CPU: nothing is copied from the device
    // Where does the pinned result go?
    const Stmt *Cur = C;
    const Stmt *P = PM.getParent(Cur);
    while (P && (isa<MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                     ImplicitCastExpr, ExprWithCleanups, ParenExpr>(P) ||
                 (isa<CXXConstructExpr>(P) &&
                  cast<CXXConstructExpr>(P)->getNumArgs() == 1))) {
      Cur = P;
      P = PM.getParent(P);
    }
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(P);
        DS && DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
          V && !V->getType()->isReferenceType()) {
        addCopy(C, "d" + ptrKey(V->getCanonicalDecl()), V->getName().str(),
                false, Current, nullptr);
        return;
      }
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(1) == Cur &&
        isa<DeclRefExpr, MemberExpr>(strip(Op->getArg(0)))) {
      addCopy(C, strip(Op->getArg(0)), false, Current, nullptr);
      BindingAssignments.insert(Op);
      return;
    }
    // A temporary: read by whatever consumes it.
    std::string Key = "tmp" + ptrKey(C);
    addCopy(C, Key, spelling(C, Ctx), false, Current, nullptr);
    TemporaryCopies.push_back({C, Aliases.classKey(Key)});
  }
  std::vector<std::pair<const Expr *, std::string>> TemporaryCopies;
  std::set<const Stmt *> BindingAssignments; ///< `t = b.to(kCPU, true)`

  void collectAccessEvents() {
    for (const auto &[C, Class] : TemporaryCopies)
      classifyUse(C, Class);
    std::set<std::string> Tracked;
    for (const CopySite *S : Copies)
      if (!S->Buffer.empty())
        Tracked.insert(S->Buffer);
    if (Tracked.empty())
      return;
    for (const Expr *E : Candidates) {
      // Only the outermost expression naming a tracked buffer is a use:
      // skip the `this` / base parts of a member chain.
      std::string Class = Aliases.classKey(exprKey(E));
      if (Tracked.count(Class))
        classifyUse(E, Class);
    }
  }

  //--- Transfer functions ---------------------------------------------------

  void syncStream(State &St, const StreamRef &S, const Expr *Where) {
    // The stream waited (cudaStreamWaitEvent) for events covering copies.
    for (const auto &[Key, Wait] : St.Waits)
      if (covers(S, Wait.Stream))
        for (unsigned Id : Wait.Covered)
          St.Pending.erase(Id);
    for (auto It = St.Pending.begin(); It != St.Pending.end();) {
      const CopySite &C = *Copies[It->first];
      if (covers(S, C.Stream)) {
        It = St.Pending.erase(It);
        continue;
      }
      It->second.Miss = {missFor(S, C.Stream), Where, S.Spelling};
      ++It;
    }
  }

  void syncEvent(State &St, const Expr *EventE, const Expr *Where) {
    syncEvent(St, exprKey(EventE), spelling(EventE, Ctx), Where);
  }
  void syncEvent(State &St, const std::string &Key,
                 const std::string &EventName, const Expr *Where) {
    auto Info = St.Events.find(Key);
    for (auto It = St.Pending.begin(); It != St.Pending.end();) {
      const CopySite &C = *Copies[It->first];
      if (Info != St.Events.end() && Info->second.Covered.count(It->first)) {
        It = St.Pending.erase(It);
        continue;
      }
      if (Info == St.Events.end())
        It->second.Miss = {MissReason::EventNotRecorded, Where, EventName};
      else if (covers(Info->second.Stream, C.Stream))
        It->second.Miss = {MissReason::EventBeforeCopy, Info->second.Record,
                           EventName};
      else
        It->second.Miss = {MissReason::EventOtherStream, Info->second.Record,
                      Info->second.Stream.Spelling};
      ++It;
    }
  }

  /// cudaEventRecord(event, S) at Where: the event covers what S has in
  /// flight now, including what S waits for (cudaStreamWaitEvent).
  void recordEvent(State &St, const std::string &Key, const StreamRef &S,
                   const Expr *Where) {
    State::EventInfo Info;
    Info.Record = Where;
    Info.Stream = S;
    for (const auto &[Id, P] : St.Pending)
      if (covers(S, Copies[Id]->Stream))
        Info.Covered.insert(Id);
    for (const auto &[WKey, Wait] : St.Waits)
      if (covers(S, Wait.Stream))
        Info.Covered.insert(Wait.Covered.begin(), Wait.Covered.end());
    St.Events[Key] = std::move(Info);
  }

  void note(State &St, MissReason R, const Expr *Where, const StreamRef *S) {
    for (auto &[Id, P] : St.Pending)
      if (!S || Copies[Id]->Stream.sameStream(*S) ||
          R == MissReason::StreamWaitEvent)
        P.Miss = {R, Where, S ? S->Spelling : ""};
  }

  void report(const State &St, const std::string &Buffer, AccessKind K,
              const Expr *Loc, const Expr *Name, const NamedDecl *Callee,
              const Stmt *CalleeAccess = nullptr,
              const StreamRef *UseStream = nullptr,
              const std::string *NameStr = nullptr) {
    if (FindingAt.count(Loc) && !SummaryMode)
      return;
    for (const auto &[Id, P] : St.Pending) {
      const CopySite *C = Copies[P.Site];
      if (C->Buffer != Buffer)
        continue;
      if (UseStream && (C->Stream.sameStream(*UseStream) ||
                        covers(*UseStream, C->Stream)))
        continue; // ordered after the copy: the same stream, or the legacy
                  // default stream after a blocking one
      Finding F;
      F.Access = Loc;
      F.Kind = K;
      F.Callee = Callee;
      F.CalleeAccess = CalleeAccess;
      F.BufferName = Name ? spelling(Name, Ctx) : *NameStr;
      F.Copy = C;
      F.Miss = P.Miss;
      F.LaterIteration =
          C->Call && Ctx.getSourceManager().isBeforeInTranslationUnit(
                         Loc->getBeginLoc(), C->Call->getBeginLoc());
      if (SummaryMode) {
        if (SeedFindings.insert({Loc, C}).second)
          Findings.push_back(std::move(F));
        continue;
      }
      FindingAt[Loc] = Findings.size();
      Findings.push_back(std::move(F));
      return;
    }
  }

  /// Stream-ordered work using pointers: a race only when on another stream.
  void streamOrderedUse(const State &St, const CallExpr *C,
                        const StreamRef &S) {
    for (const Expr *A : C->arguments()) {
      if (!A->getType()->isPointerType() && !A->getType()->isArrayType())
        continue;
      if (const Expr *Root = bufferRoot(A))
        report(St, Aliases.classKey(exprKey(Root)), AccessKind::OtherStreamUse,
               A, Root, nullptr, nullptr, &S);
    }
  }

  void applyApi(State &St, const CallExpr *C, const ApiEntry &E) {
    switch (E.Role) {
    case ApiRole::DeviceSync:
      St.Pending.clear();
      return;
    case ApiRole::FreeSync:
      if (!Opts.StrictMode)
        St.Pending.clear();
      else
        note(St, MissReason::StrictFree, C, nullptr);
      return;
    case ApiRole::StreamSync:
      syncStream(St, streamOf(arg(C, E.StreamArg)), C);
      return;
    case ApiRole::BlockingTransfer: {
      auto Kind = copyKind(C, E);
      if (Kind && *Kind == MemcpyDeviceToDevice)
        return; // "no host-side synchronization is performed"
      syncStream(St, streamOf(nullptr), C);
      return;
    }
    case ApiRole::BlockingMemset: {
      const Expr *Root = bufferRoot(arg(C, E.DstArg));
      if (Root && provenanceOf(Root) == Provenance::Pinned)
        syncStream(St, streamOf(nullptr), C);
      else
        note(St, E.Miss, C, nullptr);
      return;
    }
    case ApiRole::EventRecord: {
      StreamRef S = E.OmittedStreamIsCurrent && !arg(C, E.StreamArg)
                        ? currentStreamAt(C->getBeginLoc())
                        : streamOf(arg(C, E.StreamArg));
      recordEvent(St, exprKey(arg(C, E.EventArg)), S, C);
      return;
    }
    case ApiRole::EventSync:
      syncEvent(St, arg(C, E.EventArg), C);
      return;
    case ApiRole::StreamQuery: {
      // What a cudaSuccess result would prove complete: the copies on the
      // stream that are in flight now (not ones issued after the query).
      StreamRef S = streamOf(arg(C, E.StreamArg));
      std::set<unsigned> &Done = St.Queried[C];
      Done.clear();
      for (auto &[Id, P] : St.Pending)
        if (covers(S, Copies[Id]->Stream)) {
          P.Miss = {MissReason::QueryNotChecked, C, S.Spelling};
          Done.insert(Id);
        }
      return;
    }
    case ApiRole::EventQuery: {
      auto Info = St.Events.find(exprKey(arg(C, E.EventArg)));
      std::set<unsigned> &Done = St.Queried[C];
      Done.clear();
      std::string EventName = spelling(arg(C, E.EventArg), Ctx);
      for (auto &[Id, P] : St.Pending) {
        P.Miss = {MissReason::QueryNotChecked, C, EventName};
        if (Info != St.Events.end() && Info->second.Covered.count(Id))
          Done.insert(Id);
      }
      return;
    }
    case ApiRole::StreamOrdered:
    case ApiRole::AsyncCopy: {
      StreamRef S = streamOf(arg(C, E.StreamArg));
      streamOrderedUse(St, C, S);
      if (E.Miss != MissReason::None)
        note(St, E.Miss, C, &S);
      return;
    }
    case ApiRole::NotASync: {
      StreamRef S = streamOf(arg(C, E.StreamArg));
      note(St, E.Miss, C, &S);
      if (E.EventArg != NoArg && S.K != StreamRef::Unknown) {
        // cudaStreamWaitEvent(S, e): S's later work waits for e.
        auto Info = St.Events.find(exprKey(arg(C, E.EventArg)));
        if (Info != St.Events.end()) {
          State::EventInfo &Wait =
              St.Waits[std::to_string(S.K) + "|" + S.Key];
          Wait.Stream = S;
          Wait.Record = C;
          Wait.Covered.insert(Info->second.Covered.begin(),
                              Info->second.Covered.end());
        }
      }
      return;
    }
    case ApiRole::TorchCopy:
    case ApiRole::TorchBlockingRead:
      // Only created for blocking reads of GPU tensors: the copy runs on the
      // current stream and the call returns after it.
      syncStream(St, currentStreamAt(C->getBeginLoc()), C);
      return;
    case ApiRole::AsyncBatchCopy:
    case ApiRole::PinnedAlloc:
    case ApiRole::DeviceAlloc:
    case ApiRole::StreamCreate:
    case ApiRole::CurrentStream:
    case ApiRole::SetCurrentStream:
    case ApiRole::PoolStream:
      return;
    }
  }

  void applyHelper(State &St, const Event &Ev) {
    const CallExpr *C = Ev.CE;
    const HelperSummary *S = Ev.Summary;
    unsigned NumArgs = C->getNumArgs();
    unsigned Shift = argShift(C);
    // A lambda is named by its variable (`read(h)`: "passed to 'read'").
    const CXXMethodDecl *Lambda = lambdaOperator(C->getDirectCallee());
    const VarDecl *LambdaVar = nullptr;
    if (Lambda) {
      // `f()` carries the closure as argument 0; `f.operator()()` as the
      // object.
      const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
      lambdaOf(MC ? MC->getImplicitObjectArgument()
                  : (NumArgs ? C->getArg(0) : nullptr),
               &LambdaVar);
    }
    const NamedDecl *Callee = LambdaVar ? static_cast<const NamedDecl *>(LambdaVar)
                                        : C->getDirectCallee();
    for (unsigned I = Shift; I < NumArgs; ++I) {
      const Expr *A = C->getArg(I);
      const Expr *Root = bufferRoot(A);
      if (!Root)
        continue;
      std::string Class = Aliases.classKey(exprKey(Root));
      unsigned P = I - Shift;
      if (!S || P >= S->AccessedUnlessSynced.size()) {
        report(St, Class, AccessKind::PassedToFunction, A, Root, Callee);
        continue;
      }
      // Which of the helper's seeds matches each pending copy's stream?
      for (const auto &[Id, Pend] : St.Pending) {
        const CopySite *Copy = Copies[Id];
        if (Copy->Buffer != Class)
          continue;
        int Seed = -1;
        for (unsigned J = 0; J < S->SyncsStreamParam.size(); ++J)
          if (J + Shift < NumArgs && isStreamType(C->getArg(J + Shift)->getType()) &&
              streamOf(C->getArg(J + Shift)).sameStream(Copy->Stream))
            Seed = J;
        if (llvm::is_contained(S->AccessedUnlessSynced[P], Seed)) {
          report(St, Class, AccessKind::PassedToFunction, A, Root, Callee,
                 S->AccessSite[P]);
          break;
        }
      }
    }
    if (!S)
      return;
    // Buffers the caller names too: a lambda's captures, members of the
    // object called on, globals.
    if (Lambda)
      applyNamedAccesses(St, *S, C, Lambda, C, AccessKind::UsedByLambda,
                         LambdaVar);
    else
      applyNamedAccesses(St, *S, C, nullptr, C, AccessKind::UsedByCallee,
                         C->getDirectCallee());
    for (StreamRef Synced : S->SyncsStreams)
      if (streamAtCall(Synced, C, Lambda))
        syncStream(St, Synced, C);
    for (HelperSummary::EventRef Synced : S->SyncsEvents)
      if (nameAtCall(Synced.Key, Synced.Spelling, C, Lambda))
        syncEvent(St, Synced.Key, Synced.Spelling, C);
    for (unsigned J = 0; J < S->SyncsEventParam.size(); ++J)
      if (S->SyncsEventParam[J] && J + Shift < NumArgs)
        syncEvent(St, C->getArg(J + Shift), C);
    for (HelperSummary::EventRecord R : S->RecordsEvents) {
      std::string EventKey = R.Event.Key;
      if (R.EventParam >= 0) {
        if (R.EventParam + Shift >= NumArgs)
          continue;
        EventKey = exprKey(C->getArg(R.EventParam + Shift));
      } else if (!nameAtCall(EventKey, R.Event.Spelling, C, Lambda)) {
        continue;
      }
      StreamRef Rec = R.Stream;
      if (R.StreamParam >= 0) {
        if (R.StreamParam + Shift >= NumArgs)
          continue;
        Rec = streamOf(C->getArg(R.StreamParam + Shift));
      } else if (!streamAtCall(Rec, C, Lambda)) {
        continue;
      }
      recordEvent(St, EventKey, Rec, C);
    }
    if (S->SyncsDevice) {
      St.Pending.clear();
    } else {
      for (unsigned J = 0; J < S->SyncsStreamParam.size(); ++J)
        if (S->SyncsStreamParam[J] && J + Shift < NumArgs)
          syncStream(St, streamOf(C->getArg(J + Shift)), C);
    }
    for (unsigned Id : Ev.HelperCopies)
      issue(St, Id);
  }

  /// A key of a helper's (`this->s_`) as the caller names it: `obj.s_` /
  /// `p->s_` at `obj.wait()` / `p->wait()`; unchanged at a call on `this`,
  /// of a lambda (whose `this` is the caller's), and for globals. False
  /// where the object is not known.
  bool rebase(std::string &Key, std::string &Spelling, const CallExpr *C,
              bool Lambda) {
    llvm::StringRef Rest = Key;
    if (Lambda || !Rest.consume_front("this->"))
      return true;
    // `o.wait()`, or an operator called as one (`++o`, `o[i]`, `o(d)`),
    // whose object is argument 0.
    const Expr *Obj = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      Obj = MC->getImplicitObjectArgument();
    else if (argShift(C) == 1)
      Obj = C->getArg(0);
    if (!Obj)
      return false;
    if (isThis(Obj))
      return true;
    const char *Sep = Obj->getType()->isPointerType() ? "->" : ".";
    Key = exprKey(Obj) + Sep + Rest.str();
    llvm::StringRef Member = Spelling;
    Member.consume_front("this->");
    Spelling = spelling(Obj, Ctx) + Sep + Member.str();
    return true;
  }

  /// A name of a helper's summary (a capture, a `this->` member, a global)
  /// as this caller spells it: an init-capture `[p = h]` of the lambda
  /// Lambda stands for its initializer (*Init is set to it), `this->` is
  /// rebased to the object of the member call Call. False where the caller
  /// cannot name it.
  bool nameAtCall(std::string &Key, std::string &Name, const Expr *Call,
                  const CXXMethodDecl *Lambda, const Expr **Init = nullptr) {
    if (!Lambda) {
      const auto *C = dyn_cast_or_null<CallExpr>(Call);
      if (!C)
        return false;
      // A member of an object parameter: of the argument here.
      if (const FunctionDecl *F = C->getDirectCallee())
        for (unsigned P = 0; P < F->getNumParams(); ++P) {
          const ParmVarDecl *PD = F->getParamDecl(P);
          std::string Prefix = "d" + ptrKey(PD->getCanonicalDecl());
          llvm::StringRef Rest = Key;
          if (!Rest.consume_front(Prefix) ||
              !(Rest.starts_with(".") || Rest.starts_with("->")))
            continue;
          const Expr *A = paramArg(C, P);
          if (!A)
            return false;
          // `p.x` of `P &p` is `q.x` of the argument q; `p->x` of `P *p`
          // is `ptr->x`, or `q.x` for the argument `&q`.
          llvm::StringRef NameRest = Name;
          NameRest.consume_front(PD->getName());
          const auto *U = dyn_cast<UnaryOperator>(strip(A));
          if (U && U->getOpcode() == UO_AddrOf && Rest.consume_front("->")) {
            NameRest.consume_front("->");
            Key = exprKey(U->getSubExpr()) + "." + Rest.str();
            Name = spelling(U->getSubExpr(), Ctx) + "." + NameRest.str();
            return true;
          }
          Key = exprKey(A) + Rest.str();
          Name = spelling(A, Ctx) + NameRest.str();
          return true;
        }
      return rebase(Key, Name, C, /*Lambda=*/false);
    }
    for (const VarDecl *V : capturedVars(Lambda)) {
      if (!V->isInitCapture() || !V->getInit() ||
          Key != "d" + ptrKey(V->getCanonicalDecl()))
        continue;
      const Expr *E = V->getInit();
      const Expr *Root = bufferRoot(E);
      Key = exprKey(Root ? Root : E);
      Name = spelling(Root ? Root : E, Ctx);
      if (Init)
        *Init = E;
      return true;
    }
    return true; // captures and `this` are the caller's own
  }

  /// A stream of a helper's summary as this caller names it (nameAtCall).
  bool streamAtCall(StreamRef &S, const Expr *Call,
                    const CXXMethodDecl *Lambda) {
    if (S.K != StreamRef::Named)
      return true;
    const Expr *Init = nullptr;
    if (!nameAtCall(S.Key, S.Spelling, Call, Lambda, &Init))
      return false;
    if (Init)
      S = streamOf(Init);
    else
      S.NonBlocking = NonBlockingStreams.count(S.Key) != 0;
    return true;
  }

  /// Buffers the caller names too that a helper or lambda touches before
  /// synchronizing them, reported at Loc: its call (PassedToFunction of a
  /// member helper, UsedByLambda) or where a lambda is passed on
  /// (CapturedByArgument).
  void applyNamedAccesses(const State &St, const HelperSummary &S,
                          const Expr *Call, const CXXMethodDecl *Lambda,
                          const Expr *Loc, AccessKind Kind,
                          const NamedDecl *Callee) {
    std::vector<StreamRef> Streams = S.CaptureStreams;
    std::vector<bool> Known(Streams.size());
    for (unsigned K = 0; K < Streams.size(); ++K)
      Known[K] = streamAtCall(Streams[K], Call, Lambda);
    for (const HelperSummary::NamedBuffer &B : S.Named) {
      if (B.Unsynced.empty())
        continue;
      std::string Key = B.Key, Name = B.Name;
      if (!nameAtCall(Key, Name, Call, Lambda))
        continue;
      std::string Class = Aliases.classKey(Key);
      for (const auto &[Id, Pend] : St.Pending) {
        const CopySite *Copy = Copies[Id];
        if (Copy->Buffer != Class)
          continue;
        // The seed on the copy's stream, if the helper names it.
        int Seed = -1;
        for (unsigned K = 0; K < Streams.size(); ++K)
          if (Known[K] && Streams[K].sameStream(Copy->Stream))
            Seed = K;
        if (Seed >= static_cast<int>(S.NamedBufferStreams))
          Seed = -1; // not crossed with the buffers: any stream
        if (llvm::is_contained(B.Unsynced, Seed)) {
          report(St, Class, Kind, Loc, nullptr, Callee, B.Site, nullptr,
                 &Name);
          break;
        }
      }
    }
  }

  /// A copy is issued (again): a fresh instance, which no earlier event
  /// record or query covers.
  void issue(State &St, unsigned Id) {
    // The new copy is pending on every path through here, and a sync that
    // covers it covers the earlier ones of its class: it stands for them.
    unsigned Class = ClassOf[Id];
    St.Pending[Class] = PendingCopy{MissNote{}, {St.Assumed}, Id};
    for (auto *M : {&St.Events, &St.Waits})
      for (auto &[Key, Info] : *M)
        Info.Covered.erase(Class);
    for (auto &[Query, Done] : St.Queried)
      Done.erase(Class);
  }

  void transfer(State &St, const Event &Ev, bool Reporting) {
    switch (Ev.K) {
    case Event::Access:
      if (Reporting)
        report(St, Ev.Buffer, Ev.AK, Ev.Loc, Ev.Name, Ev.Callee);
      return;
    case Event::Copy:
      issue(St, Ev.CopyId);
      return;
    case Event::Api:
      // A blocking memset is stream-ordered work on its target first.
      if (Reporting && Ev.Entry->Role == ApiRole::BlockingMemset) {
        StreamRef S = streamOf(nullptr);
        streamOrderedUse(St, Ev.CE, S);
      }
      if (Reporting || Ev.Entry->Role != ApiRole::StreamOrdered)
        applyApi(St, Ev.CE, *Ev.Entry);
      return;
    case Event::KernelLaunch: {
      const auto *K = cast<CUDAKernelCallExpr>(Ev.CE);
      const CallExpr *Config = K->getConfig();
      StreamRef S = streamOf(Config ? arg(Config, 3) : nullptr);
      if (Reporting)
        streamOrderedUse(St, Ev.CE, S);
      return;
    }
    case Event::Call:
      applyHelper(St, Ev);
      return;
    case Event::LambdaArg:
      if (Reporting)
        applyNamedAccesses(St, *Ev.Summary, Ev.Anchor ? dyn_cast<Expr>(Ev.Anchor) : nullptr,
                           Ev.Lambda, Ev.Loc, Ev.AK, Ev.Callee);
      return;
    case Event::Write:
      St.forget(Ev.Var);
      return;
    }
  }

  /// cudaStreamQuery(s) == cudaSuccess and friends: the successor index on
  /// which the query is known to have returned cudaSuccess (or
  /// "not cudaErrorNotReady", which the measured polling loops rely on).
  std::optional<std::pair<const CallExpr *, unsigned>>
  querySuccessEdge(const Expr *Cond) {
    bool Negated = false;
    Cond = strip(Cond);
    while (const auto *U = dyn_cast_or_null<UnaryOperator>(Cond)) {
      if (U->getOpcode() != UO_LNot)
        break;
      Negated = !Negated;
      Cond = strip(U->getSubExpr());
    }
    if (!Cond)
      return std::nullopt;
    auto QueryOf = [&](const Expr *E) -> const CallExpr * {
      E = strip(E);
      if (const auto *B = dyn_cast<BinaryOperator>(E);
          B && B->getOpcode() == BO_Assign)
        E = strip(B->getRHS());
      if (const auto *C = dyn_cast<CallExpr>(E)) {
        const ApiEntry *A = Model.lookup(C->getDirectCallee());
        if (A && (A->Role == ApiRole::StreamQuery ||
                  A->Role == ApiRole::EventQuery))
          return C;
        return nullptr;
      }
      if (const auto *D = dyn_cast<DeclRefExpr>(E))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
          auto It = QueryVars.find(V);
          return It == QueryVars.end() ? nullptr : It->second;
        }
      return nullptr;
    };
    bool SuccessOnTrue;
    const CallExpr *Q = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(Cond);
        B && B->isEqualityOp()) {
      const Expr *Other = B->getRHS();
      Q = QueryOf(B->getLHS());
      if (!Q) {
        Q = QueryOf(B->getRHS());
        Other = B->getLHS();
      }
      auto V = Q ? evalInt(Other, Ctx) : std::nullopt;
      if (!V || (*V != CudaSuccess && *V != CudaErrorNotReady))
        return std::nullopt;
      bool Eq = B->getOpcode() == BO_EQ;
      SuccessOnTrue = (*V == CudaSuccess) == Eq;
    } else {
      Q = QueryOf(Cond);
      if (!Q)
        return std::nullopt;
      // cudaStreamQuery: a truthy result is an error code; CUDAStream::query
      // returns true once complete.
      SuccessOnTrue = Model.lookup(Q->getDirectCallee())->QueryReturnsBool;
    }
    if (Negated)
      SuccessOnTrue = !SuccessOnTrue;
    return std::make_pair(Q, SuccessOnTrue ? 0u : 1u);
  }

  /// `v`, `!v`, `v == C`, `v != C` on a local or parameter whose address
  /// the callable never takes: the literal that holds on the given edge
  /// (until v is written again: see Event::Write).
  std::optional<Literal> conditionLiteral(const Expr *Cond, bool OnTrue) {
    Cond = strip(Cond);
    bool Positive = OnTrue;
    while (const auto *U = dyn_cast_or_null<UnaryOperator>(Cond)) {
      if (U->getOpcode() != UO_LNot)
        break;
      Positive = !Positive;
      Cond = strip(U->getSubExpr());
    }
    auto Stable = [&](const Expr *E) -> const VarDecl * {
      const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(E));
      const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      if (!V || !V->hasLocalStorage() || AddressTaken.count(V) ||
          V->getType()->isReferenceType() ||
          !(V->getType()->isIntegralOrEnumerationType() ||
            V->getType()->isPointerType()))
        return nullptr;
      return V;
    };
    if (const VarDecl *V = Stable(Cond))
      return Literal{V, !Positive, 0}; // if (v): v != 0
    const auto *B = dyn_cast_or_null<BinaryOperator>(Cond);
    if (!B || !B->isEqualityOp())
      return std::nullopt;
    const VarDecl *V = Stable(B->getLHS());
    const Expr *Other = B->getRHS();
    if (!V) {
      V = Stable(B->getRHS());
      Other = B->getLHS();
    }
    auto C = V ? evalInt(Other, Ctx) : std::nullopt;
    if (!C)
      return std::nullopt;
    bool Eq = (B->getOpcode() == BO_EQ) == Positive;
    return Literal{V, Eq, *C};
  }

  //--- Driver ---------------------------------------------------------------

  bool collect() {
    if (!Body)
      return false;
    Walker W(*this);
    W.TraverseStmt(const_cast<Stmt *>(Body));
    if (Broken)
      return false;
    buildAliasesAndProvenance();
    collectStreamSetters();
    if (SummaryMode)
      seedSummaryCopies();
    collectCallEvents();
    collectAccessEvents();
    for (const auto &[V, At] : Writes) {
      Event Ev(Event::Write);
      Ev.Anchor = At;
      Ev.Var = V;
      Events.push_back(std::move(Ev));
    }
    std::map<std::string, unsigned> Classes;
    for (unsigned Id = 0; Id < Copies.size(); ++Id) {
      const CopySite &C = *Copies[Id];
      std::string Key = C.Buffer + "|" + std::to_string(C.Stream.K) + "|" +
                        C.Stream.Key;
      ClassOf.push_back(C.Synthetic || C.Stream.K == StreamRef::Unknown
                            ? Id
                            : Classes.try_emplace(Key, Id).first->second);
    }
    return true;
  }

  /// Runs to a fixed point, then one reporting pass. Returns the state at
  /// the exit block, or nullopt when over budget or not analysable.
  std::optional<State> run() {
    if (!collect())
      return std::nullopt;
    if (Copies.empty())
      return State{};
    CFG::BuildOptions BO;
    BO.setAllAlwaysAdd();
    std::unique_ptr<CFG> Cfg =
        CFG::buildCFG(FD, const_cast<Stmt *>(Body), &Ctx, BO);
    if (!Cfg)
      return std::nullopt;

    // Events attach to the CFG element of their anchor (or its nearest
    // ancestor that is one).
    llvm::DenseMap<const Stmt *, std::pair<unsigned, unsigned>> ElementOf;
    for (const CFGBlock *B : *Cfg)
      for (unsigned I = 0; I < B->size(); ++I)
        if (auto S = (*B)[I].getAs<CFGStmt>())
          ElementOf.try_emplace(S->getStmt(), B->getBlockID(), I);
    std::vector<std::vector<std::vector<unsigned>>> At(Cfg->getNumBlockIDs());
    for (const CFGBlock *B : *Cfg)
      At[B->getBlockID()].resize(B->size());
    // Accesses first: arguments are evaluated before the call that
    // receives them, which may be a sync.
    for (bool Accesses : {true, false})
      for (unsigned N = 0; N < Events.size(); ++N) {
        if ((Events[N].K == Event::Access) != Accesses)
          continue;
        const Stmt *S = Events[N].Anchor;
        while (S && !ElementOf.count(S))
          S = PM.getParent(S);
        if (!S)
          continue; // unevaluated or unreachable
        auto [Block, Index] = ElementOf.lookup(S);
        At[Block][Index].push_back(N);
      }

    // Reverse post-order index per block. (llvm::ReversePostOrderTraversal
    // cannot be used: CFG successors of pruned edges are null.)
    std::vector<unsigned> Order(Cfg->getNumBlockIDs(), ~0u);
    {
      std::vector<const CFGBlock *> Post;
      std::vector<bool> Seen(Cfg->getNumBlockIDs(), false);
      std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
      Stack.push_back({&Cfg->getEntry(), 0});
      Seen[Cfg->getEntry().getBlockID()] = true;
      while (!Stack.empty()) {
        auto &[B, Next] = Stack.back();
        if (Next < B->succ_size()) {
          // Last successor first: a loop's exit then ends up after its body
          // in reverse post-order, and the body converges before the code
          // after the loop runs.
          const CFGBlock *S = *(B->succ_begin() + (B->succ_size() - 1 - Next++));
          if (S && !Seen[S->getBlockID()]) {
            Seen[S->getBlockID()] = true;
            Stack.push_back({S, 0});
          }
          continue;
        }
        Post.push_back(B);
        Stack.pop_back();
      }
      unsigned N = 0;
      for (auto It = Post.rbegin(); It != Post.rend(); ++It)
        Order[(*It)->getBlockID()] = N++;
    }

    std::vector<const CFGBlock *> BlockById(Cfg->getNumBlockIDs());
    for (const CFGBlock *B : *Cfg)
      BlockById[B->getBlockID()] = B;
    std::vector<State> In(Cfg->getNumBlockIDs());
    State &Entry = In[Cfg->getEntry().getBlockID()];
    Entry.Reached = true;
    for (unsigned Id = 0; Id < Copies.size(); ++Id)
      if (Copies[Id]->Synthetic) {
        Entry.Pending[Id] = PendingCopy{MissNote{}, {Literals{}}, Id};
        if (!Copies[Id]->SeedEvent.empty())
          Entry.Events[Copies[Id]->SeedEvent].Covered.insert(Id);
      }

    auto RunBlock = [&](const CFGBlock &B, bool Reporting) {
      State St = In[B.getBlockID()];
      Owner.Work += (1 + B.size()) * (1 + St.Pending.size());
      for (unsigned I = 0; I < B.size(); ++I)
        for (unsigned E : At[B.getBlockID()][I])
          transfer(St, Events[E], Reporting);
      return St;
    };
    // A block ending in `throw` (clang's CFG makes it an element, with an
    // edge to the exit outside a try).
    auto Throws = [](const CFGBlock &B) {
      for (auto It = B.rbegin(); It != B.rend(); ++It)
        if (auto S = It->getAs<CFGStmt>())
          return isa<CXXThrowExpr>(S->getStmt());
      return false;
    };
    auto Propagate = [&](const CFGBlock &B, const State &Out,
                         std::set<std::pair<unsigned, unsigned>> *Work) {
      std::optional<std::pair<const CallExpr *, unsigned>> Query;
      const Expr *Cond = B.succ_size() == 2 ? B.getLastCondition() : nullptr;
      if (Cond)
        Query = querySuccessEdge(Cond);
      unsigned SuccIndex = 0;
      for (const CFGBlock *Succ : B.succs()) {
        unsigned Index = SuccIndex++;
        if (!Succ)
          continue;
        // A path through abort() or a throw never returns to the caller:
        // what it leaves pending is not the helper's result.
        if (Succ == &Cfg->getExit() && (B.hasNoReturnElement() || Throws(B)))
          continue;
        State Edge = Out;
        if (Query && Query->second == Index) {
          auto Done = Edge.Queried.find(Query->first);
          if (Done != Edge.Queried.end())
            for (unsigned Id : Done->second)
              Edge.Pending.erase(Id);
        }
        if (Cond && Index < 2)
          if (auto L = conditionLiteral(Cond, /*OnTrue=*/Index == 0))
            if (!Edge.assume(*L))
              continue; // contradicts what this path already assumed
        State &Target = In[Succ->getBlockID()];
        State Before = Target;
        Target.join(Edge);
        if (!(Target == Before) && Work)
          Work->insert({Order[Succ->getBlockID()], Succ->getBlockID()});
      }
    };

    std::set<std::pair<unsigned, unsigned>> Work; // (rpo index, block id)
    Work.insert({Order[Cfg->getEntry().getBlockID()],
                 Cfg->getEntry().getBlockID()});
    unsigned Budget =
        std::max(2000u, Opts.BlockVisitFactor * Cfg->getNumBlockIDs());
    while (!Work.empty()) {
      if (Budget-- == 0)
        return std::nullopt; // pathological: skip without a diagnostic
      if (Owner.Work > Owner.Opts.WorkLimit) {
        Owner.OverBudget = true;
        return std::nullopt;
      }
      const CFGBlock *B = BlockById[Work.begin()->second];
      Work.erase(Work.begin());
      Propagate(*B, RunBlock(*B, false), &Work);
    }
    for (const CFGBlock *B : *Cfg)
      if (In[B->getBlockID()].Reached)
        RunBlock(*B, true);
    return In[Cfg->getExit().getBlockID()];
  }
};

//===----------------------------------------------------------------------===//
// AsyncCopyAnalysis
//===----------------------------------------------------------------------===//

AsyncCopyAnalysis::AsyncCopyAnalysis(ASTContext &Ctx, const ApiModel &Model,
                                     AnalysisOptions Opts)
    : Ctx(Ctx), Model(Model), Opts(Opts) {}
AsyncCopyAnalysis::~AsyncCopyAnalysis() = default;

std::vector<Finding> AsyncCopyAnalysis::analyze(const FunctionDecl *FD) {
  if (!FD || !FD->hasBody() || FD->isTemplated() || FD->isInvalidDecl())
    return {};
  Work = 0;
  OverBudget = false;
  Impl I(*this, FD, 0, /*SummaryMode=*/false);
  std::optional<State> Exit = I.run();
  if (!Exit || OverBudget)
    return {};
  std::vector<Finding> Out;
  for (Finding &F : I.Findings)
    if (!F.Copy->Synthetic)
      Out.push_back(std::move(F));
  const SourceManager &SM = Ctx.getSourceManager();
  // Findings are discovered in CFG order; report them in source order.
  std::vector<size_t> Order(Out.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    SourceLocation LA = Out[A].Access->getBeginLoc();
    SourceLocation LB = Out[B].Access->getBeginLoc();
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A < B;
  });
  // One warning per buffer and line: `for (auto i = v.cbegin(); i !=
  // v.cend(); ++i)` is one access site, not two.
  std::vector<Finding> Sorted;
  std::set<std::pair<unsigned, std::string>> Seen;
  for (size_t I : Order) {
    SourceLocation L = SM.getFileLoc(Out[I].Access->getBeginLoc());
    unsigned Line = SM.getExpansionLineNumber(L);
    if (Seen.insert({Line, Out[I].BufferName}).second)
      Sorted.push_back(std::move(Out[I]));
  }
  return Sorted;
}

const HelperSummary *AsyncCopyAnalysis::summary(const FunctionDecl *FD,
                                                unsigned Depth,
                                                bool *Truncated) {
  auto Cut = [&]() -> const HelperSummary * {
    if (Truncated)
      *Truncated = true;
    return nullptr;
  };
  const FunctionDecl *Def = summarizable(FD, Ctx.getSourceManager());
  if (!Def)
    return nullptr;
  if (Depth > Opts.MaxHelperDepth || InProgress.lookup(Def) || OverBudget)
    return Cut();
  // A summary cut short at some depth is exact for calls at that depth or
  // deeper, not for shallower ones: recompute those.
  if (auto It = Summaries.find(Def);
      It != Summaries.end() &&
      (!It->second.Truncated || Depth >= It->second.Depth)) {
    if (It->second.Truncated && Truncated)
      *Truncated = true;
    return It->second.S.get();
  }

  InProgress[Def] = true;
  Impl I(*this, Def, Depth, /*SummaryMode=*/true);
  std::optional<State> Exit = I.run();
  InProgress[Def] = false;
  if (OverBudget)
    return Cut(); // not cached: a later callable may afford it
  if (I.Truncated && Truncated)
    *Truncated = true;
  CachedSummary &Slot = Summaries[Def];
  Slot.Truncated = I.Truncated;
  Slot.Depth = Depth;
  Slot.S.reset();
  if (!Exit)
    return nullptr;

  auto S = std::make_unique<HelperSummary>();
  unsigned NP = Def->getNumParams();
  S->SyncsStreamParam.assign(NP, false);
  S->AccessedUnlessSynced.assign(NP, {});
  S->AccessSite.assign(NP, nullptr);
  // A seed that is not pending at the exit was synchronized on every path.
  // (An exit that is never reached leaves nothing pending: noreturn helpers
  // count as synchronizing, which is harmless since the caller stops.)
  S->SyncsEventParam.assign(NP, false);
  for (unsigned Id = 0; Id < I.Copies.size(); ++Id) {
    const CopySite &C = *I.Copies[Id];
    if (!C.Synthetic || C.SeedParam >= 0 || C.SeedNamed >= 0)
      continue;
    bool Cleared = !Exit->Pending.count(Id);
    if (!C.SeedEvent.empty()) {
      if (Cleared && C.SeedEventParam >= 0)
        S->SyncsEventParam[C.SeedEventParam] = true;
      else if (Cleared)
        S->SyncsEvents.push_back(
            {C.SeedEvent, C.SeedEventName});
      continue;
    }
    if (C.SeedStreamParam == Impl::MemberOrGlobalStream)
      S->CaptureStreams.push_back(C.Stream);
    if (C.SeedStreamParam == Impl::MemberOrGlobalStream) {
      if (Cleared)
        S->SyncsStreams.push_back(C.Stream);
      continue;
    }
    if (C.SeedStreamParam < 0)
      S->SyncsDevice = Cleared;
    else
      S->SyncsStreamParam[C.SeedStreamParam] = Cleared;
  }
  S->Named = I.NamedSeeds;
  S->NamedBufferStreams = std::min<size_t>(S->CaptureStreams.size(),
                                           Impl::MaxNamedStreams);
  for (const Finding &F : I.Findings) {
    if (F.Copy->SeedNamed >= 0) {
      int Seed = -1;
      for (unsigned K = 0; K < S->CaptureStreams.size(); ++K)
        if (F.Copy->SeedStreamParam == Impl::MemberOrGlobalStream &&
            S->CaptureStreams[K].sameStream(F.Copy->Stream))
          Seed = K;
      HelperSummary::NamedBuffer &B = S->Named[F.Copy->SeedNamed];
      if (!llvm::is_contained(B.Unsynced, Seed))
        B.Unsynced.push_back(Seed);
      if (!B.Site)
        B.Site = F.Access;
      continue;
    }
    if (!F.Copy->Synthetic || F.Copy->SeedParam < 0)
      continue;
    auto &Seeds = S->AccessedUnlessSynced[F.Copy->SeedParam];
    if (!llvm::is_contained(Seeds, F.Copy->SeedStreamParam))
      Seeds.push_back(F.Copy->SeedStreamParam);
    if (!S->AccessSite[F.Copy->SeedParam])
      S->AccessSite[F.Copy->SeedParam] = F.Access;
  }
  // Events recorded on every path, on a stream the caller can name.
  std::vector<std::string> ParamKeys;
  for (unsigned P = 0; P < NP; ++P)
    ParamKeys.push_back("d" + ptrKey(Def->getParamDecl(P)->getCanonicalDecl()));
  auto ParamOf = [&](const std::string &Key) {
    auto It = llvm::find(ParamKeys, Key);
    return It == ParamKeys.end() ? -1
                                 : static_cast<int>(It - ParamKeys.begin());
  };
  for (const auto &[Key, Info] : Exit->Events) {
    const auto *Rec = dyn_cast_or_null<CallExpr>(Info.Record);
    const ApiEntry *E = Rec ? Model.lookup(Rec->getDirectCallee()) : nullptr;
    if (!E || E->Role != ApiRole::EventRecord)
      continue; // a seed's entry, or a record by a nested helper
    const Expr *Ev = arg(Rec, E->EventArg);
    const Expr *St = arg(Rec, E->StreamArg);
    HelperSummary::EventRecord R;
    R.EventParam = ParamOf(Key);
    R.Event = {Key, spelling(Ev, Ctx)};
    if (R.EventParam < 0 && !Impl::outlivesCall(Ev))
      continue;
    R.Stream = Info.Stream;
    if (Info.Stream.K == StreamRef::Named) {
      R.StreamParam = ParamOf(Info.Stream.Key);
      if (R.StreamParam < 0 && !(St && Impl::outlivesCall(St)))
        continue;
    } else if (Info.Stream.K == StreamRef::Unknown) {
      continue;
    }
    S->RecordsEvents.push_back(R);
  }
  // Copies into parameters still in flight when the helper returns.
  for (const auto &[Id, Pend] : Exit->Pending) {
    const CopySite &C = *I.Copies[Pend.Site];
    if (C.Synthetic)
      continue;
    HelperSummary::PendingCopy PC{0, -1, C.Stream,
                                  C.InnerCopy ? C.InnerCopy : C.Call};
    if (C.Stream.K == StreamRef::Named)
      PC.StreamParam = ParamOf(C.Stream.Key);
    // Into a buffer the caller names too (a capture, a member of `this`).
    for (unsigned N = 0; N < S->Named.size(); ++N)
      if (I.Aliases.classKey(S->Named[N].Key) == C.Buffer) {
        PC.DstNamed = N;
        S->CopiesLeftPending.push_back(PC);
      }
    PC.DstNamed = -1;
    for (unsigned P = 0; P < NP; ++P) {
      if (I.Aliases.classKey(ParamKeys[P]) != C.Buffer)
        continue;
      PC.DstParam = P;
      S->CopiesLeftPending.push_back(PC);
    }
  }
  Slot.S = std::move(S);
  return Slot.S.get();
}

} // namespace clang::tidy::cuda
