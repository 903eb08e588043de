//===--- IndexValues.h - Values of integer index expressions -*- C++ -*-===//
//
// One concern: the values an integer index expression of an array of
// buffers takes, for ElementIndices' question whether two indices name
// different elements:
//  - evaluateAt gives an index expression's value at one value of the one
//    variable it reads, in C++'s integer arithmetic;
//  - IndexInterval is a closed interval of values a variable may hold;
//    FunctionFacts::valueRange (defined in IndexValues.cpp) gives a local
//    integer variable's, from its declaration and every write of it (`int
//    head = 0; ... head = (head + 1) % 3;` keeps head in [0, 2]), or a loop
//    counter's inside its loop.
//
// May call: AccessPath (integerConstant), ExprUtils (evalInt),
// FunctionFacts (writes, loops). Called by ElementIndices and the Solver.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_INDEXVALUES_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_INDEXVALUES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <set>

namespace clang::tidy::cuda {

/// Every value in [Lo, Hi], both included (128 bits wide, so that an
/// unsigned 64-bit variable's values fit).
struct IndexInterval {
  __int128 Lo = 0, Hi = 0;
  bool operator==(const IndexInterval &O) const {
    return Lo == O.Lo && Hi == O.Hi;
  }
};

/// Where two indices are compared: the interval each variable they read
/// holds there, or nullopt when unknown.
using IndexRanges =
    llvm::function_ref<std::optional<IndexInterval>(const VarDecl *)>;

/// The most values an interval may span for evaluateAt to be run at each.
constexpr long long MaxEnumeratedValues = 4096;

/// The value of integer expression E when variable X holds XValue (X null:
/// E reads no variable), following C++ [expr]: integer literals, constant
/// variables and enumerators, `std::array<T, N>::size()` (N), X itself,
/// unary `- + ~ !`, binary arithmetic, shifts, bitwise and logical
/// operators and comparisons, `?:`, and integral conversions (to bool: 0
/// or 1; to a narrower or unsigned type: modulo 2^width). Unsigned
/// arithmetic wraps modulo 2^width. nullopt for anything else: another
/// variable, a call, a member, a signed overflow, a division by zero, a
/// shift by a negative or too large amount (undefined behaviour), or a
/// value outside long long.
std::optional<long long> evaluateAt(const Expr *E, const VarDecl *X,
                                    long long XValue, const ASTContext &Ctx);

/// The variable E names (a DeclRefExpr, as written: no parentheses or
/// conversions looked through), when it is one an index may read: an
/// integer variable or parameter, not a reference (whose object may change
/// behind it). Null otherwise.
const VarDecl *indexVariable(const Expr *E);

/// The value of E when it reads no variable: an integer constant
/// (integerConstant, then clang's constant evaluation) or `a.size()` of a
/// `std::array<T, N>` (N, whatever object a is); nullopt otherwise.
std::optional<long long> indexConstant(const Expr *E, const ASTContext &Ctx);

/// The variables index expression E reads, when it reads nothing but
/// integer local variables and parameters (not references), constants and
/// `std::array::size()` through the operators evaluateAt follows; false
/// otherwise (a call, a member, a dereference).
bool indexExprVariables(const Expr *E, std::set<const VarDecl *> &Vars,
                        const ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif
