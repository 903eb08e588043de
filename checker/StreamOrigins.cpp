//===--- StreamOrigins.cpp - Which streams members and globals hold -------===//
//
// One walk of the translation unit's own declarations and its libraries'
// (not the toolchain's: LibraryCode.h) classifies every occurrence of a
// stream-handle member or global. RecursiveASTVisitor visits a parent
// before its children, so a use is classified when its parent is visited
// (a load, an assignment, a creation's `&`), and an occurrence left
// unclassified when it is reached itself makes its origin Unknown.
//
//===----------------------------------------------------------------------===//

#include "StreamOrigins.h"
#include "AccessPath.h"
#include "ExprUtils.h"
#include "LibraryCode.h"
#include "LibraryProducers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {
namespace {

/// The member or global an lvalue names (`s_`, `h->stream`, `g_stream`, a
/// function's static local); else null.
const ValueDecl *memberOrGlobalNamed(const Expr *E) {
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(M->getMemberDecl());
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
        V && V->hasGlobalStorage())
      return V;
  return nullptr;
}

/// The member or global a stream-handle lvalue names: `s_`, `h->stream`,
/// `g_stream`, a function's static local (`static cudaStream_t s`, reached
/// by callers through an accessor: staticReturned), an element of an array
/// of them (`streams_[i]`); else null.
const ValueDecl *handleDecl(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = A->getBase()->IgnoreParenImpCasts();
    const ValueDecl *D = handleDecl(Base);
    return D && D->getType()->isArrayType() ? D : nullptr;
  }
  const ValueDecl *D = memberOrGlobalNamed(E);
  if (!D)
    return nullptr;
  QualType T = D->getType();
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  return isStreamType(T) ? cast<ValueDecl>(D->getCanonicalDecl()) : nullptr;
}

/// The member or global a library handle lvalue names (`cusolver_handle_`,
/// `ctx->blas`, `g_handle`: isLibraryHandleType; not an array's element);
/// else null.
const ValueDecl *libraryHandleDecl(const Expr *E) {
  const ValueDecl *D = E ? memberOrGlobalNamed(E->IgnoreParens()) : nullptr;
  return D && isLibraryHandleType(D->getType()) &&
                 !D->getType()->isArrayType()
             ? cast<ValueDecl>(D->getCanonicalDecl())
             : nullptr;
}

/// A null handle: no stream yet (`nullptr`, `0`, `{}`).
bool isNullHandle(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return true;
  E = E->IgnoreParenImpCasts();
  if (isa<ImplicitValueInitExpr, CXXScalarValueInitExpr>(E))
    return true;
  if (const auto *L = dyn_cast<InitListExpr>(E))
    return L->getNumInits() == 0 ||
           (L->getNumInits() == 1 && isNullHandle(L->getInit(0), Ctx));
  auto V = evalInt(E, Ctx);
  return V && *V == 0;
}

