//===--- AsyncReadBeforeSyncCheck.h - cuda-async-read-before-sync -*- C++ -*-===//
//
// Finds host code that reads or writes the destination of an asynchronous
// device-to-host copy (cudaMemcpyAsync with cudaMemcpyDeviceToHost and its
// relatives) before a synchronization that covers the copy. On pinned host
// memory such a copy returns before the DMA has finished, and the host sees
// stale data.
//
// The check class holds the options, asks CallableSelection for the
// callables to analyse and turns findings into diagnostics;
// AsyncCopyAnalysis does the analysis and CudaApiModel says what each CUDA
// call does.
//
// Documentation: docs/cuda-async-read-before-sync.md
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_ASYNCREADBEFORESYNCCHECK_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_ASYNCREADBEFORESYNCCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "AsyncCopyAnalysis.h"
#include "CudaApiModel.h"
#include "llvm/ADT/StringSet.h"

namespace clang::tidy::cuda {


class AsyncReadBeforeSyncCheck : public ClangTidyCheck {
public:
  AsyncReadBeforeSyncCheck(llvm::StringRef Name, ClangTidyContext *Context);
  ~AsyncReadBeforeSyncCheck() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// Follow only what the CUDA manual guarantees: copies into pageable
  /// memory are asynchronous, and cudaFree / cudaFreeHost are not syncs.
  const bool StrictMode;
  /// The producer diagnostic also warns where one of the two streams is
  /// one the function is handed (a parameter, a member, a handle's stream:
  /// claimUnordered), with a note saying which stream it would have to be
  /// for the code to be ordered.
  const bool CallerStreams;
  /// A remark at each function whose analysis passes the work budget (it
  /// is then not checked), so that no warning never silently means "not
  /// analysed".
  const bool RemarkOnBudgetExceeded;
  /// How deep same-TU helpers are looked through.
  /// The largest HelperDepth accepted (each level multiplies the summaries
  /// a call chain may need; deeper chains are rare and costly).
  static constexpr int MaxHelperDepthOption = 8;
  unsigned boundedHelperDepth(llvm::StringRef Name, long long Value);
  const unsigned HelperDepth;
  /// User-declared APIs (their wrappers), `;`-separated rows as documented
  /// in parseUserRow: AsyncCopyFunctions `name:DST[:STREAM]`,
  /// StreamSyncFunctions `name:STREAM`, DeviceSyncFunctions `name`,
  /// EventRecordFunctions `name:EVENT[:STREAM]`, EventSyncFunctions
  /// `name:EVENT`. Kept as given, for storeOptions.
  const std::string AsyncCopyFunctions, StreamSyncFunctions,
      DeviceSyncFunctions, EventRecordFunctions, EventSyncFunctions;
  std::unique_ptr<ApiModel> Model;
  /// Summaries across translation units (SummaryFiles.h): the directory
  /// this unit's summary file is written into (empty: none is written), and
  /// the files or directories summaries are read from (`;`-separated).
  /// Kept as given, for storeOptions; where an option is empty, the
  /// environment variable CARS_SUMMARY_EXPORT_DIRECTORY or
  /// CARS_SUMMARY_IMPORT_PATHS stands for it (the drivers in tools/ set
  /// them, so that a project's own .clang-tidy configuration still
  /// applies).
  const std::string SummaryExportDirectory, SummaryImportPaths;
  std::string ExportDirectory; ///< the option, or its variable
  std::shared_ptr<const SummaryStore> Imported;
  /// Identifiers of imported functions that leave copies in flight.
  llvm::StringSet<> ImportedCopying;
  /// Whether an imported operator or conversion function does
  /// (SummaryStore::copiesThroughOperators).
  bool ImportedCopyingOperators = false;

  Preprocessor *PP = nullptr;
  /// The modelled copies' and blocking transfers' names, as matchers of
  /// the called function (hasAnyName's rules for qualified names).
  std::unique_ptr<ast_matchers::DeclarationMatcher> CopyCallee,
      BlockingCallee;
  /// Set when the translation unit calls a modelled copy or blocking
  /// transfer; the callables are then selected and analysed at its end.
  ASTContext *Triggered = nullptr;
  /// The analysis of the current translation unit (its helper summaries'
  /// cache), freed at its end.
  std::unique_ptr<AsyncCopyAnalysis> Analysis;
  /// Where this translation unit's time went (CARS_PROFILE).
  AnalysisProfile Profile;
  void printProfile(const SourceManager &SM);

  /// The analysis of this translation unit, created on first use.
  AsyncCopyAnalysis &analysis(ASTContext &Ctx);
  /// Analyses one selected callable and reports its findings.
  void analyseCallable(const FunctionDecl *FD, ASTContext &Ctx);
  /// Writes this unit's summary file (SummaryExportDirectory).
  void exportSummaries(ASTContext &Ctx);

  /// The producer diagnostic: a device-to-host copy that may read its
  /// source before device work on another, unordered stream wrote it.
  void reportProducer(const Finding &F, const SourceManager &SM,
                      const LangOptions &LO);
};

} // namespace clang::tidy::cuda

#endif
