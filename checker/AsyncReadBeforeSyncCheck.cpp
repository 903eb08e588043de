//===--- AsyncReadBeforeSyncCheck.cpp - cuda-async-read-before-sync -------===//

#include "AsyncReadBeforeSyncCheck.h"
#include "SyncFixIt.h"
#include "AsyncCopyAnalysis.h"
#include "CallableSelection.h"
#include "CudaApiModel.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "LibraryCode.h"
#include "SummaryFiles.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSet.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <cstdlib>
#include <sys/resource.h>
#include <set>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {
/// A function of a library included as a system header (LibraryCode.h):
/// its body may make a modelled copy that clang-tidy's matchers, which skip
/// system headers, never see.
AST_MATCHER(FunctionDecl, isLibraryFunction) {
  return isLibraryCode(&Node, Finder->getASTContext().getSourceManager());
}
} // namespace

AsyncReadBeforeSyncCheck::AsyncReadBeforeSyncCheck(llvm::StringRef Name,
                                                   ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      StrictMode(Options.get("StrictMode", false)),
      CallerStreams(Options.get("CallerStreams", true)),
      RemarkOnBudgetExceeded(Options.get("RemarkOnBudgetExceeded", true)),
      HelperDepth(boundedHelperDepth(Name, Options.get<long long>("HelperDepth", 3))),
      AsyncCopyFunctions(Options.get("AsyncCopyFunctions", "")),
      StreamSyncFunctions(Options.get("StreamSyncFunctions", "")),
      DeviceSyncFunctions(Options.get("DeviceSyncFunctions", "")),
      EventRecordFunctions(Options.get("EventRecordFunctions", "")),
      EventSyncFunctions(Options.get("EventSyncFunctions", "")),
      SummaryExportDirectory(Options.get("SummaryExportDirectory", "")),
      SummaryImportPaths(Options.get("SummaryImportPaths", "")) {
  // A malformed row is reported (naming the option) and skipped; the rest
  // of the option and the check go on.
  std::vector<ApiEntry> Rows;
  auto Parse = [&](llvm::StringRef Option, llvm::StringRef Value,
                   ApiRole Role) {
    for (llvm::StringRef Row : utils::options::parseStringList(Value)) {
      if (Row.trim().empty())
        continue;
      llvm::Expected<ApiEntry> E = parseUserRow(Row, Role);
      if (E) {
        Rows.push_back(*E);
        continue;
      }
      configurationDiag("invalid entry in option '%0.%1': %2")
          << Name << Option << llvm::toString(E.takeError());
    }
  };
  Parse("AsyncCopyFunctions", AsyncCopyFunctions, ApiRole::AsyncCopy);
  Parse("StreamSyncFunctions", StreamSyncFunctions, ApiRole::StreamSync);
  Parse("DeviceSyncFunctions", DeviceSyncFunctions, ApiRole::DeviceSync);
  Parse("EventRecordFunctions", EventRecordFunctions, ApiRole::EventRecord);
  Parse("EventSyncFunctions", EventSyncFunctions, ApiRole::EventSync);
  Model = std::make_unique<ApiModel>(std::move(Rows));
  // Summaries of other translation units: a path that cannot be read is
  // reported (naming the option) and skipped.
  auto OrEnvironment = [](const std::string &Option, const char *Variable) {
    const char *V = Option.empty() ? std::getenv(Variable) : nullptr;
    return V ? std::string(V) : Option;
  };
  ExportDirectory =
      OrEnvironment(SummaryExportDirectory, "CARS_SUMMARY_EXPORT_DIRECTORY");
  std::string ImportPaths =
      OrEnvironment(SummaryImportPaths, "CARS_SUMMARY_IMPORT_PATHS");
  std::vector<std::string> Paths;
  for (llvm::StringRef P : utils::options::parseStringList(ImportPaths))
    if (!P.trim().empty())
      Paths.push_back(P.trim().str());
  if (!Paths.empty()) {
    Imported = SummaryStore::load(Paths, [&](const std::string &Message) {
      configurationDiag("option '%0.SummaryImportPaths': %1")
          << Name << Message;
    });
    for (const std::string &N : Imported->copyingNames())
      ImportedCopying.insert(N);
    ImportedCopyingOperators = Imported->copiesThroughOperators();
  }
}

/// HelperDepth is a count of levels, 0 to MaxHelperDepthOption: a value
/// outside is reported (naming the option and the bounds) and clamped.
unsigned AsyncReadBeforeSyncCheck::boundedHelperDepth(llvm::StringRef Name,
                                                      long long Value) {
  if (Value >= 0 && Value <= MaxHelperDepthOption)
    return static_cast<unsigned>(Value);
  long long Used = Value < 0 ? 0 : MaxHelperDepthOption;
  configurationDiag("invalid configuration value '%0' for option "
                    "'%1.HelperDepth': it counts levels of helpers, from 0 "
                    "to %2; using %3")
      << std::to_string(Value) << Name << MaxHelperDepthOption
      << static_cast<int>(Used);
  return static_cast<unsigned>(Used);
}

AsyncReadBeforeSyncCheck::~AsyncReadBeforeSyncCheck() = default;

void AsyncReadBeforeSyncCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "StrictMode", StrictMode);
  Options.store(Opts, "CallerStreams", CallerStreams);
  Options.store(Opts, "RemarkOnBudgetExceeded", RemarkOnBudgetExceeded);
  Options.store(Opts, "HelperDepth", HelperDepth);
  Options.store(Opts, "AsyncCopyFunctions", AsyncCopyFunctions);
  Options.store(Opts, "StreamSyncFunctions", StreamSyncFunctions);
  Options.store(Opts, "DeviceSyncFunctions", DeviceSyncFunctions);
  Options.store(Opts, "EventRecordFunctions", EventRecordFunctions);
  Options.store(Opts, "EventSyncFunctions", EventSyncFunctions);
  Options.store(Opts, "SummaryExportDirectory", SummaryExportDirectory);
  Options.store(Opts, "SummaryImportPaths", SummaryImportPaths);
}