/// `make()` of a function with a visible body whose every return returns
/// one local it created a stream into, and that it gives no other value
/// (`cudaStream_t s; cudaStreamCreate(&s); return s;`): that creation.
std::optional<StreamOrigin> factoryOrigin(ASTContext &Ctx,
                                          const ApiModel &Model,
                                          const Expr *V) {
  const auto *C = dyn_cast_or_null<CallExpr>(V ? V->IgnoreParenImpCasts()
                                               : nullptr);
  const FunctionDecl *Def = nullptr;
  if (!C || !C->getDirectCallee() || !C->getDirectCallee()->hasBody(Def) ||
      !Def || !isStreamType(Def->getReturnType()))
    return std::nullopt;
  struct Body : RecursiveASTVisitor<Body> {
    std::vector<const ReturnStmt *> Returns;
    std::vector<const CallExpr *> Calls;
    std::vector<const DeclRefExpr *> Refs;
    bool VisitReturnStmt(ReturnStmt *R) {
      Returns.push_back(R);
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      Calls.push_back(CE);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      Refs.push_back(R);
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } B;
  B.TraverseStmt(Def->getBody());
  const VarDecl *Local = nullptr;
  for (const ReturnStmt *R : B.Returns) {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(
        R->getRetValue() ? R->getRetValue()->IgnoreParenImpCasts() : nullptr);
    const auto *LV = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!LV || !LV->hasLocalStorage() || isa<ParmVarDecl>(LV) ||
        (Local && LV != Local) ||
        (LV->getInit() && !isNullHandle(LV->getInit(), Ctx)))
      return std::nullopt;
    Local = LV;
  }
  if (!Local)
    return std::nullopt;
  std::optional<StreamOrigin> Origin;
  unsigned AddressUses = 0;
  for (const CallExpr *CE : B.Calls) {
    const ApiEntry *E = Model.lookup(CE->getDirectCallee());
    if (!E || E->Role != ApiRole::StreamCreate)
      continue;
    const auto *U = dyn_cast_or_null<UnaryOperator>(
        arg(CE, E->PtrArg) ? arg(CE, E->PtrArg)->IgnoreParenCasts() : nullptr);
    const auto *D = U && U->getOpcode() == UO_AddrOf
                        ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens())
                        : nullptr;
    if (!D || D->getDecl() != Local)
      continue;
    ++AddressUses;
    std::optional<long long> Flags =
        E->FlagsArg == NoArg ? std::optional<long long>(0)
                             : evalInt(arg(CE, E->FlagsArg), Ctx);
    if (!Flags)
      return std::nullopt;
    StreamOrigin O = (*Flags & StreamNonBlockingFlag)
                         ? StreamOrigin::CreatedNonBlocking
                         : StreamOrigin::CreatedBlocking;
    if (Origin && *Origin != O)
      return std::nullopt;
    Origin = O;
  }
  // Every other use of the local is a load (returns, reads).
  unsigned Uses = 0;
  for (const DeclRefExpr *R : B.Refs)
    if (R->getDecl() == Local)
      ++Uses;
  if (!Origin || Uses != AddressUses + B.Returns.size())
    return std::nullopt;
  return Origin;
}

