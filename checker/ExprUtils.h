//===--- ExprUtils.h - Shapes of expressions and calls ------*- C++ -*-===//
//
// Small queries over expressions that the model and the analysis share:
// what an expression is once casts and wrappers are stripped, what a
// constant argument's value is, which storage a pointer points into, and
// the shapes of calls (which argument is which parameter, which lambda a
// call runs). Identity (when two expressions name the same thing) is
// AccessPath's.
//
// May call: clang's AST only.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_EXPRUTILS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_EXPRUTILS_H

#include "clang/AST/ASTContext.h"
#include "ContainerTypes.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::cuda {

/// The name of the outermost namespace a declaration is in (versioned
/// inline namespaces below it do not matter: thrust's, rmm's), or empty.
llvm::StringRef outermostNamespace(const Decl *D);

/// std::unique_ptr / std::shared_ptr.
bool isStdSmartPointer(const CXXRecordDecl *R);
/// Is parameter N of the function template specialization F a forwarding
/// reference in its template (`Args &&...args`, C++ [temp.deduct.call]):
/// one that passes its argument on as it is? False for a function that is
/// not a template specialization.
bool isForwardingParam(const FunctionDecl *F, unsigned N);
/// A heap object's construction that E spells: `new T(args)`,
/// `std::unique_ptr<T>(new T(args))` (or shared_ptr), or
/// `std::make_unique<T>(args)` / `std::make_shared<T>(args)`
/// ([unique.ptr.create], [util.smartptr.shared.create]: `new T(args)`),
/// whose constructor is then T's one user-provided constructor (not a copy
/// or move) taking as many arguments. The constructor (null: none, or
/// overloads of that arity) and its arguments.
struct ObjectConstruction {
  const CXXConstructorDecl *Ctor = nullptr;
  llvm::SmallVector<const Expr *, 4> Args;
};
ObjectConstruction heapConstruction(const Expr *E);
/// An object's construction that E spells as a prvalue of class type:
/// `T(args)`, `T{args}`, `{args}` of a return statement (C++17
/// [dcl.init]/17.6.1: the prvalue initialises the result object itself, no
/// copy or move between), by a constructor that is not a copy or move.
/// Null Ctor: anything else.
ObjectConstruction valueConstruction(const Expr *E);
/// `p.operator->()` or `p.get()` of such a smart pointer p (E stripped):
/// p, which names the object it holds as a raw pointer would; else null.
const Expr *smartPointerHeld(const Expr *E);
/// `*o`, `o.value()` or `o.operator->()` of a std::optional o (E stripped):
/// o, whose storage holds the value ([optional.observe]); else null.
const Expr *optionalHeld(const Expr *E);
/// Is T a std::optional?
bool isStdOptional(QualType T);
/// The value type of a std::optional T (null for anything else).
QualType optionalValueType(QualType T);
/// Collects the return statements of a body, not those of lambdas or local
/// classes in it.
void collectReturns(const Stmt *S, std::vector<const ReturnStmt *> &Out);

/// A class that stands for one stream: it converts implicitly to a stream
/// handle (`operator cudaStream_t()`: rmm::cuda_stream_view,
/// rmm::cuda_stream, c10::cuda::CUDAStream), or is c10::Stream. Such an
/// object names the stream it holds, whatever its member functions'
/// definitions (often compiled elsewhere: rmm's) do.
bool isStreamWrapper(const CXXRecordDecl *R);

/// A stream handle (isStreamType), or a stream wrapper by value or
/// reference.
bool isStreamOrWrapper(QualType T);

/// On an object of a stream wrapper: a conversion to a stream handle or to
/// a wrapper, or a const accessor without arguments returning one
/// (`sv.value()`, `s.stream()`, `s.view()`, `s.unwrap()`): names the
/// object's stream.
bool isStreamConversion(const CXXMemberCallExpr *MC);

/// Drops parentheses, casts (implicit and explicit: `(cudaStream_t)cuStream`
/// names the same stream), default-argument and temporary wrappers, copies
/// of handles, stream wrappers' conversions (isStreamConversion) and a
/// wrapper built from one stream (`rmm::cuda_stream_view(s)` names s).
/// Null in, null out.
const Expr *strip(const Expr *E);