void AsyncReadBeforeSyncCheck::registerMatchers(MatchFinder *Finder) {
  std::vector<std::string> Names;
  for (ApiRole Role : copyRoles())
    for (std::string &N : Model->namesWithRole(Role))
      Names.push_back(std::move(N));
  std::vector<std::string> Blocking =
      Model->namesWithRole(ApiRole::BlockingTransfer);
  std::vector<llvm::StringRef> Refs(Names.begin(), Names.end());
  std::vector<llvm::StringRef> BlockingRefs(Blocking.begin(), Blocking.end());
  CopyCallee = std::make_unique<DeclarationMatcher>(
      functionDecl(hasAnyName(Refs)));
  BlockingCallee = std::make_unique<DeclarationMatcher>(
      functionDecl(hasAnyName(BlockingRefs)));
  // The trigger: a translation unit without a call of a modelled copy or
  // blocking transfer costs this matcher and nothing else. The callables
  // are picked at the end of the translation unit (CallableSelection.h).
  // (Two matchers: hasAnyName compares identifiers only when no name in it
  // is qualified, and the C APIs' names are not.)
  std::vector<llvm::StringRef> Plain, Qualified;
  for (const std::vector<llvm::StringRef> *Group : {&Refs, &BlockingRefs})
    for (llvm::StringRef N : *Group)
      (N.contains("::") ? Qualified : Plain).push_back(N);
  // Calls of imported functions that leave a copy in flight trigger too
  // (their USR decides, in the selection); a unit whose summary is
  // exported is always analysed.
  for (const auto &N : ImportedCopying)
    Plain.push_back(N.getKey());
  for (const std::vector<llvm::StringRef> *Group : {&Plain, &Qualified})
    if (!Group->empty())
      Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName(*Group)))),
                         this);
  // An imported operator or conversion function (`Eigen::MatrixXd m = c;`
  // through `operator Eigen::MatrixXd() const`) has no identifier to match.
  if (ImportedCopyingOperators) {
    Finder->addMatcher(callExpr(callee(cxxConversionDecl())), this);
    Finder->addMatcher(cxxOperatorCallExpr(), this);
  }
  // So do calls of a library's functions: the selection tells whether one
  // reaches a modelled copy.
  Finder->addMatcher(callExpr(callee(functionDecl(isLibraryFunction()))),
                     this);
  if (!ExportDirectory.empty())
    Finder->addMatcher(translationUnitDecl(), this);
}

