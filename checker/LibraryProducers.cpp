//===--- LibraryProducers.cpp - Library calls that write device buffers ---===//
//
// The rows of LibraryProducers.h: which library a callee belongs to (by its
// outermost namespace, or its name for NCCL's C API), and its outputs and
// stream by parameter name.
//
//===----------------------------------------------------------------------===//

#include "LibraryProducers.h"
#include "ExprUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::cuda {
namespace {

enum class Library { None, Cub, Rocprim, Nccl };

/// The outermost named namespace around D, or null.
const NamespaceDecl *outermostNamespace(const Decl *D) {
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isInline() &&
                                                       NS->getIdentifier())
      Outer = NS;
  return Outer;
}

Library libraryOf(const FunctionDecl *F) {
  if (!F->getIdentifier())
    return Library::None;
  if (F->getName().starts_with("nccl") &&
      F->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      !outermostNamespace(F))
    return Library::Nccl;
  const NamespaceDecl *NS = outermostNamespace(F);
  if (!NS)
    return Library::None;
  llvm::StringRef Name = NS->getName();
  if (Name == "cub" || Name == "hipcub") {
    // A device-wide primitive: a static member of DeviceReduce, DeviceScan, ...
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    const CXXRecordDecl *Class = M ? M->getParent() : nullptr;
    return M && M->isStatic() && Class->getIdentifier() &&
                   Class->getName().starts_with("Device")
               ? Library::Cub
               : Library::None;
  }
  if (Name == "rocprim" && F->getDeclContext()->isNamespace() &&
      cast<NamespaceDecl>(F->getDeclContext())->getName() != "detail")
    return Library::Rocprim;
  return Library::None;
}

bool isOutput(Library L, llvm::StringRef Param) {
  switch (L) {
  case Library::Cub:
    return Param.starts_with("d_") && Param.contains("out");
  case Library::Rocprim:
    return Param == "output" || Param.ends_with("_output");
  case Library::Nccl:
    return Param == "recvbuff";
  case Library::None:
    break;
  }
  return false;
}

/// The size query: temporary storage given as a null pointer constant.
bool isSizeQuery(Library L, const CallExpr *C, const ASTContext &Ctx) {
  return L != Library::Nccl && C->getNumArgs() > 0 &&
         C->getArg(0)->IgnoreParenImpCasts()->isNullPointerConstant(
             const_cast<ASTContext &>(Ctx), Expr::NPC_ValueDependentIsNotNull);
}

} // namespace

static bool inThrust(const Decl *D) {
  return cuda::outermostNamespace(D) == "thrust";
}

/// How a thrust CUDA policy class synchronizes: true (performs the
/// optional synchronization), false (nosync), nullopt (not one of Thrust's
/// CUDA policies).
static std::optional<bool>
thrustPolicySynchronizes(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return std::nullopt;
  std::optional<bool> Found;
  auto Classify = [&](const CXXRecordDecl *B) {
    if (!B->getIdentifier() || !inThrust(B))
      return;
    llvm::StringRef N = B->getName();
    if (N == "execute_on_stream_nosync_base" || N == "par_nosync_t")
      Found = false;
    else if (!Found && (N == "execute_on_stream_base" || N == "par_t"))
      Found = true;
  };
  Classify(RD);
  RD->forallBases([&](const CXXRecordDecl *B) {
    Classify(B);
    return true;
  });
  return Found;
}

std::optional<ThrustCall> thrustCall(const CallExpr *C,
                                     const FunctionDecl *Callee) {
  if (!C || !Callee || !Callee->getIdentifier() || C->getNumArgs() == 0 ||
      Callee->getNumParams() == 0 || isa<CXXMethodDecl>(Callee))
    return std::nullopt;
  if (!inThrust(Callee))
    return std::nullopt;
  // The policy as written, not as converted to execution_policy_base.
  const Expr *Policy = C->getArg(0)->IgnoreImplicit();
  std::optional<bool> Sync = thrustPolicySynchronizes(
      Policy->getType().getNonReferenceType()->getAsCXXRecordDecl());
  if (!Sync)
    return std::nullopt;
  ThrustCall T;
  T.Policy = Policy;
  T.Synchronizes = *Sync;
  llvm::StringRef Name = Callee->getName();
  bool ToResult = llvm::is_contained(
      {"copy", "copy_n", "transform", "inclusive_scan", "exclusive_scan",
       "inclusive_scan_by_key", "exclusive_scan_by_key",
       "transform_inclusive_scan", "transform_exclusive_scan",
       "adjacent_difference", "gather", "gather_if", "scatter", "scatter_if",
       "reverse_copy", "replace_copy", "replace_copy_if",
       "uninitialized_copy", "uninitialized_copy_n"},
      Name);
  bool InPlace = llvm::is_contained(
      {"fill", "fill_n", "sequence", "tabulate", "generate", "generate_n",
       "sort", "stable_sort", "sort_by_key", "stable_sort_by_key", "reverse",
       "replace", "replace_if", "uninitialized_fill", "uninitialized_fill_n"},
      Name);
  unsigned N = std::min(C->getNumArgs(), Callee->getNumParams());
  for (unsigned I = 1; I < N; ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    llvm::StringRef Param = P->getIdentifier() ? P->getName() : "";
    if ((ToResult && Param == "result") ||
        (InPlace && (Param == "first" || Param == "keys_first" ||
                     Param == "values_first")))
      T.Outputs.push_back(I);
  }
  return T;
}

