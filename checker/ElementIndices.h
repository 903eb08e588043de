//===--- ElementIndices.h - Indices that name different elements -*- C++ -*-===//
//
// One concern: whether two index expressions of one array of buffers name
// different elements, evaluated where the variables they read hold the same
// values: `bufs[cur]` and `bufs[1 - cur]` of a double buffer, `h[i % 2]` and
// `h[(i + 1) % 2]`, `h[k]` and `h[k ^ 1]`. The solver trusts a pending
// copy's indices only while none of their variables is written
// (PendingCopy::IndicesHeld), so that a read by the other index in the same
// iteration is not a claim, and a read after `cur = 1 - cur;` is. As for
// constant indices (CopySite::Element), two elements of an array of
// buffers are taken for two buffers.
//
// May call: AccessPath, IndexValues. Called by the Solver.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_ELEMENTINDICES_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_ELEMENTINDICES_H

#include "AccessPath.h"
#include "IndexValues.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <set>

namespace clang::tidy::cuda {

/// A and B, integer expressions of at most one variable each (the same
/// one), never have the same value while that variable holds one value:
/// `x + c1` and `x + c2` (c1 != c2), `x` and `c - x` (c odd), `(x + c1) % m`
/// and `(x + c2) % m` (c1 - c2 not a multiple of m; `& (m - 1)` for m a
/// power of two alike), `x ^ c1` and `x ^ c2` (c1 != c2), `!x` and `x`, and
/// two different constants. Unsigned arithmetic wraps: `k + 2147483648u`
/// and `k - 2147483648u` are equal, `(k + 1) % 3` and `k % 3` may be;
/// a narrowing cast may make two values one, unless the variable's
/// interval (Ranges) keeps both forms from wrapping (a counter of `i < n`:
/// `(i + 1) % 3` and `i % 3` differ). Where the variable's values are few
/// (Ranges), any two indices evaluateAt follows are compared at each:
/// `cur + 1 == 3 ? 0 : cur + 1` and `cur` for cur in [0, 2]. False
/// whenever it cannot tell.
bool indicesDiffer(const Expr *A, const Expr *B, const ASTContext &Ctx,
                   IndexRanges Ranges = {});

/// A and B part at an index step whose indices differ (indicesDiffer),
/// after the same root and the same members and indices before it:
/// `slots[cur].host` and `slots[cur ^ 1]`. Evaluated where the variables
/// the indices read hold the same values in both, within Ranges.
bool differentElements(const AccessPath &A, const AccessPath &B,
                       const ASTContext &Ctx, IndexRanges Ranges = {});

/// Whether an index of path P is a string literal key (`m["loss"]` of a
/// map), which another literal key tells apart (indicesDiffer).
bool hasStringKey(const AccessPath &P);

/// The variables the indices of path P read (indexExprVariables of each), and
/// whether every index reads nothing else (a string literal key reads
/// nothing).
bool pathIndexVariables(const AccessPath &P, std::set<const VarDecl *> &Vars,
                        const ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif
