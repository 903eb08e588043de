//===--- AccessPath.h - Identity of buffers, streams and events -*- C++ -*-===//
//
// One concern: when two expressions name the same buffer, stream or event.
// An identity is an AccessPath: a root (a declaration, `this`, a call, a
// temporary) followed by members (`.f` / `->f`) and indices (`[k]`), built
// from expressions here, and rebased here when a helper's summary is applied
// at a call (`this` to the object called on, a parameter to its argument).
//
// Buffers additionally go through alias classes (union-find over paths,
// with the provenance of each class: pinned, device, pageable).
//
// May call: ExprUtils (strip). Called by every analysis phase.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_ACCESSPATH_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_ACCESSPATH_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Where a host buffer's storage lives, as far as the callable shows.
/// Ordered by strength of evidence: pinned beats device beats pageable.
enum class Provenance { Unknown, Pageable, Device, Pinned };

/// One step of an access path: a member reached with `.` or `->`, an
/// element `[index]` (the index kept as written, so that a later analysis
/// can reason about `s[i]` over a loop's range), or the result of a member
/// function called on the object (`s_.value()`, `p.stream()`).
struct PathStep {
  enum Kind : unsigned char { Dot, Arrow, Index, Call } K;
  /// Dot / Arrow: the member; Call: the method (canonical).
  const ValueDecl *Member = nullptr;
  const Expr *IndexExpr = nullptr;       ///< Index: the index expression
  const CallExpr *CallE = nullptr;       ///< Call: the call (its arguments)
  /// Index: element 0, named by a container's `front()` (no IndexExpr).
  bool Front = false;
};

/// Whether two paths name the same object, as far as the syntax shows.
enum class PathRelation {
  Same,     ///< equal paths
  Distinct, ///< different variables, or different members or constant
            ///< elements of one object, reached without a pointer or an
            ///< index that could make them meet
  MayAlias, ///< cannot tell: through a pointer or a reference (`p->s`,
            ///< `q->s`), a non-constant index (`s[i]`, `s[j]`), a call
};

class AccessPath;

/// Which storage an expression names, as a root followed by members and
/// indices: `r.h_`, `this->s_`, `bufs[i]`, `f(x).s`. Two paths are equal
/// when they name the same storage as far as the syntax shows: roots are
/// compared by declaration identity (shadowed names do not collide), indices
/// and call arguments by their own paths; an expression of no known shape
/// is equal only to itself. Ordered (for maps) by a canonical form.
class AccessPath {
public:
  enum class RootKind : unsigned char {
    None,      ///< a default-constructed path: names nothing
    Decl,      ///< a variable, parameter or function
    This,      ///< `this`
    Call,      ///< the result of a free function's call (and arguments)
    Temporary, ///< a value no variable holds (temporary())
    Other,     ///< another expression (`*p`, `&x`, a literal, ...)
  };

  AccessPath() = default;

  /// The path an expression names (after strip()); null: None.
  static AccessPath of(const Expr *E);
  /// A declaration itself: a parameter, a variable, a function.
  static AccessPath ofDecl(const ValueDecl *D);
  /// A use of variable V: ofDecl(V), or, for a local reference bound to a
  /// variable or a member of one (`R &a = r;`, `cudaStream_t &s =
  /// st.copy;`, `auto &e = this->ev_;`), the path of that object, which the
  /// reference names for its whole life (C++ [dcl.ref]: a reference cannot
  /// be rebound). Not looked through: parameters, init-captures (a summary
  /// names the caller's objects by them), references bound through a
  /// pointer other than `this` or a subscript (`p->s`, `s[i]`: the pointer
  /// or index may change), or to a call's result (two calls may return
  /// different objects).
  static AccessPath ofVar(const VarDecl *V);
  /// The result of an expression that no variable holds (`b.to(kCPU,
  /// true)` consumed where it is made).
  static AccessPath temporary(const Expr *E);
  /// The result of call C (a free function's, or a member call whose object
  /// is not a path step) with these argument paths: of() with the arguments
  /// as written; a helper's summary passes the caller's arguments for its
  /// parameters (`get_cuda_stream(res)` at `sync_stream(handle)` is
  /// `get_cuda_stream(handle)`).
  static AccessPath ofCall(const CallExpr *C, llvm::ArrayRef<AccessPath> Args);
  /// The result of a call of the free function Callee with these argument
  /// paths, where no call expression is at hand (a summary imported from
  /// another translation unit, SummaryFiles.h): equal to ofCall of a call
  /// of Callee with the same argument paths. rootCall() is null.
  static AccessPath ofCallee(const FunctionDecl *Callee,
                             llvm::ArrayRef<AccessPath> Args);
  /// `this`, with no member yet.
  static AccessPath ofThis();
  /// This path followed by member M, reached with `->` when Arrow, else `.`.
  AccessPath withMember(const ValueDecl *M, bool Arrow) const;
  /// This path followed by an element of it whose index is not known
  /// (`bufs[?]`): one of the elements, as a range-for's variable is.
  AccessPath withAnyIndex() const;
  /// For RootKind::Call: the call.
  const CallExpr *rootCall() const { return RootCall; }

  RootKind rootKind() const { return Root; }
  /// For RootKind::Decl: the declaration (null for other roots).
  const ValueDecl *rootDecl() const { return RootDecl; }
  llvm::ArrayRef<PathStep> steps() const { return Steps; }
  bool empty() const { return Root == RootKind::None; }

