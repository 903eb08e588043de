//===--- ExprUtils.cpp - Shapes of expressions and calls -------------===//

#include "ExprUtils.h"
#include "CudaApiModel.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <cctype>

namespace clang::tidy::cuda {

llvm::StringRef outermostNamespace(const Decl *D) {
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outermost = NS;
  return Outermost && Outermost->getIdentifier() ? Outermost->getName()
                                                 : llvm::StringRef();
}

bool isStdSmartPointer(const CXXRecordDecl *R) {
  return R && R->isInStdNamespace() && R->getIdentifier() &&
         (R->getName() == "unique_ptr" || R->getName() == "shared_ptr");
}

const Expr *smartPointerHeld(const Expr *E) {
  const CXXMethodDecl *M = nullptr;
  const Expr *Object = nullptr;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Arrow && Op->getNumArgs() == 1) {
    M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    Object = Op->getArg(0);
  } else if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
             MC && MC->getNumArgs() == 0) {
    M = MC->getMethodDecl();
    Object = MC->getImplicitObjectArgument();
    if (M && (!M->getIdentifier() || M->getName() != "get"))
      M = nullptr;
  }
  // libstdc++ declares shared_ptr's operator-> and get() in a base class
  // (__shared_ptr_access, __shared_ptr), called on the object converted to
  // it: the object's own type says.
  return M && Object &&
                 (isStdSmartPointer(M->getParent()) ||
                  isStdSmartPointer(Object->IgnoreParenImpCasts()
                                        ->getType()
                                        .getNonReferenceType()
                                        ->getAsCXXRecordDecl()))
             ? Object
             : nullptr;
}

void collectReturns(const Stmt *S, std::vector<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S) || isa<DeclStmt>(S))
    return; // a nested lambda's or local class's returns are their own
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

bool isStdOptional(QualType T) {
  const auto *R = T.getNonReferenceType()->getAsCXXRecordDecl();
  return R && R->isInStdNamespace() && R->getIdentifier() &&
         R->getName() == "optional";
}

QualType optionalValueType(QualType T) {
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!S || !isStdOptional(T) || S->getTemplateArgs().size() < 1 ||
      S->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return S->getTemplateArgs()[0].getAsType();
}

const Expr *optionalHeld(const Expr *E) {
  const Expr *Object = nullptr;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      Op && (Op->getOperator() == OO_Star || Op->getOperator() == OO_Arrow) &&
      Op->getNumArgs() == 1)
    Object = Op->getArg(0);
  else if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
           MC && MC->getNumArgs() == 0 && MC->getMethodDecl() &&
           MC->getMethodDecl()->getIdentifier() &&
           MC->getMethodDecl()->getName() == "value")
    Object = MC->getImplicitObjectArgument();
  return Object && isStdOptional(Object->getType()) ? Object : nullptr;
}

bool isForwardingParam(const FunctionDecl *F, unsigned N) {
  const FunctionDecl *P = F->getTemplateInstantiationPattern();
  if (!P || P->getNumParams() == 0)
    return false;
  // Parameters before a trailing pack map one to one; the pack takes the
  // rest.
  const ParmVarDecl *PD =
      N < P->getNumParams() && !P->getParamDecl(N)->isParameterPack()
          ? P->getParamDecl(N)
          : P->getParamDecl(P->getNumParams() - 1);
  if (N >= P->getNumParams() && !PD->isParameterPack())
    return false;
  QualType T = PD->getType();
  if (const auto *Pack = T->getAs<PackExpansionType>())
    T = Pack->getPattern();
  const auto *R = T->getAs<RValueReferenceType>();
  return R && !R->getPointeeType().hasQualifiers() &&
         R->getPointeeType()->getAs<TemplateTypeParmType>();
}