/// The declaration E names (`h`, `(float *)h`: a DeclRefExpr after strip),
/// or null.
const ValueDecl *namedDecl(const Expr *E);

/// The object `&x` points to: x (after strip), for E `&x` (after strip);
/// else null.
const Expr *addressedObject(const Expr *E);

/// The body of a loop statement (for, range-for, while, do), or null for
/// any other statement.
const Stmt *loopBody(const Stmt *S);

/// The expression as spelled in the file (macro arguments included), or
/// printed where it comes from a macro body or is long.
std::string spelling(const Expr *E, const ASTContext &Ctx);

/// How a message names a buffer spelled S: S itself up to NameMax
/// characters; longer, with its calls' arguments elided (`b.to(...)` for
/// `b.to(torch::kCPU, torch::kBFloat16, /*non_blocking=*/true)`), then cut
/// (at a `.` or `->` where one is near) and ended with "...". The Python
/// front end's short_name (checker/python/cars_python) does the same.
constexpr size_t NameMax = 40;
std::string shortName(llvm::StringRef S);

/// The integer value of a constant expression (enumerators, literals,
/// constexpr, null pointers as 0), or nullopt.
std::optional<long long> evalInt(const Expr *E, const ASTContext &Ctx);

/// A call's argument by position, the implicit object for ObjectArg, or
/// nullptr past the end (an omitted C++ default argument is present as a
/// CXXDefaultArgExpr; in C it cannot be omitted).
const Expr *arg(const CallExpr *C, int I);

/// cudaStream_t / CUstream / hipStream_t.
bool isStreamType(QualType T);

/// enum cudaMemcpyKind / hipMemcpyKind.
bool isMemcpyKindType(QualType T);

/// cudaEvent_t / CUevent / hipEvent_t.
bool isEventType(QualType T);

/// A function of namespace std with one of these names (std::move, ...).
bool isStdFunction(const FunctionDecl *F,
                   std::initializer_list<llvm::StringRef> Names);

/// `std::swap(a, b)` / `std::exchange(a, v)` of buffer pointers (not
/// stream or event handles): the values they give the variables, as
/// (variable, value) pairs -- b to a and a to b, v to a; empty for
/// anything else. Rebinding a pointer reads no buffer.
std::vector<std::pair<const Expr *, const Expr *>>
pointerExchanges(const CallExpr *C);

/// std::move / std::forward: the argument itself, for aliasing purposes.
bool isStdCast(const CallExpr *C);

/// The storage a pointer-valued expression points into: the variable, member
/// or element holding the pointer (or the array / container object itself).
/// Looks through pointer arithmetic, casts, `&x[i]`, `&*p`, `v.data()`,
/// `t.data_ptr()` and std::move. Null when it cannot tell (`c ? a : b`).
const Expr *bufferRoot(const Expr *E);
/// `thrust::raw_pointer_cast(p)`: p, whose raw pointer it is (a
/// thrust::device_ptr, `v.data()` of a device_vector); null otherwise.
const Expr *rawPointerCastOperand(const Expr *E);

/// Methods that return a pointer to an object's storage (containers,
/// smart pointers, strings, tensors, mdspans): `v.data()`, `p.get()`,
/// `t.data_ptr()`, `m.data_handle()`.
bool isDataAccessor(llvm::StringRef Method);
/// The object of a data accessor's call (`v` of `v.data()`,
/// isDataAccessor), E stripped; else null. Also for a class of the
/// project's own whose `data()` returns a member: such a class is a buffer
/// as a whole (cuML's `host_buffer`: copies into `b.data()`, reads through
/// `b[i]`), unlike an accessor of another name (trivialAccessorResult).
const Expr *dataAccessorObject(const Expr *E);

/// The call operator of a lambda (C++ [expr.prim.lambda.closure]), or null.
const CXXMethodDecl *lambdaOperator(const FunctionDecl *F);

