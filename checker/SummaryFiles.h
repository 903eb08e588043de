//===--- SummaryFiles.h - Helper summaries across translation units -*- C++ -*-===//
//
// One concern: the on-disk form of HelperSummary, so that a call of a
// function defined in another translation unit is applied like a call of a
// same-TU helper (docs/summaries-across-units.md, "Summaries across
// translation units").
//  - Export: the summaries of the functions a translation unit defines for
//    other units (externally visible, not inline), each named by its USR
//    (clang::index::generateUSRForDecl, as clang's cross-TU analysis names
//    functions), written with LLVM's JSON support into one file per
//    translation unit. The file also lists the functions the unit calls
//    without seeing their bodies, so that a driver knows which units a new
//    summary concerns.
//  - Import: summary files (or directories of them) read once per process
//    and file version, and a HelperSummary rebuilt for a declaration of the
//    importing unit: parameters by index, members of `this` by name in the
//    method's class, globals and called functions by USR.
//    A function whose branches test a parameter of bool or enumeration
//    type also gets a summary per value of that parameter ("byConstant"),
//    applied at a call whose argument is that constant (`copyToHost(...,
//    CallBehavior::Sync)`): the blocking branch's caller is not warned.
// A fact the format cannot name (a stream reached through an index or a
// parameter's member, a lambda's capture) is left out on the side that
// cannot make a warning wrong: a sync, a record, a guard or a join the
// format cannot carry is dropped together with whatever rests on it (a copy
// it covers, a member buffer it guards), so an imported summary never says
// less synchronization than the body does without also saying less of the
// copies and accesses it would cover.
//
// The format is described at the top of SummaryExport.cpp; SummaryImport.cpp
// reads it.
//
// May call: HelperSummaries (the type), AccessPath, CudaApiModel
// (StreamRef), clang's Index (USRs), LLVM's JSON and file system support.
// Called by AsyncReadBeforeSyncCheck (export, loading) and
// AsyncCopyAnalysis (import at a call).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_SUMMARYFILES_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_SUMMARYFILES_H

#include "HelperSummaries.h"
#include "StreamOrigins.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// The format's name and version, written into and checked in every file.
inline constexpr const char *SummaryFormatName =
    "cuda-async-read-before-sync-summaries";
inline constexpr int64_t SummaryFormatVersion = 3;

/// The USR of a declaration (clang::index::generateUSRForDecl), or empty.
std::string usrOf(const Decl *D);

/// Summaries imported from files: one JSON object per function, by USR.
/// A function summarised by several files (only inline functions could be,
/// and they are not exported) keeps the first file's summary, in the order
/// the paths were given and, within a directory, by file name.
class SummaryStore {
public:
  /// Reads every summary file among Paths: a file, or a directory whose
  /// `*.json` files are read (not recursively). A path that does not exist,
  /// a file that is not JSON or not of this format and version, and a
  /// function entry without a USR are reported through Report (one message
  /// each, naming the path) and skipped; the rest is loaded. Files already
  /// read by this process with the same size and modification time are not
  /// parsed again.
  static std::shared_ptr<const SummaryStore>
  load(llvm::ArrayRef<std::string> Paths,
       llvm::function_ref<void(const std::string &)> Report);

  bool empty() const { return Functions.empty(); }
  /// The summary of the function named USR, or null.
  const llvm::json::Object *find(llvm::StringRef USR) const;
  /// Whether that summary leaves a device-to-host copy in flight (into a
  /// parameter, a member, a global or its result).
  bool leavesCopies(llvm::StringRef USR) const;
  /// Whether the summary of USR says anything beyond who it is (a field
  /// other than "usr", "name" and "params" that is true, non-zero or not
  /// empty): an inert summary, like none, makes no caller worth a summary.
  /// tools/cars_summaries.py's _shape reads the same.
  bool hasEffects(llvm::StringRef USR) const;
  /// The unqualified names of the functions whose summaries leave copies in
  /// flight (the check's trigger matches calls of them; the USR decides),
  /// operators and conversion functions left out.
  std::vector<std::string> copyingNames() const;
  /// Whether an operator or a conversion function (`operator
  /// Eigen::MatrixXd() const`, called implicitly) leaves copies in flight:
  /// such calls are matched by kind, not by name.
  bool copiesThroughOperators() const;
  /// What the units' walks say a stream member or global (by USR) holds
  /// (StreamOrigins.h), joined over every file that names it: one origin
  /// where all agree, Unknown where any differs or says Unknown; nullopt
  /// where no file names it.
  std::optional<StreamOrigin> streamMemberOrigin(llvm::StringRef USR) const;
  /// The USR of the stream member or global the units' setters give a
  /// library handle member or global (by USR: StreamOrigins::handleStream),
  /// joined over every file that names it: empty where any says unknown or
  /// two differ; nullopt where no file names it.
  std::optional<std::string> handleMemberStream(llvm::StringRef USR) const;
  /// Whether a file names a stream for that handle without "sameObject".
  bool handleMemberOtherObject(llvm::StringRef USR) const {
    return HandleOtherObject.contains(USR);
  }

private:
  llvm::StringMap<std::shared_ptr<const llvm::json::Object>> Functions;
  llvm::StringMap<StreamOrigin> StreamMembers;
  llvm::StringMap<std::string> HandleMembers;
  llvm::StringSet<> HandleOtherObject;
};