ObjectConstruction heapConstruction(const Expr *E) {
  ObjectConstruction H;
  E = strip(E);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
      CE && isStdSmartPointer(CE->getConstructor()->getParent()) &&
      CE->getNumArgs() >= 1)
    E = strip(CE->getArg(0)); // unique_ptr<T>(new T(..))
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(E)) {
    const CXXConstructExpr *K = New->isArray() ? nullptr
                                               : New->getConstructExpr();
    if (K && !K->getConstructor()->isCopyOrMoveConstructor()) {
      H.Ctor = K->getConstructor();
      H.Args.append(K->arg_begin(), K->arg_end());
    }
    return H;
  }
  const auto *C = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *Fn = C ? C->getDirectCallee() : nullptr;
  if (!Fn || !isStdFunction(Fn, {"make_unique", "make_shared"}))
    return H;
  const auto *Holder = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      C->getType()->getAsCXXRecordDecl());
  if (!Holder || !isStdSmartPointer(Holder) ||
      Holder->getTemplateArgs().size() == 0 ||
      Holder->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return H;
  const CXXRecordDecl *T =
      Holder->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  if (!T || !T->hasDefinition())
    return H;
  for (const CXXConstructorDecl *K : T->getDefinition()->ctors()) {
    if (!K->isUserProvided() || K->isCopyOrMoveConstructor() ||
        K->getNumParams() != C->getNumArgs())
      continue;
    if (H.Ctor)
      return {}; // overloads of that arity: which one runs is not followed
    H.Ctor = K;
  }
  if (H.Ctor)
    H.Args.append(C->arg_begin(), C->arg_end());
  return H;
}

ObjectConstruction valueConstruction(const Expr *E) {
  ObjectConstruction O;
  const auto *K = dyn_cast_or_null<CXXConstructExpr>(strip(E));
  if (!K || K->getConstructor()->isCopyOrMoveConstructor() ||
      K->isElidable())
    return O;
  O.Ctor = K->getConstructor();
  O.Args.append(K->arg_begin(), K->arg_end());
  return O;
}

bool isStreamWrapper(const CXXRecordDecl *R) {
  if (!R || !R->getIdentifier())
    return false;
  // c10::cuda::CUDAStream, c10::Stream (by their namespace: c10).
  if ((R->getName() == "CUDAStream" || R->getName() == "Stream") &&
      outermostNamespace(R) == "c10")
    return true;
  R = R->getDefinition();
  if (!R || R->isInvalidDecl())
    return false;
  for (const NamedDecl *D : R->getVisibleConversionFunctions())
    if (const auto *Conv =
            dyn_cast<CXXConversionDecl>(D->getUnderlyingDecl()))
      if (isStreamType(Conv->getConversionType()))
        return true;
  return false;
}

bool isStreamOrWrapper(QualType T) {
  return isStreamType(T) ||
         isStreamWrapper(T.getNonReferenceType()->getAsCXXRecordDecl());
}

bool isStreamConversion(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *M = MC->getMethodDecl();
  if (!M || !isStreamWrapper(M->getParent()))
    return false;
  if (const auto *Conv = dyn_cast<CXXConversionDecl>(M))
    return isStreamOrWrapper(Conv->getConversionType());
  // value(), stream(), view(), unwrap(): a const accessor without
  // arguments that returns the stream or a wrapper of it.
  return MC->getNumArgs() == 0 && M->getNumParams() == 0 &&
         (M->isConst() || M->getName() == "unwrap") &&
         isStreamOrWrapper(M->getReturnType());
}

/// `cuda_stream_view(s)`: a wrapper built from one stream (the remaining
/// arguments defaulted) names it.
static const Expr *wrappedStream(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (!Ctor || CE->getNumArgs() == 0 || !isStreamWrapper(Ctor->getParent()))
    return nullptr;
  for (unsigned I = 1; I < CE->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(CE->getArg(I)))
      return nullptr;
  return isStreamOrWrapper(CE->getArg(0)->getType()) ? CE->getArg(0)
                                                     : nullptr;
}

const ValueDecl *namedDecl(const Expr *E) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(E));
  return D ? D->getDecl() : nullptr;
}

const Expr *addressedObject(const Expr *E) {
  const auto *U = dyn_cast_or_null<UnaryOperator>(strip(E));
  return U && U->getOpcode() == UO_AddrOf ? strip(U->getSubExpr()) : nullptr;
}

const Stmt *loopBody(const Stmt *S) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    return F->getBody();
  if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(S))
    return R->getBody();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(S))
    return W->getBody();
  if (const auto *D = dyn_cast_or_null<DoStmt>(S))
    return D->getBody();
  return nullptr;
}