void AsyncReadBeforeSyncCheck::registerPPCallbacks(
    const SourceManager &, Preprocessor *PP, Preprocessor *) {
  this->PP = PP;
}

void AsyncReadBeforeSyncCheck::check(const MatchFinder::MatchResult &Result) {
  Triggered = Result.Context;
}

void AsyncReadBeforeSyncCheck::onEndOfTranslationUnit() {
  Profile = AnalysisProfile();
  if (ASTContext *Ctx = Triggered) {
    // The top-level declarations of the project and of the libraries it
    // includes as system headers (the code whose bodies the analysis
    // follows, LibraryCode.h) as the traversal scope while the check runs:
    // clang's ExprMutationAnalyzer (FunctionFacts) asks for ancestors,
    // which builds the parent map of the whole scope on first use -- with
    // the CUDA or libtorch headers, 0.1-0.3 s and tens to hundreds of MB per
    // translation unit (issue 13). Within the code followed the ancestors
    // it asks for are the same; the scope is restored before the next
    // check's end of translation unit.
    std::vector<Decl *> SavedScope = Ctx->getTraversalScope();
    std::vector<Decl *> Own;
    const SourceManager &SM = Ctx->getSourceManager();
    for (Decl *D : Ctx->getTranslationUnitDecl()->decls())
      if (!isToolchainCode(D, SM))
        Own.push_back(D);
    Ctx->setTraversalScope(Own);
    std::vector<const FunctionDecl *> Callables;
    {
      PhaseTimer Timer(Profile, AnalysisProfile::Select);
      auto Role = [&](const FunctionDecl *Callee) {
        if (!match(*CopyCallee, *Callee, *Ctx).empty())
          return CalleeRole::AsyncCopy;
        if (!match(*BlockingCallee, *Callee, *Ctx).empty())
          return CalleeRole::Blocking;
        bool Named = Callee->getIdentifier()
                         ? ImportedCopying.contains(Callee->getName())
                         : ImportedCopyingOperators &&
                               (isa<CXXConversionDecl>(Callee) ||
                                Callee->isOverloadedOperator());
        if (Imported && Named && !Callee->hasBody() &&
            Imported->leavesCopies(usrOf(Callee)) &&
            analysis(*Ctx).importedSummary(Callee))
          return CalleeRole::AsyncCopy;
        return CalleeRole::Other;
      };
      Callables = selectCallables(*Ctx, std::clamp(HelperDepth, 1u, 8u), Role);
    }
    for (const FunctionDecl *FD : Callables)
      analyseCallable(FD, *Ctx);
    if (!ExportDirectory.empty())
      exportSummaries(*Ctx);
    Ctx->setTraversalScope(SavedScope);
    if (std::getenv("CARS_PROFILE"))
      printProfile(Ctx->getSourceManager());
  }
  Triggered = nullptr;
  Analysis.reset();
}

/// One line on stderr per translation unit (bench/real_tus.py reads it):
/// seconds per phase, callables analysed and given up, summaries run, and
/// the process's peak resident memory so far.
void AsyncReadBeforeSyncCheck::printProfile(const SourceManager &SM) {
  static constexpr const char *Names[] = {"select",  "facts",     "effects",
                                          "solver",  "summaries", "report"};
  static_assert(std::size(Names) == AnalysisProfile::NumPhases);
  llvm::raw_ostream &OS = llvm::errs();
  OS << "cuda-async-read-before-sync profile:";
  if (OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getMainFileID()))
    OS << " file=" << F->getName();
  for (unsigned P = 0; P < AnalysisProfile::NumPhases; ++P)
    OS << " " << Names[P] << "="
       << llvm::format("%.4f", Profile.Seconds[P]);
  struct rusage Usage;
  long PeakKiB = getrusage(RUSAGE_SELF, &Usage) == 0 ? Usage.ru_maxrss : 0;
  OS << " callables=" << Profile.Callables << " given_up=" << Profile.GivenUp
     << " summary_runs=" << Profile.SummaryRuns
     << " peak_rss_mib=" << PeakKiB / 1024 << "\n";
}

namespace {

/// Texts of the note explaining why a sync-like call did not cover the copy;
/// indexed by MissReason. %0 is the stream or event the call named, %1 the
/// copy's stream, %2 the called function.
constexpr const char *MissNotes[] = {
    "",
    "this synchronizes stream '%0', not %1, the copy's stream",
    "event '%0' was recorded before the copy, so synchronizing it does not "
    "wait for the copy",
    "the event was recorded on stream '%0', not on %1, the copy's stream",
    "event '%0' is synchronized here, but it is not recorded after the copy "
    "on every path to this point",
    "%2 makes a stream wait on the device; it does not block the host",
    "%2 returns at once; it does not wait for the copy",
    "a host function enqueued on the stream does not block the calling "
    "thread",
    "synchronizing the legacy default stream does not wait for %1, which "
    "was created non-blocking",
    "with per-thread default streams, stream '%0' is this thread's own "
    "stream and does not wait for %1",
    "'%0' is queried here, but the access is not guarded by the query "
    "having returned cudaSuccess",
    "%2 is not documented to synchronize; StrictMode does not count it",
    "%2 returns before it is done unless its target is pinned host memory, "
    "so it does not wait for %1",
    "this synchronizes %0",
    "%2 waits only for the current device's work: %0",
};
static_assert(std::size(MissNotes) ==
                  static_cast<size_t>(MissReason::OtherDevice) + 1,
              "one note text per MissReason");

std::string describeStream(const StreamRef &S) {
  switch (S.K) {
  case StreamRef::Legacy:
    return "the legacy default stream";
  case StreamRef::PerThread:
    return "the per-thread default stream";
  case StreamRef::Named:
    return "stream '" + S.Spelling + "'";
  case StreamRef::Unknown:
    break;
  }
  return "an unknown stream";
}

/// A callee as diagnostics name it: a function template specialization by
/// its template's name ('for_each', not 'for_each<const int *, (lambda)>').
const NamedDecl *forDiag(const NamedDecl *D) {
  if (const auto *F = dyn_cast_or_null<FunctionDecl>(D))
    if (const FunctionTemplateDecl *T = F->getPrimaryTemplate())
      return T;
  return D;
}

/// The calls that order a copy after a write on another stream (an event
/// recorded after the write, waited for on the copy's stream), in the API
/// of the copy: libtorch's, the driver's, HIP's, else the runtime's.
const char *orderingCalls(const Expr *Copy, const ApiModel &Model,
                          const LangOptions &LO) {
  const auto *Call = dyn_cast<CallExpr>(Copy->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const ApiEntry *E = Callee ? Model.lookup(Callee) : nullptr;
  ApiFamily Family = E ? E->Family : ApiFamily::CudaRuntime;
  if (!E && LO.HIP)
    Family = ApiFamily::Hip;
  else if (!E && Callee &&
           llvm::is_contained({"at", "c10", "torch"},
                              outermostNamespace(Callee)))
    Family = ApiFamily::Torch; // a libtorch call the model has no row for
  switch (Family) {
  case ApiFamily::Torch:
    return "CUDAEvent::record + CUDAEvent::block";
  case ApiFamily::CudaDriver:
    return "cuEventRecord + cuStreamWaitEvent";
  case ApiFamily::Hip:
    return "hipEventRecord + hipStreamWaitEvent";
  default:
    return "cudaEventRecord + cudaStreamWaitEvent";
  }
}

} // namespace

void AsyncReadBeforeSyncCheck::reportProducer(const Finding &F,
                                              const SourceManager &SM,
                                              const LangOptions &LO) {
  std::string Copy = describeStream(F.CopyStream);
  std::string Producer = describeStream(F.ProducerStream);
  std::string Name = shortName(F.BufferName);
  diag(SM.getFileLoc(F.Access->getBeginLoc()),
       "the %select{asynchronous|blocking}3 device-to-host copy of '%0' on "
       "%1 may read it before the work that writes it on %2 has finished")
      << Name << Copy << Producer << F.BlockingCopy
      << F.Access->getSourceRange();
  diag(SM.getFileLoc(F.Producer->getBeginLoc()),
       "'%0' is written on %1 here", DiagnosticIDs::Note)
      << Name << Producer;
  // Short (under 120 characters), and in the copy's own API.
  diag(SM.getFileLoc(F.Access->getBeginLoc()),
       "nothing makes %0 wait for the write: use %1", DiagnosticIDs::Note)
      << Copy << orderingCalls(F.Access, *Model, LO);
  if (F.Claim == ClaimKind::Certain || F.Claim == ClaimKind::None)
    return;
  const StreamRef &Subject = F.SubjectIsProducer ? F.ProducerStream : F.CopyStream;
  const StreamRef &Other = F.SubjectIsProducer ? F.CopyStream : F.ProducerStream;
  if (Other.Supplied) {
    diag(SM.getFileLoc(F.Access->getBeginLoc()),
         "%0 and %1 are not created in this function: not a race if they are "
         "equal, or legacy default + blocking",
         DiagnosticIDs::Note)
        << Producer << Copy;
    return;
  }
  diag(SM.getFileLoc(F.Access->getBeginLoc()),
       "%0 is not created in this function: not a race if it is "
       "%select{the legacy default stream or a blocking one|the legacy or "
       "the per-thread default stream|%2|%2 or the legacy default stream}1",
       DiagnosticIDs::Note)
      << describeStream(Subject)
      << static_cast<int>(F.Claim) -
             static_cast<int>(ClaimKind::UnlessLegacyOrBlocking)
      << describeStream(Other);
}

/// Does the translation unit use per-thread default streams: the macro that
/// asks for them, defined where it takes effect? The CUDA runtime's header
/// renames its API once for the whole unit (cudaStreamSynchronize_ptsz), and
/// clang and nvcc include cuda_runtime.h before the file's first line, so a
/// `#define CUDA_API_PER_THREAD_DEFAULT_STREAM` in the file comes too late:
/// the header has then declared the legacy names (measured:
/// runtime/cases/ptds_define_in_source_too_late.cu). HIP's macro is taken as
/// defined.
static bool perThreadDefaultStreams(ASTContext &Ctx, Preprocessor *PP) {
  if (!PP)
    return false;
  if (PP->isMacroDefined("HIP_API_PER_THREAD_DEFAULT_STREAM"))
    return true;
  if (!PP->isMacroDefined("CUDA_API_PER_THREAD_DEFAULT_STREAM"))
    return false;
  const IdentifierInfo &Legacy = Ctx.Idents.get("cudaStreamSynchronize");
  return Ctx.getTranslationUnitDecl()->lookup(&Legacy).empty();
}

AsyncCopyAnalysis &AsyncReadBeforeSyncCheck::analysis(ASTContext &Ctx) {
  if (!Analysis) {
    AnalysisOptions Opts;
    Opts.StrictMode = StrictMode;
    Opts.CallerStreams = CallerStreams;
    Opts.MaxHelperDepth = HelperDepth;
    Opts.PerThreadDefaultStream = perThreadDefaultStreams(Ctx, PP);
    Opts.Imported = Imported;
    Analysis = std::make_unique<AsyncCopyAnalysis>(Ctx, *Model, Opts, Profile);
  }
  return *Analysis;
}

void AsyncReadBeforeSyncCheck::exportSummaries(ASTContext &Ctx) {
  PhaseTimer Timer(Profile, AnalysisProfile::Summaries);
  const SourceManager &SM = Ctx.getSourceManager();
  AsyncCopyAnalysis &A = analysis(Ctx);
  // The functions worth a summary: those that reach a modelled call (any
  // role), another GPU API (a pointer-attribute query: what it does not
  // do to its pointer is worth saying too), a kernel launch or an imported
  // summary within HelperDepth levels; and the functions called here
  // without a body, for the driver.
  std::vector<std::string> Calls;
  auto Role = [&](const FunctionDecl *Callee) {
    if (Model->lookup(Callee) || Callee->hasAttr<CUDAGlobalAttr>() ||
        isUnmodelledGpuApi(Callee))
      return CalleeRole::AsyncCopy;
    if (Callee->hasBody() || SM.isInSystemHeader(Callee->getLocation()))
      return CalleeRole::Other;
    // Selection asks only whether a summary that says anything exists
    // (its "calls" entry: a driver re-runs this unit when that changes);
    // the analysis then applies it through importedSummary ("consults").
    std::string USR = usrOf(Callee);
    bool Found = !USR.empty() && Imported && Imported->hasEffects(USR);
    if (!USR.empty())
      Calls.push_back(std::move(USR));
    return Found ? CalleeRole::AsyncCopy : CalleeRole::Other;
  };
  llvm::json::Array Functions;
  for (const FunctionDecl *FD :
       selectCallables(Ctx, std::clamp(HelperDepth, 1u, 8u), Role)) {
    if (!isExported(FD, SM))
      continue;
    const HelperSummary *S = A.summaryForExport(FD);
    std::optional<llvm::json::Object> O =
        S ? exportSummary(*S, FD, Ctx) : std::nullopt;
    if (!O)
      continue;
    // A summary per value of a bool or enumeration parameter that decides
    // a branch (SummaryFiles.h, "byConstant").
    for (unsigned P : A.branchParams(FD))
      for (long long V : variantValues(FD->getParamDecl(P)->getType())) {
        CallBindings Bound;
        Bound.Constants.push_back({FD->getParamDecl(P), V});
        if (const HelperSummary *SV = A.summaryForExport(FD, Bound))
          if (std::optional<llvm::json::Object> OV =
                  exportSummary(*SV, FD, Ctx))
            addVariant(*O, std::move(*OV), P, V);
      }
    Functions.push_back(std::move(*O));
  }
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return;
  // The unit's own files (its main file and the project's headers it
  // includes), for a driver's cache.
  // One pass over the unit's file entries (SourceManager::translateFile
  // per file scans them all: quadratic on a unit of thousands of headers).
  std::vector<std::string> Inputs;
  llvm::StringSet<> Seen;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile() || SrcMgr::isSystem(E.getFile().getFileCharacteristic()))
      continue;
    if (OptionalFileEntryRef F = E.getFile().getContentCache().OrigEntry)
      if (Seen.insert(F->getName()).second)
        Inputs.push_back(F->getName().str());
  }
  llvm::json::Array StreamMembers =
      exportStreamMembers(A.streamOrigins().written(), SM);
  llvm::json::Array HandleMembers =
      exportHandleMembers(A.streamOrigins().handlesWritten(), SM);
  std::vector<std::string> Consults = A.consulted();
  std::string Error = writeSummaryFile(
      ExportDirectory, Main->getName(), std::move(Functions),
      std::move(StreamMembers), std::move(HandleMembers), std::move(Calls),
      std::move(Consults), std::move(Inputs));
  if (!Error.empty())
    diag("option '%0.SummaryExportDirectory': %1", DiagnosticIDs::Error)
        << getID() << Error;
}