class Walker : public RecursiveASTVisitor<Walker> {
  using Base = RecursiveASTVisitor<Walker>;

public:
  Walker(ASTContext &Ctx, const ApiModel &Model,
         llvm::DenseMap<const ValueDecl *, StreamOrigin> &Origins,
         StreamOrigins::SourceMap &Sources, StreamOrigins::Handles &H)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Model(Model), Origins(Origins),
        Sources(Sources), H(H) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && isToolchainCode(D, SM))
      return true;
    return Base::TraverseDecl(D);
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() == CK_LValueToRValue)
      classify(C->getSubExpr());
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    // A library handle compared (`if (handle_ != nullptr)`): a read.
    if (B->isEqualityOp())
      for (const Expr *E : {B->getLHS(), B->getRHS()})
        if (libraryHandleDecl(E->IgnoreParenImpCasts()))
          classify(E->IgnoreParenImpCasts());
    if (B->getOpcode() != BO_Assign)
      return true;
    if (const ValueDecl *D = libraryHandleDecl(B->getLHS())) {
      classify(B->getLHS());
      assignedHandle(D, B->getRHS());
    }
    if (const ValueDecl *D = handleDecl(B->getLHS())) {
      classify(B->getLHS());
      assigned(D, B->getRHS());
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      classifyDependentArgs(C);
    libraryHandleCall(C, Callee);
    const ApiEntry *E = Model.lookup(Callee);
    if (E && E->Role == ApiRole::StreamCreate) {
      const auto *U = dyn_cast_or_null<UnaryOperator>(
          arg(C, E->PtrArg) ? arg(C, E->PtrArg)->IgnoreParenCasts() : nullptr);
      if (U && U->getOpcode() == UO_AddrOf)
        if (const ValueDecl *D = handleDecl(U->getSubExpr())) {
          classify(U->getSubExpr());
          std::optional<long long> Flags =
              E->FlagsArg == NoArg ? std::optional<long long>(0)
                                   : evalInt(arg(C, E->FlagsArg), Ctx);
          if (!Flags)
            unknown(D);
          else
            created(D, (*Flags & StreamNonBlockingFlag)
                           ? StreamOrigin::CreatedNonBlocking
                           : StreamOrigin::CreatedBlocking);
        }
      return true;
    }
    // std::exchange(o.s_, nullptr) / std::move(o.s_): the value goes on to
    // where the call's result goes (keepsOrigin decides there).
    if (isStdFunction(Callee, {"exchange", "move"}) && C->getNumArgs() > 0)
      if (handleDecl(C->getArg(0)))
        classify(C->getArg(0));
    // std::swap(s_, o.s_) of a move assignment: the values stay in the
    // member (a library handle's too).
    if (isStdFunction(Callee, {"swap"}) && C->getNumArgs() == 2)
      for (bool Library : {false, true}) {
        auto DeclOf = [&](const Expr *E) {
          return Library ? libraryHandleDecl(E) : handleDecl(E);
        };
        if (const ValueDecl *D = DeclOf(C->getArg(0));
            D && DeclOf(C->getArg(1)) == D) {
          classify(C->getArg(0));
          classify(C->getArg(1));
        }
      }
    return true;
  }

  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->isWritten() && I->getMember()) {
        if (const ValueDecl *D = handleDecl(nullptr, I->getMember()))
          assigned(D, I->getInit());
        if (const FieldDecl *F = I->getMember();
            isLibraryHandleType(F->getType()) && !F->getType()->isArrayType())
          assignedHandle(cast<ValueDecl>(F->getCanonicalDecl()),
                         I->getInit());
      }
    return true;
  }

  bool VisitFieldDecl(FieldDecl *F) {
    // A default member initialiser other than a null handle: some value.
    bool Initialised = F->hasInClassInitializer() &&
                       F->getInClassInitializer() &&
                       !isNullHandle(F->getInClassInitializer(), Ctx);
    if (const ValueDecl *D = handleDecl(nullptr, F)) {
      H.StreamDecls.push_back(D);
      if (Initialised)
        unknown(D);
    }
    if (Initialised && isLibraryHandleType(F->getType()))
      H.Unknown.insert(cast<ValueDecl>(F->getCanonicalDecl()));
    return true;
  }

  /// An initialiser is a write: `static cudaStream_t s = [] { ...;
  /// cudaStreamCreateWithFlags(&t, f); return t; }();` a creation.
  bool VisitVarDecl(VarDecl *V) {
    if (!V->hasGlobalStorage())
      return true;
    bool Initialised = V->getInit() && !isNullHandle(V->getInit(), Ctx);
    if (const ValueDecl *D = handleDecl(nullptr, V)) {
      H.StreamDecls.push_back(D);
      if (Initialised)
        assigned(D, V->getInit());
    }
    if (Initialised && isLibraryHandleType(V->getType()))
      H.Unknown.insert(cast<ValueDecl>(V->getCanonicalDecl()));
    return true;
  }

  bool VisitMemberExpr(MemberExpr *M) {
    if (const ValueDecl *D = handleDecl(M); D && !Classified.count(M))
      unknown(D);
    if (const ValueDecl *D = libraryHandleDecl(M); D && !Classified.count(M))
      H.Unknown.insert(D);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (const ValueDecl *D = handleDecl(R); D && !Classified.count(R))
      unknown(D);
    if (const ValueDecl *D = libraryHandleDecl(R); D && !Classified.count(R))
      H.Unknown.insert(D);
    return true;
  }