const Expr *strip(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      E = D->getExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *W = dyn_cast<ExprWithCleanups>(E))
      E = W->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
             MC && isStreamConversion(MC))
      E = MC->getImplicitObjectArgument();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() == 1 && CE->getConstructor() &&
             CE->getConstructor()->isCopyOrMoveConstructor())
      E = CE->getArg(0); // a copy of a handle names the same object
    else if (const Expr *Wrapped =
                 isa<CXXConstructExpr>(E)
                     ? wrappedStream(cast<CXXConstructExpr>(E))
                     : nullptr)
      E = Wrapped;
    else
      break;
  }
  return E;
}

std::string spelling(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Macro arguments (CHECK(cudaMemcpyAsync(h, ...))) are spelled in the
  // file; anything built inside a macro body is printed instead.
  SourceLocation B = SM.getFileLoc(E->getBeginLoc());
  SourceLocation End = SM.getFileLoc(E->getEndLoc());
  if (B.isValid() && End.isValid() &&
      !SM.isMacroBodyExpansion(E->getBeginLoc()) &&
      !SM.isMacroBodyExpansion(E->getEndLoc()) &&
      SM.getFileID(B) == SM.getFileID(End) &&
      !SM.isBeforeInTranslationUnit(End, B)) {
    llvm::StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(B, End), SM, Ctx.getLangOpts());
    if (!Text.empty() && Text.size() < 80 && !Text.contains('\n'))
      return Text.str();
  }
  // An expression that is a whole macro expansion (cudaStreamPerThread):
  // the macro as written.
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation MacroBegin, MacroEnd;
  if (E->getBeginLoc().isMacroID() &&
      Lexer::isAtStartOfMacroExpansion(E->getBeginLoc(), SM, LO,
                                       &MacroBegin) &&
      Lexer::isAtEndOfMacroExpansion(E->getEndLoc(), SM, LO, &MacroEnd)) {
    llvm::StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(MacroBegin, MacroEnd), SM, LO);
    if (!Text.empty() && Text.size() < 80 && !Text.contains('\n'))
      return Text.str();
  }
  std::string S;
  llvm::raw_string_ostream OS(S);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return S;
}

/// The index past the string or character literal that starts at S[I].
static size_t literalEnd(llvm::StringRef S, size_t I) {
  char Quote = S[I];
  size_t J = I + 1;
  while (J < S.size() && S[J] != Quote)
    J += S[J] == '\\' ? 2 : 1;
  return std::min(J + 1, S.size());
}

/// `f(a, b).g()[i]` -> `f(...).g()[i]`: the non-empty argument lists of
/// calls (a parenthesis after a name, `)`, `]` or `>`), literals skipped.
static std::string elideArguments(llvm::StringRef S) {
  std::string Out;
  for (size_t I = 0; I < S.size();) {
    char C = S[I];
    if (C == '"' || C == '\'') {
      size_t J = literalEnd(S, I);
      Out += S.slice(I, J);
      I = J;
      continue;
    }
    char Last = Out.empty() ? ' ' : Out.back();
    if (C == '(' && (isalnum(static_cast<unsigned char>(Last)) ||
                     llvm::StringRef("_)]>").contains(Last))) {
      size_t J = I + 1;
      int Depth = 1;
      bool Empty = true;
      while (J < S.size() && Depth) {
        if (S[J] == '"' || S[J] == '\'') {
          J = literalEnd(S, J);
          Empty = false;
          continue;
        }
        Depth += S[J] == '(' ? 1 : S[J] == ')' ? -1 : 0;
        Empty &= Depth == 0 || isspace(static_cast<unsigned char>(S[J]));
        ++J;
      }
      Out += Empty ? "()" : "(...)";
      I = J;
      continue;
    }
    Out += C;
    ++I;
  }
  return Out;
}

std::string shortName(llvm::StringRef S) {
  S = S.trim();
  if (S.size() <= NameMax)
    return S.str();
  std::string E = elideArguments(S);
  if (E.size() <= NameMax)
    return E;
  llvm::StringRef Cut = llvm::StringRef(E).take_front(NameMax - 3);
  size_t Member = 0;
  for (llvm::StringRef Op : {".", "->"})
    if (size_t At = Cut.rfind(Op); At != llvm::StringRef::npos)
      Member = std::max(Member, At);
  if (Member >= NameMax / 2)
    Cut = Cut.take_front(Member);
  return Cut.str() + "...";
}

std::optional<long long> evalInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E->IgnoreParenImpCasts()))
    E = D->getExpr();
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (E->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                               Expr::NPC_ValueDependentIsNotNull))
    return 0;
  return std::nullopt;
}