const Expr *thrustPolicyStream(const Expr *Policy, bool *Default) {
  *Default = false;
  const Expr *E = Policy ? Policy->IgnoreImplicit() : nullptr;
  while (const auto *F = dyn_cast_or_null<CXXFunctionalCastExpr>(E))
    E = F->getSubExpr()->IgnoreImplicit();
  if (const auto *M = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *On = M->getMethodDecl();
    return On && On->getIdentifier() && On->getName() == "on" &&
                   M->getNumArgs() == 1
               ? M->getArg(0)
               : nullptr;
  }
  if (const auto *K = dyn_cast_or_null<CXXConstructExpr>(E)) {
    for (const Expr *A : K->arguments())
      if (isStreamOrWrapper(A->getType()))
        return A;
    return nullptr;
  }
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (V && V->hasGlobalStorage() && inThrust(V))
    *Default = true; // thrust::cuda::par, par_nosync, thrust::device
  return nullptr;
}

/// The math library whose handle type Callee's first parameter has:
/// "cublas" (cublasHandle_t), "hipblas", "rocblas_" and "rocsolver_"
/// (rocblas_handle), "cusolverDn" (cusolverDnHandle_t), "hipsolver",
/// "cusparse" (cusparseHandle_t), "hipsparse", "rocsparse_", "cufft"
/// (cufftHandle), "hipfft" (hipfftHandle); else empty.
static constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral>
    HandleLibraries[] = {{"cublas", "cublasHandle_t"},
                         {"hipblas", "hipblasHandle_t"},
                         {"rocblas_", "rocblas_handle"},
                         {"rocsolver_", "rocblas_handle"},
                         {"cusolverDn", "cusolverDnHandle_t"},
                         {"hipsolverDn", "hipsolverDnHandle_t"},
                         {"hipsolver", "hipsolverHandle_t"},
                         {"cusparse", "cusparseHandle_t"},
                         {"hipsparse", "hipsparseHandle_t"},
                         {"rocsparse_", "rocsparse_handle"},
                         {"cufft", "cufftHandle"},
                         {"hipfft", "hipfftHandle"}};

/// The name of the handle typedef T is spelled with (through further
/// typedefs of it), or empty.
static llvm::StringRef handleTypeName(QualType T) {
  for (const auto *TT = T->getAs<TypedefType>(); TT;
       TT = TT->getDecl()->getUnderlyingType()->getAs<TypedefType>())
    for (const auto &[Prefix, Handle] : HandleLibraries)
      if (TT->getDecl()->getName() == Handle)
        return Handle;
  return "";
}

bool isLibraryHandleType(QualType T) {
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  return !handleTypeName(T).empty();
}

static llvm::StringRef handleLibrary(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier() || Callee->getNumParams() == 0 ||
      !Callee->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return "";
  const auto *T = Callee->getParamDecl(0)->getType()->getAs<TypedefType>();
  llvm::StringRef Type = T ? T->getDecl()->getName() : "";
  for (const auto &[Prefix, Handle] : HandleLibraries)
    if (Type == Handle && Callee->getName().starts_with(Prefix))
      return Prefix;
  return "";
}

bool isHandleLibraryCall(const FunctionDecl *Callee) {
  return !handleLibrary(Callee).empty();
}

/// A math library's function of (handle, stream or stream pointer) whose
/// name is one of Names.
static bool handleStreamFunction(const FunctionDecl *Callee,
                                 std::initializer_list<llvm::StringRef> Names) {
  llvm::StringRef Lib = handleLibrary(Callee);
  return !Lib.empty() && Callee->getNumParams() == 2 &&
         llvm::is_contained(Names, Callee->getName());
}

