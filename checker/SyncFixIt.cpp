//===--- SyncFixIt.cpp - The fix-it of an unsynchronized access ---------===//

#include "SyncFixIt.h"
#include "ExprUtils.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>

namespace clang::tidy::cuda {
namespace {

/// A use that only reads the handle: a load, a copy, a const member call.
bool onlyReads(const DeclRefExpr *D, const ParentMap &PM) {
  const Stmt *Up = PM.getParentIgnoreParens(D);
  if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up))
    return C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp;
  if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(Up))
    return C->getConstructor()->isCopyConstructor();
  if (const auto *M = dyn_cast_or_null<MemberExpr>(Up))
    if (const auto *Method = dyn_cast<CXXMethodDecl>(M->getMemberDecl()))
      return Method->isConst();
  return false;
}

/// The text of E as written in the file (a macro argument's tokens
/// included), or empty.
std::string textOf(const Expr *E, const SourceManager &SM,
                   const LangOptions &LO) {
  if (SM.isMacroBodyExpansion(E->getBeginLoc()) ||
      SM.isMacroBodyExpansion(E->getEndLoc()))
    return "";
  CharSourceRange R = CharSourceRange::getTokenRange(
      SM.getFileLoc(E->getBeginLoc()), SM.getFileLoc(E->getEndLoc()));
  return Lexer::getSourceText(R, SM, LO).str();
}

/// NAME when the copy call is the whole argument of a function-like macro
/// `NAME(call)` (an error-checking macro), else empty.
std::string wrappingMacro(const CallExpr *Call, const SourceManager &SM,
                          const LangOptions &LO) {
  SourceLocation B = Call->getBeginLoc();
  if (!SM.isMacroArgExpansion(B))
    return "";
  llvm::StringRef Name = Lexer::getImmediateMacroName(B, SM, LO);
  std::string Inner = textOf(Call, SM, LO);
  CharSourceRange Whole = SM.getExpansionRange(B);
  std::string Text = Lexer::getSourceText(Whole, SM, LO).str();
  auto Squash = [](std::string S) {
    llvm::erase_if(S, [](char C) { return std::isspace(static_cast<unsigned char>(C)); });
    return S;
  };
  if (Name.empty() || Inner.empty() ||
      Squash(Text) != Squash(Name.str() + "(" + Inner + ")"))
    return "";
  return Name.str();
}

/// torch::cuda::synchronize, if the translation unit declares it.
bool torchSynchronizeDeclared(ASTContext &Ctx) {
  const DeclContext *DC = Ctx.getTranslationUnitDecl();
  for (const char *Name : {"torch", "cuda"}) {
    const NamespaceDecl *NS = nullptr;
    for (const NamedDecl *D : DC->lookup(&Ctx.Idents.get(Name)))
      if ((NS = dyn_cast<NamespaceDecl>(D)))
        break;
    if (!NS)
      return false;
    DC = NS;
  }
  return !DC->lookup(&Ctx.Idents.get("synchronize")).empty();
}

} // namespace

/// The uses of one variable in a body, the declaration statement that
/// declares it, and whether a lambda captures it by reference.
struct SyncFixer::VarUses {
  std::vector<const DeclRefExpr *> Refs;
  /// Where a use may change it (not a load, copy or const call), in order.
  std::vector<SourceLocation> Changes;
  bool ChangesKnown = false; ///< Changes computed from Refs
  const DeclStmt *Decl = nullptr;
  bool CapturedByRef = false;
};

namespace {
/// One walk of a body filling the VarUses of every variable it names.
struct UsesWalker : RecursiveASTVisitor<UsesWalker> {
  llvm::DenseMap<const VarDecl *, SyncFixer::VarUses> &Out;
  explicit UsesWalker(llvm::DenseMap<const VarDecl *, SyncFixer::VarUses> &Out)
      : Out(Out) {}
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      Out[V].Refs.push_back(D);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *S) {
    for (const Decl *D : S->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Out[V].Decl = S;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          Out[V].CapturedByRef = true;
    return true;
  }
};
} // namespace

SyncFixer::SyncFixer(const FunctionDecl &FD, const ApiModel &Model,
                     ASTContext &Ctx)
    : FD(FD), Model(Model), Ctx(Ctx) {}
SyncFixer::~SyncFixer() = default;

/// Is D the stream argument of a call that destroys the stream
/// (cudaStreamDestroy, cuStreamDestroy, hipStreamDestroy)? The handle's
/// value is unchanged, but synchronizing it afterwards is undefined
/// (runtime/cases/stream_destroy.cu's fixed copy crashed on the H200 when
/// the fix-it synchronized it there).
bool SyncFixer::destroysStream(const DeclRefExpr *D) const {
  const Stmt *Up = PM->getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(D));
  const auto *Call = dyn_cast_or_null<CallExpr>(Up);
  const ApiEntry *E = Call ? Model.lookup(Call->getDirectCallee()) : nullptr;
  if (!E || E->Miss != MissReason::StreamDestroy || E->StreamArg == NoArg)
    return false;
  const Expr *A = arg(Call, E->StreamArg);
  return A && strip(A) == D;
}