const Expr *arg(const CallExpr *C, int I) {
  if (I == ObjectArg) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
    return MC ? MC->getImplicitObjectArgument() : nullptr;
  }
  if (I < 0 || static_cast<unsigned>(I) >= C->getNumArgs())
    return nullptr;
  return C->getArg(I);
}

/// A pointer to a struct named Cuda or Hip: the opaque handle types
/// (cudaStream_t is `struct CUstream_st *`, hipStream_t `struct
/// ihipStream_t *`).
static bool isHandleType(QualType T, llvm::StringRef Cuda,
                         llvm::StringRef Hip) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *P = T->getAs<PointerType>();
  if (!P)
    return false;
  const auto *RD = P->getPointeeType()->getAsRecordDecl();
  return RD && RD->getIdentifier() &&
         (RD->getName() == Cuda || RD->getName() == Hip);
}

bool isStreamType(QualType T) {
  return isHandleType(T, "CUstream_st", "ihipStream_t");
}

bool isMemcpyKindType(QualType T) {
  const auto *ET = T.getCanonicalType()->getAs<EnumType>();
  const EnumDecl *ED = ET ? ET->getDecl() : nullptr;
  return ED && ED->getIdentifier() &&
         (ED->getName() == "cudaMemcpyKind" || ED->getName() == "hipMemcpyKind");
}

bool isEventType(QualType T) {
  return isHandleType(T, "CUevent_st", "ihipEvent_t");
}

bool isStdFunction(const FunctionDecl *F,
                   std::initializer_list<llvm::StringRef> Names) {
  return F && F->isInStdNamespace() && F->getIdentifier() &&
         llvm::is_contained(Names, F->getName());
}

std::vector<std::pair<const Expr *, const Expr *>>
pointerExchanges(const CallExpr *C) {
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  bool Swap = isStdFunction(F, {"swap"}) && C->getNumArgs() == 2;
  bool Exchange = isStdFunction(F, {"exchange"}) && C->getNumArgs() == 2;
  if (!Swap && !Exchange)
    return {};
  QualType T = C->getArg(0)->getType();
  if (!T->isPointerType() || isStreamType(T) || isEventType(T))
    return {};
  if (Swap)
    return {{C->getArg(0), C->getArg(1)}, {C->getArg(1), C->getArg(0)}};
  return {{C->getArg(0), C->getArg(1)}};
}

bool isStdCast(const CallExpr *C) {
  return C && C->getNumArgs() == 1 &&
         isStdFunction(C->getDirectCallee(), {"move", "forward"});
}

const Expr *rawPointerCastOperand(const Expr *E) {
  const auto *C = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  return FD && C->getNumArgs() == 1 && FD->getIdentifier() &&
                 FD->getName() == "raw_pointer_cast" &&
                 outermostNamespace(FD) == "thrust"
             ? C->getArg(0)
             : nullptr;
}

