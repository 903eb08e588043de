//===--- CallableRun.h - One run of the analysis over a callable -*- C++ -*-===//
//
// One concern: the context every phase of one callable's analysis shares --
// which callable, at which helper depth, whether it is a helper summary's
// run, and the way back to the owning AsyncCopyAnalysis for helper
// summaries (the one recursion), copy sites and the work budget.
//
// May call: AsyncCopyAnalysis (summary, newCopySite, the budget).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_CALLABLERUN_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_CALLABLERUN_H

#include "AsyncCopyAnalysis.h"

namespace clang::tidy::cuda {

struct CallableRun {
  AsyncCopyAnalysis &Owner;
  const FunctionDecl *FD;
  unsigned Depth;       ///< helper depth: 0 for the callable the check asked
  bool SummaryMode;     ///< a helper summary's run: seeds synthetic copies
  bool Truncated = false; ///< a callee's summary was cut by depth/recursion
  /// A summary run's parameters bound at the call (CallBindings).
  CallBindings Bound;

  ASTContext &context() const { return Owner.context(); }
  const ApiModel &model() const { return Owner.model(); }
  const AnalysisOptions &options() const { return Owner.options(); }

  /// The summary of a callee, one level deeper; records truncation.
  const HelperSummary *summaryOf(const FunctionDecl *Callee,
                                 const CallBindings &Bound = {}) {
    bool CalleeTruncated = false;
    const HelperSummary *S =
        Owner.summary(Callee, Depth + 1, &CalleeTruncated, Bound);
    Truncated |= CalleeTruncated;
    return S;
  }
};

} // namespace clang::tidy::cuda

#endif