private:
  /// A declaration's own handle type (a member or global, not a use).
  static const ValueDecl *handleDecl(std::nullptr_t, const ValueDecl *D) {
    if (!D || (!isa<FieldDecl>(D) && !isa<VarDecl>(D)))
      return nullptr;
    QualType T = D->getType();
    if (const auto *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    return isStreamType(T) ? cast<ValueDecl>(D->getCanonicalDecl()) : nullptr;
  }
  static const ValueDecl *handleDecl(const Expr *E) {
    return cuda::handleDecl(E);
  }

  /// A template's call left unresolved until instantiation
  /// (`cudaMemcpyAsync(h, data_, n * sizeof(T), kind, ctx_->stream_)` with
  /// `T *h`): no load is written around its arguments, so a handle
  /// argument is a read where every function the name may resolve to takes
  /// that argument by value. Anything else stays unclassified (Unknown).
  void classifyDependentArgs(const CallExpr *C) {
    const auto *Names = dyn_cast<UnresolvedLookupExpr>(
        C->getCallee()->IgnoreParenImpCasts());
    if (!Names || Names->getNumDecls() == 0)
      return;
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (!handleDecl(C->getArg(I)))
        continue;
      bool ByValue = llvm::all_of(Names->decls(), [&](const NamedDecl *N) {
        const FunctionDecl *F = N->getAsFunction();
        QualType T = F && I < F->getNumParams()
                         ? F->getParamDecl(I)->getType()
                         : QualType();
        return !T.isNull() && !T->isReferenceType() && isStreamType(T);
      });
      if (ByValue)
        classify(C->getArg(I));
    }
  }

  /// Marks the occurrence (and, for an element, the array's) as seen.
  void classify(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Classified.insert(A->getBase()->IgnoreParenImpCasts());
      return;
    }
    Classified.insert(E);
  }

  /// A value that keeps D's origin: a null handle, the same member of
  /// another object, or std::exchange / std::move of it.
  bool keepsOrigin(const Expr *V, const ValueDecl *D) {
    return isNullHandle(V, Ctx) || handleDecl(movedFrom(V)) == D;
  }

  /// The value V hands over: through std::exchange / std::move of it and a
  /// copy or move constructor (`s_(o.s_)`, `h_(std::exchange(o.h_, {}))`).
  static const Expr *movedFrom(const Expr *V) {
    V = V->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CallExpr>(V);
        C && C->getNumArgs() > 0 &&
        isStdFunction(C->getDirectCallee(), {"exchange", "move"}))
      V = C->getArg(0)->IgnoreParenImpCasts();
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(V);
        Ctor && Ctor->getNumArgs() == 1)
      V = Ctor->getArg(0)->IgnoreParenImpCasts();
    return V;
  }

  /// D is given value V: its origin is kept, or V is a factory's created
  /// stream, or anything.
  void assigned(const ValueDecl *D, const Expr *V) {
    if (keepsOrigin(V, D))
      return;
    // Another member or global's stream (`stream_ =
    // options.context->stream_`): what that one holds (originOf).
    if (const ValueDecl *From = handleDecl(V->IgnoreParenImpCasts());
        From && !D->getType()->isArrayType() &&
        !From->getType()->isArrayType()) {
      Sources[D].insert(From);
      return;
    }
    if (std::optional<StreamOrigin> O = factoryOrigin(Ctx, Model, V))
      created(D, *O);
    else
      unknown(D);
  }

  /// A call of a math library's function with a handle member or global:
  /// a setter gives it the stream (a member or global: HandleStreams; any
  /// other: unknown), a creation makes it anew (no stream of its own yet),
  /// any other function of the library only reads it.
  void libraryHandleCall(const CallExpr *C, const FunctionDecl *Callee) {
    if (!Callee || C->getNumArgs() == 0)
      return;
    const Expr *A0 = C->getArg(0)->IgnoreParenImpCasts();
    if (isHandleCreation(Callee)) {
      if (const Expr *New = addressedObject(C->getArg(0)))
        if (libraryHandleDecl(New->IgnoreParens()))
          classify(New);
      return;
    }
    const ValueDecl *Handle = libraryHandleDecl(A0);
    if (!Handle || !isHandleLibraryCall(Callee))
      return;
    classify(A0);
    if (!isHandleStreamSetter(Callee) || C->getNumArgs() != 2)
      return;
    const Expr *StreamArg = C->getArg(1)->IgnoreParenImpCasts();
    const ValueDecl *S = handleDecl(StreamArg);
    if (!S || S->getType()->isArrayType()) {
      H.Unknown.insert(Handle);
      return;
    }
    H.Streams[Handle].insert(S);
    // The stream a member of the same object (`cusolverDnSetStream(solver_,
    // stream_)`, `(ctx.blas, ctx.compute)`), or not.
    if (!sameObject(A0, StreamArg))
      H.OtherObject.insert(Handle);
  }

  /// `X.h` and `X.s` (or `X->`, `this->`) of one object expression X.
  static bool sameObject(const Expr *Handle, const Expr *Stream) {
    const auto *MH = dyn_cast<MemberExpr>(Handle->IgnoreParens());
    const auto *MS = dyn_cast<MemberExpr>(Stream->IgnoreParens());
    if (!MH || !MS || MH->isArrow() != MS->isArrow())
      return false;
    AccessPath BH = AccessPath::of(MH->getBase()),
               BS = AccessPath::of(MS->getBase());
    bool ThisH = isa<CXXThisExpr>(MH->getBase()->IgnoreParenImpCasts());
    bool ThisS = isa<CXXThisExpr>(MS->getBase()->IgnoreParenImpCasts());
    return (ThisH && ThisS) ||
           (!ThisH && !ThisS && !BH.empty() && BH == BS &&
            BH.rootKind() == AccessPath::RootKind::Decl);
  }

  /// Handle member D is given value V: a null handle, the same member of
  /// another object (a move) keep what it holds; another handle member or
  /// global's value makes it that one's copy (Handles::Sources); anything
  /// else, unknown.
  void assignedHandle(const ValueDecl *D, const Expr *V) {
    if (isNullHandle(V, Ctx))
      return;
    V = movedFrom(V);
    const ValueDecl *From = libraryHandleDecl(V);
    if (!From) {
      H.Unknown.insert(D);
      return;
    }
    classify(V);
    if (From != D)
      H.Sources[D].insert(From);
  }

  void created(const ValueDecl *D, StreamOrigin O) {
    auto [It, New] = Origins.try_emplace(D, O);
    if (!New && It->second != O)
      It->second = StreamOrigin::Unknown;
  }
  void unknown(const ValueDecl *D) { Origins[D] = StreamOrigin::Unknown; }

  ASTContext &Ctx;
  const SourceManager &SM;
  const ApiModel &Model;
  llvm::DenseMap<const ValueDecl *, StreamOrigin> &Origins;
  StreamOrigins::SourceMap &Sources;
  StreamOrigins::Handles &H;
  llvm::DenseSet<const Expr *> Classified;
};

} // namespace