const Expr *bufferRoot(const Expr *E) {
  while (E) {
    E = strip(E);
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAdditiveOp() && B->getType()->isPointerType()) {
        E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
        continue;
      }
      if (B->getOpcode() == BO_Comma) {
        E = B->getRHS();
        continue;
      }
      return nullptr;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_AddrOf)
        return nullptr;
      const Expr *Sub = U->getSubExpr()->IgnoreParens();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
        E = AS->getBase();
        continue;
      }
      if (const auto *D = dyn_cast<UnaryOperator>(Sub);
          D && D->getOpcode() == UO_Deref) {
        E = D->getSubExpr();
        continue;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Sub);
          Op && Op->getOperator() == OO_Subscript) {
        E = Op->getArg(0);
        continue;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(Sub)) {
        E = ME->getBase();
        continue;
      }
      if (isa<DeclRefExpr>(Sub))
        return Sub; // &x: the object x itself
      return nullptr;
    }
    if (const auto *C = dyn_cast<CallExpr>(E); C && isStdCast(C)) {
      E = C->getArg(0);
      continue;
    }
    if (const Expr *Held = rawPointerCastOperand(E)) {
      E = Held;
      continue;
    }
    if (sequenceFront(E) && E->getType()->isPointerType())
      return E; // bufs.front() of a std::vector<float *>: bufs[0]
    if (const Expr *Object = dataAccessorObject(E)) {
      E = Object;
      continue;
    }
    if (const Expr *Object = deviceIteratorObject(E)) {
      E = Object;
      continue;
    }
    // An accessor of a member holding a buffer pointer (`r.data()` with
    // `return h_;`, `rb_data(ctx)` with `return c->host;`): that member of
    // the object or argument (AccessPath::of names it so).
    unsigned Param = 0;
    if (const auto *C = dyn_cast<CallExpr>(E);
        C && E->getType()->isPointerType() &&
        (isa<CXXMemberCallExpr>(C)
             ? trivialAccessorResult(cast<CXXMemberCallExpr>(C)) != nullptr
             : parameterAccessorResult(C, &Param) != nullptr))
      return E;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      // A view of device memory returned by a call
      // (`m.structure_view().get_rows()`, a raft::device_span): its
      // storage, of known kind.
      return isDeviceContainer(MC->getType()) ? E : nullptr;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return isa<VarDecl>(D->getDecl()) || isa<BindingDecl>(D->getDecl())
                 ? E
                 : nullptr; // a structured binding: AccessPath::of follows it
    if (isa<MemberExpr>(E))
      return E;
    if (isa<ArraySubscriptExpr>(E) && E->getType()->isPointerType())
      return E; // bufs[i]
    if (sequenceElement(E) && E->getType()->isPointerType())
      return E; // bufs[i] of a std::vector<float *>
    return nullptr;
  }
  return nullptr;
}

bool isPageableAllocation(const Expr *E) {
  E = strip(E);
  if (isa_and_nonnull<CXXNewExpr>(E))
    return true;
  // std::unique_ptr<T[]>(new T[n]), std::shared_ptr<T>(new T): a smart
  // pointer taking a new'd pointer (with a deleter of its own it may hold
  // anything: only the default deleter counts).
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E))
    return isStdSmartPointer(CE->getConstructor()->getParent()) &&
           CE->getNumArgs() == 1 && isa<CXXNewExpr>(strip(CE->getArg(0)));
  const auto *C = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier())
    return false;
  // std::make_unique<T[]>(n), std::make_shared<T>(...): operator new.
  if (isStdFunction(F, {"make_unique", "make_shared",
                        "make_unique_for_overwrite",
                        "make_shared_for_overwrite"}))
    return true;
  return llvm::is_contained({"malloc", "calloc", "realloc", "aligned_alloc",
                             "valloc", "memalign"},
                            F->getName());
}

const Expr *dataAccessorObject(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  return M && M->getIdentifier() && isDataAccessor(M->getName())
             ? MC->getImplicitObjectArgument()
             : nullptr;
}

bool isDataAccessor(llvm::StringRef Method) {
  return llvm::is_contained({"data", "get", "c_str", "data_ptr",
                             "mutable_data_ptr", "const_data_ptr",
                             "data_handle"},
                            Method);
}

const CXXMethodDecl *lambdaOperator(const FunctionDecl *F) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(F);
  return M && M->getParent()->isLambda() ? M : nullptr;
}

const VarDecl *capturedVariable(const FunctionDecl *Callable,
                                const ValueDecl *D) {
  const auto *V = dyn_cast_or_null<VarDecl>(D);
  return V && lambdaOperator(Callable) && V->hasLocalStorage() &&
                 V->getDeclContext() != Callable
             ? V
             : nullptr;
}

const CXXMethodDecl *lambdaOf(const Expr *A, const VarDecl **Var) {
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

const FunctionDecl *namedFunction(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E);
  return D ? dyn_cast<FunctionDecl>(D->getDecl()) : nullptr;
}

bool callsUnknownTarget(const CallExpr *C, const FunctionDecl *Callee) {
  if (isa<CUDAKernelCallExpr>(C) || C->isTypeDependent())
    return false;
  if (!Callee) // through a pointer, not a pseudo-destructor (`p->~T()`)
    return !isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParens());
  const auto *M = dyn_cast<CXXMethodDecl>(Callee);
  if (!M)
    return false;
  if (M->getParent()->isInStdNamespace()) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
    const IdentifierInfo *Class = M->getParent()->getIdentifier();
    return Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0 &&
           Class &&
           llvm::is_contained({"function", "move_only_function",
                               "copyable_function", "function_ref"},
                              Class->getName()) &&
           !lambdaOf(Op->getArg(0));
  }
  if (!M->isVirtual() || isa<CXXDestructorDecl>(M))
    return false;
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (ME && ME->hasQualifier()) // `Base::f()`: no dispatch
      return false;
    Object = MC->getImplicitObjectArgument();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
             Op && Op->getNumArgs() > 0) {
    Object = Op->getArg(0);
  }
  return Object && !M->getDevirtualizedMethod(Object, /*IsAppleKext=*/false);
}

