//===--- ExprUtils.h - Identity and shape of CUDA-call arguments -*- C++ -*-===//
//
// Small queries over expressions that the model and the analysis share:
// which variable, member or element an expression names (for stream, event
// and buffer identity), what a constant argument's value is, and which
// storage a pointer points into.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_EXPRUTILS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_EXPRUTILS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include <initializer_list>
#include <optional>
#include <string>

namespace clang::tidy::cuda {

/// libtorch's stream wrappers name the stream they wrap: `s.stream()`,
/// `s.unwrap()` and the conversion operators of c10::cuda::CUDAStream.
bool isStreamConversion(const CXXMemberCallExpr *MC);

/// Drops parentheses, casts (implicit and explicit: `(cudaStream_t)cuStream`
/// names the same stream), default-argument and temporary wrappers, copies
/// of handles and libtorch's stream conversions. Null in, null out.
const Expr *strip(const Expr *E);

/// A key for a declaration's identity (its address), for exprKey.
std::string ptrKey(const void *P);

/// A string that is equal for two expressions naming the same variable,
/// member, element or call result. Decls are keyed by identity, so that
/// shadowed names do not collide; an unknown shape is equal only to itself.
std::string exprKey(const Expr *E);

/// The expression as spelled in the file (macro arguments included), or
/// printed where it comes from a macro body or is long.
std::string spelling(const Expr *E, const ASTContext &Ctx);

/// The integer value of a constant expression (enumerators, literals,
/// constexpr, null pointers as 0), or nullopt.
std::optional<long long> evalInt(const Expr *E, const ASTContext &Ctx);

/// A call's argument by position, the implicit object for ObjectArg, or
/// nullptr past the end (an omitted C++ default argument is present as a
/// CXXDefaultArgExpr; in C it cannot be omitted).
const Expr *arg(const CallExpr *C, int I);

/// std::vector / std::array / std::basic_string / std::deque / std::valarray
/// with std::allocator: pageable storage. A custom allocator may pin it.
bool isStdContainer(QualType T);

/// cudaStream_t / CUstream / hipStream_t.
bool isStreamType(QualType T);

/// A function of namespace std with one of these names (std::move, ...).
bool isStdFunction(const FunctionDecl *F,
                   std::initializer_list<llvm::StringRef> Names);

/// std::move / std::forward: the argument itself, for aliasing purposes.
bool isStdCast(const CallExpr *C);

/// The storage a pointer-valued expression points into: the variable, member
/// or element holding the pointer (or the array / container object itself).
/// Looks through pointer arithmetic, casts, `&x[i]`, `&*p`, `v.data()`,
/// `t.data_ptr()` and std::move. Null when it cannot tell (`c ? a : b`).
const Expr *bufferRoot(const Expr *E);

/// malloc / calloc / realloc / aligned_alloc / valloc / memalign / new:
/// pageable host memory.
bool isPageableAllocation(const Expr *E);

} // namespace clang::tidy::cuda

#endif