  /// `this->m...`: true when rooted at `this` with at least one member.
  bool isThisMember() const;
  /// `p.m...` / `p->m...` of parameter P.
  bool isMemberOf(const ParmVarDecl *P) const;
  /// Whether this path is Outer or a part of it reached through members,
  /// indices or calls on it: `st.done`, `st.done.load()` and `st` are within
  /// `st`; `st2` is not.
  bool within(const AccessPath &Outer) const;

  /// A member path of `this` (isThisMember) as a member path of Object
  /// instead: `this->s_` at `obj.wait()` is `obj.s_` (or `ptr->s_` when
  /// ObjectIsPointer).
  AccessPath rebasedOnObject(const AccessPath &Object,
                             bool ObjectIsPointer) const;
  /// A member path of a parameter (isMemberOf) as one of the argument's
  /// path Arg (its steps appended as they are), or, for an argument `&q`
  /// to a pointer parameter, as one of q (`p->x` is `q.x`): pass q's path
  /// as Arg and Deref true.
  AccessPath rebasedOnArgument(const AccessPath &Arg, bool Deref) const;

  /// The same path with each index expression X for which Map(X) is not
  /// null replaced by Map(X): a helper's `ev_[i]` at the call `markDone(0)`
  /// is `ev_[0]` (the helper's parameter i mapped to the call's argument).
  AccessPath
  withIndices(llvm::function_ref<const Expr *(const Expr *)> Map) const;

  /// The path of the array (or container) an element path indexes: `s` for
  /// `s[i]`; None when the last step is not an index.
  AccessPath arrayOfElement() const;
  /// The path of the object whose member, element or call the last step
  /// names (`a` for `a.solver_`); None for a path without steps.
  AccessPath withoutLastStep() const;
  /// The last step's index when it is an integer constant (a literal, an
  /// enumerator, a const variable with a constant initialiser).
  std::optional<long long> constantLastIndex() const;

  /// The same path with every index collapsed: the whole array of buffers
  /// (`h[b]` and `h[1 - b]` of a double buffer are one class).
  std::string wholeBufferKey() const;

  /// The canonical form (equal exactly for equal paths), for ordering and
  /// hashing; never parsed.
  const std::string &key() const { return Key; }

  bool operator==(const AccessPath &O) const { return Key == O.Key; }
  bool operator!=(const AccessPath &O) const { return Key != O.Key; }
  bool operator<(const AccessPath &O) const { return Key < O.Key; }

private:
  AccessPath(RootKind R, std::string RootKey)
      : Root(R), Key(std::move(RootKey)), RootLength(Key.size()) {}
  void append(const PathStep &S);

  friend PathRelation relate(const AccessPath &A, const AccessPath &B);

  RootKind Root = RootKind::None;
  const ValueDecl *RootDecl = nullptr; ///< for RootKind::Decl
  const CallExpr *RootCall = nullptr;  ///< for RootKind::Call
  llvm::SmallVector<PathStep, 2> Steps;
  std::vector<size_t> StepEnds; ///< where each step ends in Key
  /// The canonical form: the root's identity, then each step's. Equal
  /// exactly for equal paths; used only for comparison and ordering.
  std::string Key;
  size_t RootLength = 0; ///< the root's part of Key
};

PathRelation relate(const AccessPath &A, const AccessPath &B);

/// An integer constant expression the AST alone evaluates, without an
/// ASTContext: a literal, an enumerator, a const variable with a constant
/// initialiser (`constexpr int N = 4`), or -N / +N of one.
std::optional<long long> integerConstant(const Expr *E);

/// Which elements of an array or container of streams (or events) an
/// expression may name: `s[2]` (element 2), `s[i]` inside
/// `for (int i = 0; i < 4; ++i)` (elements 0 to 3), a range-for's variable
/// over `s` (every element). Computed by FunctionFacts::elementsOf at the
/// expression's place in the callable.
struct ElementRange {
  AccessPath Array; ///< the array or container
  bool Every = false; ///< every element (a range-for over the container)
  bool Known = false; ///< the elements are [Lo, Hi)
  long long Lo = 0, Hi = 0;
  /// "elements 0 to 3" (for notes).
  std::string describe() const;
};

/// Whether a sync of (or a record on) an object covers work on another, for
/// streams and events, with the elements each may name: Covers (the same
/// object, or one the check cannot tell apart), Misses (a distinct object),
/// MissesSome (both are elements of one array, and some element the work
/// may be on is not among those the sync names).
enum class Coverage { Covers, Misses, MissesSome };
Coverage coverage(const AccessPath &Sync, const ElementRange *SyncElements,
                  const AccessPath &Work, const ElementRange *WorkElements);

/// The object a local reference V names (the expression it is bound to),
/// where AccessPath::ofVar looks through it; else null.
const Expr *referentOf(const VarDecl *V);

/// Union-find over buffer paths, with the provenance of each class. Buffers
/// are tracked as a whole, and so are arrays of buffers: `h[b]` and
/// `h[1 - b]` of a ring of pinned buffers are one class.
class AliasClasses {
public:
  /// The class of a path, created (alone, provenance unknown) if new.
  unsigned classOf(const AccessPath &P);
  /// A name standing for the class (equal for aliased paths).
  std::string classKey(const AccessPath &P);
  void unite(const AccessPath &A, const AccessPath &B);
  /// Records evidence; the strongest evidence of a class wins.
  void mark(const AccessPath &P, Provenance Prov);
  Provenance provenance(const AccessPath &P);

private:
  unsigned id(const AccessPath &P);
  unsigned find(unsigned I);

  llvm::StringMap<unsigned> Ids;
  std::vector<unsigned> Parent;
  std::vector<Provenance> Prov;
};

} // namespace clang::tidy::cuda

#endif