llvm::SmallVector<const VarDecl *, 8>
capturedVars(const CXXMethodDecl *Lambda) {
  llvm::SmallVector<const VarDecl *, 8> Vars;
  for (const LambdaCapture &Cap : Lambda->getParent()->captures())
    if (const auto *V = Cap.capturesVariable()
                            ? dyn_cast<VarDecl>(Cap.getCapturedVar())
                            : nullptr)
      Vars.push_back(V);
  return Vars;
}

const Expr *singleReturnValue(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *M = MC->getMethodDecl();
  const FunctionDecl *Def = nullptr;
  if (!M || M->getNumParams() != 0 || M->isVirtual() || !M->hasBody(Def) ||
      !Def)
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  return Ret ? strip(Ret->getRetValue()) : nullptr;
}

/// The member chain E spells (`x.m.n`, `p->m`, fields only) and its root
/// below the members, stripped; null Root when E is no member.
static const Expr *memberChainRoot(const Expr *E) {
  const Expr *Base = E;
  while (const auto *ME = dyn_cast_or_null<MemberExpr>(Base)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return nullptr;
    Base = strip(ME->getBase());
  }
  return Base != E ? Base : nullptr;
}

const Expr *trivialAccessorResult(const CXXMemberCallExpr *MC) {
  const Expr *Value = singleReturnValue(MC);
  const Expr *Root = memberChainRoot(Value);
  return Root && isThis(Root) ? Value : nullptr;
}

const Expr *parameterAccessorResult(const CallExpr *C, unsigned *Param) {
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || isa<CXXMethodDecl>(Callee) || isa<CXXOperatorCallExpr>(C) ||
      !Callee->hasBody(Def) || !Def || Def->isTemplated())
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  const Expr *Value = Ret ? strip(Ret->getRetValue()) : nullptr;
  const auto *D = dyn_cast_or_null<DeclRefExpr>(memberChainRoot(Value));
  const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != Def ||
      P->getFunctionScopeIndex() >= C->getNumArgs())
    return nullptr;
  *Param = P->getFunctionScopeIndex();
  return Value;
}

const VarDecl *staticReturned(const CallExpr *C) {
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def ||
      Def->getReturnType()->isReferenceType())
    return nullptr;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && M->isVirtual())
    return nullptr;
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  const VarDecl *Out = nullptr;
  for (const ReturnStmt *R : Returns) {
    const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(R->getRetValue()));
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V || !V->hasGlobalStorage() || V->getType()->isReferenceType() ||
        (Out && V->getCanonicalDecl() != Out))
      return nullptr;
    Out = V->getCanonicalDecl();
  }
  return Out;
}

/// A member function whose visible body is `return *this;` or `return
/// this;`, through casts (a CRTP base's `D &self() { return
/// static_cast<D &>(*this); }`): the object it is called on.
static bool returnsOwnObject(const CXXMemberCallExpr *MC) {
  const Expr *Value = singleReturnValue(MC);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Value);
      U && U->getOpcode() == UO_Deref)
    Value = strip(U->getSubExpr());
  return isa_and_nonnull<CXXThisExpr>(Value);
}

bool isThis(const Expr *E) {
  E = strip(E);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    E = strip(U->getSubExpr());
  // `self().issue()` of a CRTP base, on `this`.
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
    if (!MC || !returnsOwnObject(MC))
      break;
    E = strip(MC->getImplicitObjectArgument());
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
        U && U->getOpcode() == UO_Deref)
      E = strip(U->getSubExpr());
  }
  return isa_and_nonnull<CXXThisExpr>(E);
}

unsigned argShift(const CallExpr *C) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
  const auto *M =
      Op ? dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()) : nullptr;
  return M && M->isImplicitObjectMemberFunction() ? 1 : 0;
}

const Expr *paramArg(const CallExpr *C, int Param) {
  return arg(C, Param + argShift(C));
}

} // namespace clang::tidy::cuda