/// The handle member a project's stream class hands out: the one member its
/// conversion to a stream handle (`operator cudaStream_t() const { return
/// s_; }`) returns, when that is its whole body; else null.
static const FieldDecl *wrappedHandle(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  for (const CXXMethodDecl *M : RD->methods()) {
    const auto *Conv = dyn_cast<CXXConversionDecl>(M);
    const FunctionDecl *Def = nullptr;
    if (!Conv || !isStreamType(Conv->getConversionType()) ||
        !Conv->hasBody(Def) || !Def)
      continue;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
    const auto *R = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
    const auto *ME = R && R->getRetValue()
                         ? dyn_cast<MemberExpr>(
                               R->getRetValue()->IgnoreParenImpCasts())
                         : nullptr;
    if (ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
          F && F->getParent() == RD && isStreamType(F->getType()))
        return F;
  }
  return nullptr;
}

StreamOrigin StreamOrigins::returnedBy(const Expr *Call) {
  const auto *C =
      dyn_cast_or_null<CallExpr>(Call ? Call->IgnoreParenImpCasts() : nullptr);
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  if (!Callee)
    return StreamOrigin::Unknown;
  auto [It, New] = Returned.try_emplace(Callee, StreamOrigin::Unknown);
  if (New)
    It->second =
        factoryOrigin(Ctx, Model, C).value_or(StreamOrigin::Unknown);
  return It->second;
}

void StreamOrigins::build() {
  if (Built)
    return;
  Built = true;
  Walker(Ctx, Model, Origins, Sources, LibHandles)
      .TraverseDecl(Ctx.getTranslationUnitDecl());
}

const ValueDecl *StreamOrigins::handleStream(const ValueDecl *Handle,
                                             bool *SameObject) {
  if (SameObject)
    *SameObject = false;
  if (!Handle)
    return nullptr;
  build();
  const ValueDecl *D = cast<ValueDecl>(Handle->getCanonicalDecl());
  const ValueDecl *S = resolveHandle(D, 0);
  // Given its stream directly (not as a copy of another handle), always
  // from the same object, here and in every unit that says so.
  if (S && SameObject && !LibHandles.Sources.count(D) &&
      !LibHandles.OtherObject.count(D) &&
      !(ImportedHandleOtherObject && ImportedHandleOtherObject(D)))
    *SameObject = true;
  return S;
}

const ValueDecl *StreamOrigins::resolveHandle(const ValueDecl *D,
                                              unsigned Depth) {
  if (LibHandles.Unknown.count(D))
    return nullptr;
  auto Set = LibHandles.Streams.find(D);
  std::optional<const ValueDecl *> Elsewhere =
      ImportedHandle ? ImportedHandle(D, LibHandles.StreamDecls)
                     : std::nullopt;
  // A copy of one other handle member (`cusolver_handle_ =
  // context->cusolver_handle_`), given no stream of its own anywhere:
  // that one's stream.
  if (auto S = LibHandles.Sources.find(D); S != LibHandles.Sources.end())
    return Set == LibHandles.Streams.end() && S->second.size() == 1 &&
                   Depth < 4 && !Elsewhere
               ? resolveHandle(S->second.front(), Depth + 1)
               : nullptr;
  const ValueDecl *Here = nullptr;
  if (Set != LibHandles.Streams.end()) {
    if (Set->second.size() != 1)
      return nullptr;
    Here = Set->second.front();
  }
  if (Elsewhere) {
    if (!*Elsewhere || (Here && *Elsewhere != Here))
      return nullptr;
    Here = *Elsewhere;
  }
  return Here;
}

std::vector<StreamOrigins::WrittenHandle> StreamOrigins::handlesWritten() {
  build();
  // As written(): a handle that is only a copy of another is left out.
  llvm::SetVector<const ValueDecl *> Keys;
  for (const auto &[D, S] : LibHandles.Streams)
    Keys.insert(D);
  for (const ValueDecl *D : LibHandles.Unknown)
    Keys.insert(D);
  std::vector<WrittenHandle> Out;
  for (const ValueDecl *D : Keys) {
    auto Set = LibHandles.Streams.find(D);
    bool Known = !LibHandles.Unknown.count(D) &&
                 !LibHandles.Sources.count(D) &&
                 Set != LibHandles.Streams.end() && Set->second.size() == 1;
    Out.push_back({D, Known ? Set->second.front() : nullptr,
                   Known && !LibHandles.OtherObject.count(D)});
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Out, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.Handle->getLocation(),
                                        B.Handle->getLocation());
  });
  return Out;
}

StreamOrigin StreamOrigins::originOf(const ValueDecl *D,
                                     const ValueDecl **Identity) {
  if (!D)
    return StreamOrigin::Unknown;
  // A member or global of a stream class of the project's: what it holds.
  if (const FieldDecl *Inner = wrappedHandle(D->getType()))
    D = Inner;
  build();
  return resolve(cast<ValueDecl>(D->getCanonicalDecl()), Identity, 0);
}

StreamOrigin StreamOrigins::resolve(const ValueDecl *D,
                                    const ValueDecl **Identity,
                                    unsigned Depth) {
  if (Identity)
    *Identity = D;
  auto It = Origins.find(D);
  // Written here only as a copy of one other member or global (its chain
  // bounded): that one's stream, the same stream as it. Creations of its
  // own besides, here or in another unit (whose summary file names it), or
  // copies of several, make it one the check cannot name.
  if (auto S = Sources.find(D); S != Sources.end())
    return It == Origins.end() && S->second.size() == 1 && Depth < 4 &&
                   !(Imported && Imported(D))
               ? resolve(S->second.front(), Identity, Depth + 1)
               : StreamOrigin::Unknown;
  std::optional<StreamOrigin> Here;
  if (It != Origins.end())
    Here = It->second;
  std::optional<StreamOrigin> Elsewhere =
      Imported ? Imported(D) : std::nullopt;
  if (Here && Elsewhere && *Here != *Elsewhere)
    return StreamOrigin::Unknown;
  return Here ? *Here : Elsewhere.value_or(StreamOrigin::Unknown);
}

std::vector<std::pair<const ValueDecl *, StreamOrigin>>
StreamOrigins::written() {
  build();
  // A member that is also a copy of another's is unknown here; one that is
  // only a copy is left out: other units read its origin where it is
  // written (a file exporting its source's origin for it would be read by
  // this unit too, and outlive a change of the source).
  std::vector<std::pair<const ValueDecl *, StreamOrigin>> Out;
  for (const auto &[D, O] : Origins)
    Out.push_back({D, Sources.count(D) ? StreamOrigin::Unknown : O});
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Out, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.first->getLocation(),
                                        B.first->getLocation());
  });
  return Out;
}

} // namespace clang::tidy::cuda