/// Does variable V still hold, at At, the value it had at the copy (Copy),
/// and is it in scope there (and the stream it names not destroyed)?
bool SyncFixer::unchangedAndInScope(const VarDecl *V, SourceLocation Copy,
                                    SourceLocation At) {
  if (!V || V->getType()->isReferenceType() || !V->hasLocalStorage())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  if (!Uses) {
    Uses = std::make_unique<llvm::DenseMap<const VarDecl *, VarUses>>();
    UsesWalker(*Uses).TraverseStmt(const_cast<Stmt *>(FD.getBody()));
  }
  VarUses *U = &(*Uses)[V];
  if (!U->ChangesKnown) {
    U->ChangesKnown = true;
    for (const DeclRefExpr *D : U->Refs)
      if (!onlyReads(D, *PM) || destroysStream(D))
        U->Changes.push_back(SM.getFileLoc(D->getBeginLoc()));
    llvm::sort(U->Changes, Before);
  }
  if (U->CapturedByRef)
    return false;
  // The first change after the copy must not come before the access.
  auto Next = std::upper_bound(U->Changes.begin(), U->Changes.end(), Copy, Before);
  if (Next != U->Changes.end() && Before(*Next, At))
    return false;
  if (isa<ParmVarDecl>(V))
    return V->getDeclContext() == &FD;
  if (!U->Decl)
    return false;
  const Stmt *Scope = PM->getParent(U->Decl);
  return Scope && SM.isBeforeInTranslationUnit(U->Decl->getEndLoc(), At) &&
         SM.isBeforeInTranslationUnit(At, Scope->getEndLoc());
}

std::optional<SyncFix> SyncFixer::fixFor(const Finding &F) {
  const CopySite *C = F.Copy;
  if (!C || C->InnerCopy || !C->InnerCopyAt.empty() || C->Seed || F.LaterIteration || F.Producer ||
      !F.Access || !FD.getBody())
    return std::nullopt;
  // Another device is current at the access: stream 0 there is that
  // device's, and the right one to wait for is not one expression.
  if (F.Miss.Reason == MissReason::OtherDevice)
    return std::nullopt;
  const auto *Call = dyn_cast<CallExpr>(C->Call);
  const ApiEntry *E = Call ? Model.lookup(Call->getDirectCallee()) : nullptr;
  if (!E)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  if (!PM)
    PM = std::make_unique<ParentMap>(FD.getBody());
  // The statement of the access, in a block.
  const Stmt *S = F.Access;
  const Stmt *Up = PM->getParent(S);
  while (Up && !isa<CompoundStmt>(Up)) {
    S = Up;
    Up = PM->getParent(S);
  }
  SourceLocation At = S->getBeginLoc();
  if (!Up || isa<SwitchCase, LabelStmt>(S) || At.isInvalid() || At.isMacroID())
    return std::nullopt;
  SourceLocation CopyLoc = SM.getFileLoc(Call->getBeginLoc());
  SourceLocation CopyEnd = SM.getFileLoc(Call->getEndLoc());
  if (!SM.isBeforeInTranslationUnit(CopyEnd, At) ||
      SM.getFileID(CopyLoc) != SM.getFileID(At))
    return std::nullopt; // the copy is in the statement, or elsewhere
  if (SM.isMacroBodyExpansion(Call->getBeginLoc()))
    return std::nullopt; // the copy is built by a macro

  std::string Sync;
  if (E->Family == ApiFamily::Torch) {
    const auto *V = dyn_cast_or_null<VarDecl>(C->Stream.Path.rootDecl());
    if (C->Stream.K == StreamRef::Named && V && C->Stream.Path.steps().empty() &&
        unchangedAndInScope(V, CopyLoc, At))
      Sync = V->getName().str() + ".synchronize()";
    else if (torchSynchronizeDeclared(Ctx))
      Sync = "torch::cuda::synchronize()";
    else
      return std::nullopt;
  } else {
    const char *Fn = E->Family == ApiFamily::CudaRuntime ? "cudaStreamSynchronize"
                     : E->Family == ApiFamily::CudaDriver ? "cuStreamSynchronize"
                     : E->Family == ApiFamily::Hip        ? "hipStreamSynchronize"
                                                          : nullptr;
    if (!Fn || E->StreamArg == NoArg)
      return std::nullopt;
    const Expr *SE = arg(Call, E->StreamArg);
    std::string Stream;
    if (!SE) {
      Stream = "0"; // omitted: the default stream
    } else if (evalInt(strip(SE), Ctx)) {
      Stream = textOf(SE, SM, LO); // 0, cudaStreamPerThread, ...
    } else if (const auto *D = dyn_cast<DeclRefExpr>(strip(SE))) {
      if (unchangedAndInScope(dyn_cast<VarDecl>(D->getDecl()), CopyLoc, At))
        Stream = textOf(SE, SM, LO);
    }
    if (Stream.empty())
      return std::nullopt;
    Sync = std::string(Fn) + "(" + Stream + ")";
    if (std::string Macro = wrappingMacro(Call, SM, LO); !Macro.empty())
      Sync = Macro + "(" + Sync + ")";
  }
  // Before the statement, on a line of its own with its indentation.
  std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(At);
  llvm::StringRef Buffer = SM.getBufferData(Pos.first);
  size_t LineStart = Buffer.rfind('\n', Pos.second == 0 ? 0 : Pos.second - 1);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Indent = Buffer.slice(LineStart, Pos.second);
  bool OwnLine = llvm::all_of(Indent, [](char Ch) { return Ch == ' ' || Ch == '\t'; });
  std::string Text = Sync + ";" + (OwnLine ? "\n" + Indent.str() : " ");
  return SyncFix{FixItHint::CreateInsertion(At, Text), At, Sync + ";"};
}

} // namespace clang::tidy::cuda