void AsyncReadBeforeSyncCheck::analyseCallable(const FunctionDecl *FD,
                                               ASTContext &Ctx) {
  PhaseTimer Timer(Profile, AnalysisProfile::Report);
  if (!FD->hasBody() || FD->isTemplated() || FD->isInvalidDecl())
    return;
  // Device code does not touch host memory through these APIs.
  if (FD->hasAttr<CUDAGlobalAttr>() ||
      (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(FD->getLocation()))
    return;
  std::set<unsigned> FixedAt;
  SyncFixer Fixer(*FD, *Model, Ctx);
  bool GaveUp = false;
  std::vector<Finding> Findings = analysis(Ctx).analyze(FD, &GaveUp);
  if (GaveUp && RemarkOnBudgetExceeded)
    diag(FD->getLocation(),
         "%0 is not analysed: its analysis needs more work than the check's "
         "budget allows, so its accesses are not checked",
         DiagnosticIDs::Remark)
        << forDiag(FD);
  for (const Finding &F : Findings) {
    if (F.Producer) {
      reportProducer(F, SM, Ctx.getLangOpts());
      continue;
    }
    // The %select index of the message below.
    unsigned KindIndex = static_cast<unsigned>(F.Kind);
    if (F.Kind == AccessKind::PassedToFunction && !F.Callee)
      KindIndex = 4;
    else if (F.Kind == AccessKind::UsedByLambda)
      KindIndex = F.Callee ? 5 : 6;
    else if (F.Kind == AccessKind::CapturedByArgument)
      KindIndex = F.Callee ? 7 : 8;
    else if (F.Kind == AccessKind::UsedByCallee)
      KindIndex = 9;
    {
      auto D = diag(SM.getFileLoc(F.Access->getBeginLoc()),
                    "'%0' is %select{read|written|passed to %2|used by work "
                    "on another stream|passed to a function|used by lambda "
                    "%2|used by a lambda|captured by a lambda passed to "
                    "%2|captured by a lambda passed to a function|used by "
                    "%2}1 before the asynchronous device-to-host copy into it "
                    "is known to be complete")
               << shortName(F.BufferName) << KindIndex;
      if (F.Callee)
        D << forDiag(F.Callee);
      else
        D << "";
      D << F.Access->getSourceRange();
    }
    const CopySite &C = *F.Copy;
    std::string Stream = describeStream(C.Stream);
    if (C.InnerCopy || !C.InnerCopyAt.empty()) {
      diag(SM.getFileLoc(C.Call->getBeginLoc()),
           "this call leaves an asynchronous device-to-host copy into '%0' "
           "in flight on %1",
           DiagnosticIDs::Note)
          << shortName(C.BufferName) << Stream;
      if (C.InnerCopy)
        diag(SM.getFileLoc(C.InnerCopy->getBeginLoc()),
             "the copy is issued here", DiagnosticIDs::Note);
      else // in another translation unit, by its summary
        diag(SM.getFileLoc(C.Call->getBeginLoc()),
             "the copy is issued in another translation unit, at %0",
             DiagnosticIDs::Note)
            << C.InnerCopyAt;
    } else {
      diag(SM.getFileLoc(C.Call->getBeginLoc()),
           "asynchronous device-to-host copy into '%0' on %1 is issued here",
           DiagnosticIDs::Note)
          << shortName(C.BufferName) << Stream;
    }
    if (C.Pageable)
      diag(SM.getFileLoc(C.Call->getBeginLoc()),
           "'%0' is pageable host memory: the CUDA manual only says such a "
           "copy \"might be synchronous\", and StrictMode follows the manual",
           DiagnosticIDs::Note)
          << shortName(C.BufferName);
    if (F.LaterIteration)
      diag(SM.getFileLoc(C.Call->getBeginLoc()),
           "the copy is still in flight when a later iteration of the loop "
           "reaches the access",
           DiagnosticIDs::Note);
    if (F.Miss.Reason != MissReason::None && F.Miss.Where) {
      const auto *Call = dyn_cast<CallExpr>(F.Miss.Where);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      auto D = diag(SM.getFileLoc(F.Miss.Where->getBeginLoc()),
                    MissNotes[static_cast<size_t>(F.Miss.Reason)],
                    DiagnosticIDs::Note)
               << F.Miss.Detail << Stream;
      if (Callee)
        D << Callee;
      else
        D << "the call";
    }
    // One synchronization per statement: the first access in it gets the
    // fix, which covers the others.
    if (std::optional<SyncFix> Fix = Fixer.fixFor(F);
        Fix && FixedAt.insert(Fix->At.getRawEncoding()).second)
      diag(Fix->At, "insert '%0' before the access to wait for the copy",
           DiagnosticIDs::Note)
          << Fix->Call << Fix->Hint;
    if (F.CalleeAccess) {
      bool ByLambda = F.Kind == AccessKind::CapturedByArgument ||
                      (F.Kind == AccessKind::UsedByLambda && !F.Callee);
      auto D = diag(SM.getFileLoc(F.CalleeAccess->getBeginLoc()),
                    "%select{%1|the lambda}0 touches the buffer here",
                    DiagnosticIDs::Note)
               << ByLambda;
      if (ByLambda)
        D << "";
      else
        D << forDiag(F.Callee);
    }
  }
}

} // namespace clang::tidy::cuda
