//===--- AccessPath.h - Identity of buffers, streams and events -*- C++ -*-===//
//
// One concern: when two expressions name the same buffer, stream or event.
// An identity is a key: a root (a declaration, `this`, a call, a temporary)
// followed by members (`.f`/`->f`) and indices (`[k]`). Every key is built
// and taken apart here and nowhere else, so that the typed access path of
// the redesign (docs/architecture.md) replaces this file only.
//
// Buffers additionally go through alias classes (union-find over keys,
// with the provenance of each class: pinned, device, pageable).
//
// May call: ExprUtils (strip). Called by every analysis phase.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_ACCESSPATH_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_ACCESSPATH_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Where a host buffer's storage lives, as far as the callable shows.
/// Ordered by strength of evidence: pinned beats device beats pageable.
enum class Provenance { Unknown, Pageable, Device, Pinned };

/// A string that is equal for two expressions naming the same variable,
/// member, element or call result. Declarations are keyed by identity, so
/// that shadowed names do not collide; an unknown shape is equal only to
/// itself. Null in: a key equal to no other expression's.
std::string exprKey(const Expr *E);

/// The key of a declaration itself: a parameter, a variable, a function.
std::string declKey(const ValueDecl *D);

/// What exprKey gives for a use of variable V: declKey(V), or, for a local
/// reference bound to a variable or a member of one (`R &a = r;`,
/// `cudaStream_t &s = st.copy;`, `auto &e = this->ev_;`), the key of that
/// object, which the reference names for its whole life (C++ [dcl.ref]: a
/// reference cannot be rebound). Not looked through: parameters,
/// init-captures (a summary names the caller's objects by them), references
/// bound through a pointer other than `this` or a subscript (`p->s`, `s[i]`:
/// the pointer or index may change), or to a call's result (two calls may
/// return different objects).
std::string varKey(const VarDecl *V);

/// The object a local reference V names (the expression it is bound to),
/// where varKey looks through it; else null.
const Expr *referentOf(const VarDecl *V);

/// The key of a temporary (the result of an expression that no variable
/// holds): `b.to(kCPU, true)` consumed where it is made.
std::string temporaryKey(const Expr *E);

/// A key rooted at `this` (`this->h_`, `this->buf_.h`): the members after
/// `this->`. nullopt for any other root.
std::optional<llvm::StringRef> thisMemberPath(llvm::StringRef Key);

/// A key rooted at parameter P that names one of its members (`p.s_` of
/// `P &p`, `p->s_` of `P *p`): the rest, starting with `.` or `->`.
std::optional<llvm::StringRef> paramMemberPath(llvm::StringRef Key,
                                               const ParmVarDecl *P);

/// The key of member path Rest (as thisMemberPath gives it) of the object
/// whose key is Object: `Object.Rest` or `Object->Rest`.
std::string memberKey(const std::string &Object, bool Arrow,
                      llvm::StringRef Rest);

/// The key of member path Path (as paramMemberPath gives it, starting with
/// `.` or `->`) of the object whose key is Root.
std::string withRoot(const std::string &Root, llvm::StringRef Path);

/// Union-find over buffer keys, with the provenance of each class. Buffers
/// are tracked as a whole, and so are arrays of buffers: `h[b]` and
/// `h[1 - b]` of a ring of pinned buffers are one class.
class AliasClasses {
public:
  /// The class of a key, created (alone, provenance unknown) if new.
  unsigned classOf(const std::string &Key);
  /// A key standing for the class (equal for aliased keys).
  std::string classKey(const std::string &Key);
  void unite(const std::string &A, const std::string &B);
  /// Records evidence; the strongest evidence of a class wins.
  void mark(const std::string &Key, Provenance P);
  Provenance provenance(const std::string &Key);

private:
  static std::string wholeBuffer(const std::string &Key);
  unsigned id(const std::string &RawKey);
  unsigned find(unsigned I);

  llvm::StringMap<unsigned> Ids;
  std::vector<unsigned> Parent;
  std::vector<Provenance> Prov;
};

} // namespace clang::tidy::cuda

#endif