bool isHandleStreamSetter(const FunctionDecl *Callee) {
  return handleStreamFunction(
      Callee,
      {"cublasSetStream_v2", "cublasSetStream", "hipblasSetStream",
       "rocblas_set_stream", "cusolverDnSetStream", "hipsolverSetStream",
       "hipsolverDnSetStream", "cusparseSetStream", "hipsparseSetStream",
       "rocsparse_set_stream", "cufftSetStream", "hipfftSetStream"});
}

bool isHandleStreamGetter(const FunctionDecl *Callee) {
  return handleStreamFunction(
      Callee,
      {"cublasGetStream_v2", "cublasGetStream", "hipblasGetStream",
       "rocblas_get_stream", "cusolverDnGetStream", "hipsolverGetStream",
       "hipsolverDnGetStream", "cusparseGetStream", "hipsparseGetStream",
       "rocsparse_get_stream"});
}

bool isHandleCreation(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier() || Callee->getNumParams() == 0)
    return false;
  return llvm::is_contained(
      {"cublasCreate_v2", "cublasCreate", "hipblasCreate",
       "rocblas_create_handle", "cusolverDnCreate", "hipsolverCreate",
       "hipsolverDnCreate", "cusparseCreate", "hipsparseCreate",
       "rocsparse_create_handle", "cufftCreate", "cufftPlan1d", "cufftPlan2d",
       "cufftPlan3d", "cufftPlanMany", "hipfftCreate", "hipfftPlan1d",
       "hipfftPlan2d", "hipfftPlan3d", "hipfftPlanMany"},
      Callee->getName());
}

/// A dense vector or matrix descriptor of the sparse libraries' generic API
/// (cusparseDnVecDescr_t, cusparseDnMatDescr_t, hipSPARSE's and rocSPARSE's
/// kin), not its const form (an input).
static bool isDenseDescriptor(QualType T) {
  const auto *TT = T->getAs<TypedefType>();
  llvm::StringRef N = TT ? TT->getDecl()->getName() : "";
  return llvm::is_contained({"cusparseDnVecDescr_t", "cusparseDnMatDescr_t",
                             "hipsparseDnVecDescr_t", "hipsparseDnMatDescr_t",
                             "rocsparse_dnvec_descr", "rocsparse_dnmat_descr"},
                            N);
}

/// A parameter through which a routine may write host memory before it
/// returns, so that it may wait for its own work: a BLAS `result`, a
/// cuSOLVER host output (`meig` of syevdx, `h_R_nrmF`, `h_err_sigma`, the
/// mixed-precision solvers' `iter`, a Jacobi method's `residual` and
/// `executed_sweeps`), a host workspace (`bufferOnHost` of cuSOLVER's
/// 64-bit API), a size written to the host (`bufferSize1` of
/// cusparseSpGEMM_workEstimation), a count that may be on the host
/// (`nnzTotalDevHostPtr`).
static bool writesHost(const ParmVarDecl *P) {
  if (!P->getIdentifier() || !P->getType()->isPointerType() ||
      P->getType()->getPointeeType().isConstQualified())
    return false;
  llvm::StringRef N = P->getName();
  return N == "result" || N.starts_with("h_") || N.starts_with("meig") ||
         N == "iter" || N == "niters" || N == "residual" ||
         N.contains("sweeps") || N.contains("Host") ||
         N.contains("host") || N.contains("bufferSize") ||
         N.contains("BufferSize") || N.contains("buffer_size");
}

