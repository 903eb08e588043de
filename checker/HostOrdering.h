//===--- HostOrdering.h - Host threads and host functions -*- C++ -*-===//
//
// Host-side ordering (HostOrdering.cpp): a thread that synchronizes and is
// joined, a future waited for, a host function's signal polled by a loop.
// The effects are built by EffectBuilder::collectHostOrdering; these are
// their transfers, applied by the Solver.
//
// May call: Solver's transfers, HelperSummaries (a summary's synced streams
// at a call).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_HOSTORDERING_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_HOSTORDERING_H

#include "AccessPath.h"
#include <optional>
#include <set>

namespace clang {
class Expr;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda {

class Solver;
struct PendingState;
struct Effect;

/// The signal a host function enqueued with this userData argument gives:
/// the object `&x` points to, or the pointer variable handed over (a loop
/// reading `state->done` polls `state`). nullopt for a null pointer or an
/// expression of no known path.
std::optional<AccessPath> hostSignalOf(const Expr *UserData);

/// The promise whose future E is: `p.get_future()` / `p->get_future()` of
/// a std::promise (its object expression, p), or a variable the function
/// never changes initialised so (`auto f = p.get_future();`); else null.
/// MutatedVars: the callable's changed variables (FunctionFacts).
const Expr *promiseOfFuture(const Expr *E,
                            const std::set<const VarDecl *> &MutatedVars);

/// Effect::ThreadStart: a signal keyed by the thread's (or future's)
/// variable, covering what the streams its function synchronizes (every
/// stream, when it synchronizes the device) have in flight now.
void applyThreadStart(Solver &Sv, PendingState &St, const Effect &Ev);

/// Effect::HostWait: the thread joined, the future or promise waited for.
void applyHostWait(Solver &Sv, PendingState &St, const Effect &Ev);

} // namespace clang::tidy::cuda

#endif