/// D, when Callable is a lambda's call operator and D a local variable or
/// parameter of a function enclosing it: a variable the lambda captures
/// ([expr.prim.lambda.capture]), which its callers name too. Else null.
const VarDecl *capturedVariable(const FunctionDecl *Callable,
                                const ValueDecl *D);

/// The lambda an argument denotes: written there, or a local variable
/// initialised with one (`auto f = [&] {...}; std::for_each(.., f)`), past
/// a copy of the closure, a std::function made from it, std::move /
/// std::forward / std::ref / std::cref. Sets *Var to that variable.
const CXXMethodDecl *lambdaOf(const Expr *A, const VarDecl **Var = nullptr);

/// The function E names: `f` or `&f` (past parentheses and implicit casts),
/// as a function-pointer argument or initialiser spells it; else null.
const FunctionDecl *namedFunction(const Expr *E);

/// A call whose target the check cannot know, and which may therefore
/// synchronize anything (no claim is made across it): through a pointer to
/// a function or to a member function (`ops->sync(s)`, a backend's table
/// of functions); `operator()` of a type-erased callable (std::function,
/// std::move_only_function, std::copyable_function, std::function_ref)
/// that is not a lambda this function names (lambdaOf); a virtual member
/// function (not a destructor, not of the standard library) called through
/// a pointer or reference, which any override may implement: C++
/// [class.virtual]. Calls of named functions, even without a visible body,
/// are not such calls: a summary (another unit's, or an option's row) can
/// name their target. Callee is C's callee as FunctionFacts::calleeOf
/// resolves it (null for an indirect call it cannot bind).
bool callsUnknownTarget(const CallExpr *C, const FunctionDecl *Callee);

/// The variables a lambda captures (not `this`, not structured bindings).
llvm::SmallVector<const VarDecl *, 8>
capturedVars(const CXXMethodDecl *Lambda);

/// The value a member function without parameters returns, when its
/// visible body is one `return` statement and it is not virtual (an
/// override may return another); stripped (see strip). Else null.
const Expr *singleReturnValue(const CXXMemberCallExpr *MC);
/// A member function without parameters whose visible body is `return m;`
/// (or `return this->m.n;`, `return static_cast<D *>(this)->m;` of a CRTP
/// base): the member expression it returns, in the accessor's body; else
/// null. Not virtual (an override may return another member).
const Expr *trivialAccessorResult(const CXXMemberCallExpr *MC);
/// A function (not a member function) whose visible body is `return
/// p->m;` (or `p.m.n`) of one of its parameters p: the member expression it
/// returns, in the function's body, and p's index in *Param; else null.
/// The C accessor of an opaque handle (`const float *rb_data(const rb_ctx
/// *c) { return c->host; }`): at a call, the argument's member.
const Expr *parameterAccessorResult(const CallExpr *C, unsigned *Param);

/// The variable of static storage duration (a global, a static data
/// member, a function's static local) that every return statement of C's
/// callee returns by value, when its visible body has at least one and
/// the callee is not virtual (`cudaStream_t stream() { static cudaStream_t
/// s = make(); return s; }`): each call yields that variable's value. Else
/// null.
const VarDecl *staticReturned(const CallExpr *C);

/// `this`, or `*this` (`(*this).wait()`), also through a member function
/// that returns its own object (`self()` of a CRTP base).
bool isThis(const Expr *E);

/// How many arguments precede the callee's first parameter: 1 for a member
/// operator call (`functor(h, s)`, lambdas), whose object is argument 0,
/// unless the object is the explicit parameter (C++23 `this auto self`).
unsigned argShift(const CallExpr *C);

/// The argument for a callee's parameter Param (see argShift), or nullptr.
const Expr *paramArg(const CallExpr *C, int Param);

/// malloc / calloc / realloc / aligned_alloc / valloc / memalign / new,
/// std::make_unique / std::make_shared, and std::unique_ptr / shared_ptr
/// constructed from a new-expression: pageable host memory.
bool isPageableAllocation(const Expr *E);

} // namespace clang::tidy::cuda

#endif