std::optional<HandleRoutine> handleRoutine(const CallExpr *C,
                                           const FunctionDecl *Callee) {
  llvm::StringRef Lib = handleLibrary(Callee);
  if (Lib.empty() || !C || C->getNumArgs() < Callee->getNumParams())
    return std::nullopt;
  llvm::StringRef Rest = Callee->getName().drop_front(Lib.size());
  HandleRoutine R;
  if (Lib == "cufft" || Lib == "hipfft") {
    if (!Rest.starts_with("Exec"))
      return std::nullopt;
    for (unsigned I = 1; I < Callee->getNumParams(); ++I)
      if (const IdentifierInfo *N = Callee->getParamDecl(I)->getIdentifier();
          N && N->getName() == "odata")
        R.Outputs.push_back(I);
    return R;
  }
  // Configuration, not routines: set/get (anywhere in the name:
  // `cusolverDnXsyevjGetResidual`), create/destroy, logging, the Xt/Lt
  // layers, cuSOLVER's iterative-refinement parameters; size
  // queries (`_bufferSize`, `_buffer_size`) and sparsity counts (`nnz`),
  // which write the host. Batched routines write through arrays of
  // pointers.
  for (llvm::StringRef Not : {"set_", "get_", "Create", "create", "Destroy",
                              "destroy", "Logger", "Xt", "Lt", "IRS"})
    if (Rest.starts_with(Not))
      return std::nullopt;
  for (llvm::StringRef Not : {"Batched", "batched", "bufferSize", "BufferSize",
                              "buffer_size", "Nnz", "nnz", "Get", "Set"})
    if (Rest.contains(Not))
      return std::nullopt;
  // The dense solvers: only the routine families measured not to wait for
  // their work (runtime/cases/cusolver_handle_stream_blocking_copy.cu: LU,
  // Cholesky, QR and applying Q); gesvd and syevd were measured to wait
  // before they return, and other families are not measured.
  if (Lib.starts_with("cusolver") || Lib.starts_with("hipsolver") ||
      Lib == "rocsolver_")
    if (Rest.size() < 2 ||
        !llvm::is_contained({"getrf", "getrs", "potrf", "geqrf", "ormqr",
                             "unmqr"},
                            Rest.drop_front(1)))
      return std::nullopt;
  for (unsigned I = 1; I < Callee->getNumParams(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (writesHost(P))
      return std::nullopt; // may block, writing host memory
    QualType T = P->getType();
    if (isDenseDescriptor(T)) {
      R.Descriptors.push_back(I);
      continue;
    }
    // Data: a pointer to non-const scalars, `void`, or complex numbers; not
    // an opaque descriptor or info object (an incomplete type).
    if (T->isPointerType() && !T->getPointeeType().isConstQualified() &&
        !T->getPointeeType()->isPointerType() &&
        (T->getPointeeType()->isVoidType() ||
         !T->getPointeeType()->isIncompleteType()))
      R.Outputs.push_back(I);
  }
  if (R.Outputs.empty() && R.Descriptors.empty())
    return std::nullopt;
  return R;
}

std::optional<DescriptorBinding> descriptorBinding(const CallExpr *C,
                                                   const FunctionDecl *Callee) {
  if (!C || !Callee || !Callee->getIdentifier() || Callee->getNumParams() < 2 ||
      C->getNumArgs() < Callee->getNumParams())
    return std::nullopt;
  llvm::StringRef Name = Callee->getName();
  if (!Name.starts_with("cusparse") && !Name.starts_with("hipsparse") &&
      !Name.starts_with("rocsparse_"))
    return std::nullopt;
  QualType First = Callee->getParamDecl(0)->getType();
  bool Creates = First->isPointerType() &&
                 isDenseDescriptor(First->getPointeeType());
  if (!Creates && !isDenseDescriptor(First))
    return std::nullopt;
  for (unsigned I = 1; I < Callee->getNumParams(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (P->getIdentifier() && P->getName() == "values" &&
        P->getType()->isPointerType()) {
      DescriptorBinding B;
      B.Descriptor = Creates ? addressedObject(C->getArg(0)) : C->getArg(0);
      B.Values = C->getArg(I);
      if (!B.Descriptor)
        return std::nullopt;
      return B;
    }
  }
  return std::nullopt;
}

bool isStreamOrderedLibraryCall(const CallExpr *C, const FunctionDecl *Callee,
                                const ASTContext &Ctx) {
  if (!C || !Callee)
    return false;
  if (handleRoutine(C, Callee))
    return true; // the effects builder adds a barrier where the stream is unknown
  if (std::optional<ThrustCall> T = thrustCall(C, Callee)) {
    bool Default = false;
    return thrustPolicyStream(T->Policy, &Default) || Default;
  }
  Library L = libraryOf(Callee);
  return L != Library::None &&
         (isSizeQuery(L, C, Ctx) || libraryProduction(C, Callee, Ctx));
}

std::optional<LibraryProduction> libraryProduction(const CallExpr *C,
                                                   const FunctionDecl *Callee,
                                                   const ASTContext &Ctx) {
  if (!C || !Callee)
    return std::nullopt;
  Library L = libraryOf(Callee);
  if (L == Library::None)
    return std::nullopt;
  if (isSizeQuery(L, C, Ctx))
    return std::nullopt;
  LibraryProduction P;
  bool Stream = false;
  unsigned N = std::min(C->getNumArgs(), Callee->getNumParams());
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *Param = Callee->getParamDecl(I);
    if (!Param->getIdentifier())
      continue;
    llvm::StringRef Name = Param->getName();
    if (Name == "stream" && isStreamOrWrapper(Param->getType())) {
      P.StreamArg = I;
      Stream = true;
    } else if (isOutput(L, Name) && Param->getType()->isPointerType()) {
      P.Outputs.push_back(I);
    }
  }
  if (!Stream || P.Outputs.empty())
    return std::nullopt;
  return P;
}

} // namespace clang::tidy::cuda