/// Globals and functions of one importing translation unit by USR, built
/// on first use (only when an imported summary names one).
class UsrIndex {
public:
  explicit UsrIndex(ASTContext &Ctx) : Ctx(Ctx) {}
  /// The declaration (a variable with global storage or a function) whose
  /// USR is USR, or null.
  const ValueDecl *find(llvm::StringRef USR);

private:
  ASTContext &Ctx;
  bool Built = false;
  llvm::StringMap<const ValueDecl *> Decls;
};

/// The summary of FD (a declaration of this translation unit without a
/// body) rebuilt from its imported form O. Null when O does not fit FD
/// (another parameter count) or is malformed. What names a declaration the
/// unit lacks is left out as SummaryFiles.h's opening comment says.
std::unique_ptr<HelperSummary> importSummary(const llvm::json::Object &O,
                                             const FunctionDecl *FD,
                                             UsrIndex &Index);

/// The variant among a summary's "byConstant" entries for parameter
/// Param bound to Value (to any value, when none is given), or null.
const llvm::json::Object *
variantFor(const llvm::json::Array &Variants, unsigned Param,
           std::optional<long long> Value = std::nullopt);

/// The JSON form of S, the summary of FD (defined in this translation
/// unit), or nullopt when FD has no USR. Facts the format cannot name are
/// left out as the opening comment says.
std::optional<llvm::json::Object> exportSummary(const HelperSummary &S,
                                                const FunctionDecl *FD,
                                                ASTContext &Ctx);

/// The values a parameter of type T gets a constant-argument variant for
/// ("byConstant"): false and true for a bool, each enumerator's value for
/// an enumeration of at most MaxVariantValues of them; none otherwise (an
/// integer's values are too many to export; a call in this unit binds
/// them all the same, CallBindings).
inline constexpr unsigned MaxVariantValues = 8;
std::vector<long long> variantValues(QualType T);

/// Adds to Summary, the exported form of FD's summary for any argument,
/// its variant for parameter Param bound to Value when that says anything
/// else ("byConstant": the variant's own fields, with "param" and
/// "value").
void addVariant(llvm::json::Object &Summary, llvm::json::Object Variant,
                unsigned Param, long long Value);

/// Writes the summary file of the translation unit of MainFile into
/// Directory (created if missing): its exported Functions, its stream
/// members' origins (StreamMembers: exportStreamMembers), the USRs of
/// the functions it calls without a body (Calls), those whose summary (or,
/// as "%" + USR, whose stream member's origin) the
/// analysis consulted (Consults; SummaryExport.cpp's format) and its own files
/// (Inputs: the main file and the project headers it includes). The file's name is made
/// from MainFile's name and a hash of its path, so that units of one
/// project do not collide; it is written to a temporary file and renamed,
/// so that a reader never sees half a file. An error message, or empty.
std::string writeSummaryFile(llvm::StringRef Directory,
                             llvm::StringRef MainFile,
                             llvm::json::Array Functions,
                             llvm::json::Array StreamMembers,
                             llvm::json::Array HandleMembers,
                             std::vector<std::string> Calls,
                             std::vector<std::string> Consults,
                             std::vector<std::string> Inputs);
/// A stream origin's name in "streamMembers" ("nonBlocking", "blocking",
/// "unknown"), and the origin a name stands for (Unknown for any other).
llvm::StringRef streamOriginName(StreamOrigin O);
StreamOrigin streamOriginNamed(llvm::StringRef Name);
/// The "streamMembers" entries of a unit's own stream origins
/// (StreamOrigins::written): those with a USR, not the toolchain's.
llvm::json::Array
exportStreamMembers(llvm::ArrayRef<std::pair<const ValueDecl *, StreamOrigin>>
                        Written,
                    const SourceManager &SM);

/// The "handleMembers" entries of a unit's own library handles
/// (StreamOrigins::handlesWritten): those with a USR, not the toolchain's;
/// "stream" is the USR of the stream member or global, absent when unknown.
llvm::json::Array
exportHandleMembers(llvm::ArrayRef<StreamOrigins::WrittenHandle> Written,
                    const SourceManager &SM);

/// Whether a function defined in this translation unit is one other units
/// may call and so is exported: externally visible, not inline (an inline
/// function's body is in every unit that calls it), not templated nor an
/// implicit template instantiation (likewise), not device code, not
/// virtual, defined outside system headers.
bool isExported(const FunctionDecl *FD, const SourceManager &SM);

} // namespace clang::tidy::cuda

#endif
