//===--- SummaryExport.cpp - Summaries written for other units ----------===//
//
// Export: a translation unit's summaries of the functions it defines for
// other units, as the format below, into one file per unit
// (SummaryFiles.h). Also usrOf and isExported.
//
// The format (version 3), one file per translation unit:
//   { "format": SummaryFormatName, "version": 3, "file": <main file>,
//     "functions": [ <function> ... ], "calls": [ <USR> ... ],
//     "consults": [ <USR> ... ],
//     "streamMembers": [{"usr", "name", "origin": "blocking" |
//                        "nonBlocking" | "unknown"}],
//     "handleMembers": [{"usr", "name", "stream" (absent: unknown),
//                        "sameObject" (absent: false)}],
//     "inputs": [ <the unit's own files: main file, project headers> ] }
// "streamMembers": what this unit's own writes put into each stream member
// or global it writes (StreamOrigins.h), for units that only read it; a
// consult of one is listed in "consults" as "%" + its USR. "handleMembers"
// (absent in older files: nothing known): the stream member or global, by
// USR, that this unit's setters give each math library handle member or
// global (StreamOrigins::handleStream), no "stream" where they give
// several or another value, or use the handle unclassified; "sameObject"
// where each gives a member of the handle's own object; consulted as "%" +
// the handle's USR.
// "calls": every function the unit calls without a body (whether a summary
// of it exists, or leaves copies, decides which callables are analysed);
// "consults": those whose summary the analysis asked for (its content
// decides the findings and summaries). A driver re-runs the unit when the
// first change in that respect, or the second in any.
// A function:
//   { "usr", "name" (qualified, for people), "params" (count),
//     "tooCostly", "syncsDevice", "syncsStreamParams": [i],
//     "syncsStreamParamsIfBlocking": [i] (through the legacy stream only:
//     where the caller's stream is blocking; version 2), "syncsStreams":
//     [<stream>], "syncsEventParams": [i], "syncsEvents": [<event>],
//     "recordsEvents": [{"eventParam" | "event", "streamParam" | "stream",
//                        "somePaths" (absent: false; recorded on some paths
//                        only)}],
//     "accesses": [{"param", "unlessSynced": [stream param, or -1 (no
//                   stream), or -3 (a blocking stream the function does
//                   not name: covered by the legacy stream's syncs; new in
//                   version 2), or -4 (the per-thread default stream; new
//                   in version 3: a version-2 file has no such seed)],
//                   "guards": [<guard>]}],
//     "copies": [{"dst" | "dstNamed" | "returned", "streamParam" | "stream",
//                 "at", "coveredBy": [record], "joinedInto": [{"param" |
//                 "stream"}], "pageable", "unlessBlocking" (complete where
//                 the caller's stream is blocking; version 2),
//                 "needsHostDestination" (a copy of
//                 inferred direction: to the host only where the argument
//                 is host memory)}],
//     "produces": [{"param", "on": "param" | "current" | "legacy",
//                   "streamParam", "torch", "ifDevice" (absent: false;
//                   a cudaMemcpyDefault copy: only into device memory)}],
//     "consumes": [{"param", "on": "param" | "legacy", "streamParam",
//                   "blocking"}] (HelperSummary::Consumes),
//     "captureStreams": [<stream>], "namedBufferStreams",
//     "named": [{"path", "name", "unsynced": [capture stream, -1, -3 or
//                -4 (as in "accesses"; -3 and -4 new in version 3)],
//                "guards": [<guard>]}],
//     "byConstant": [{"param", "value", "params", and the fields above as
//                     they are when parameter "param" is "value" at the
//                     call}] (only variants that differ) }
// <stream>: {"kind": "legacy" | "perThread" | "named" | "unknown", "path",
// "spelling"}; <event>: {"path", "spelling"}; <guard>: {"eventParam"} or
// <event>; a path: {"root": "this" | "global" | "call" | "param", "usr" (global,
// call), "args": [path] (call), "members": [[name, arrow]]}; a member of a
// parameter: {"root": "param", "index", "members"} (a path with no member
// is the parameter itself, which the fields above name by index).
//===----------------------------------------------------------------------===//

#include "SummaryFiles.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

namespace clang::tidy::cuda {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (!D || index::generateUSRForDecl(D, Buf))
    return {};
  return std::string(Buf);
}

bool isExported(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || !FD->doesThisDeclarationHaveABody() || FD->isTemplated() ||
      FD->isInlined() || !FD->isExternallyVisible() || FD->isInvalidDecl() ||
      SM.isInSystemHeader(FD->getLocation()))
    return false;
  // An implicit instantiation's body is in a header that every unit using
  // it includes: each unit analyses its own. (Explicit instantiation
  // definitions and explicit specializations, which other units reach only
  // through a declaration, are exported.)
  if (FD->getTemplateSpecializationKind() == TSK_ImplicitInstantiation)
    return false;
  if (FD->hasAttr<CUDAGlobalAttr>() ||
      (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()))
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    if (M->isVirtual() || M->getParent()->isLambda())
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

namespace {

/// The JSON of one function's summary, dropping what it cannot name.
class Exporter {
public:
  Exporter(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {}
  Object run(const HelperSummary &S, std::string USR);

private:
  std::optional<Value> path(const AccessPath &P) const;
  std::optional<Value> stream(const StreamRef &S) const;
  std::optional<Value> event(const HelperSummary::EventRef &E) const;
  /// A guard: by parameter, or by its event; nullopt where not nameable.
  std::optional<Value> guard(const HelperSummary::EventGuard &G) const;
  std::string at(const Stmt *S) const;

  const FunctionDecl *FD;
  ASTContext &Ctx;
};

/// A path's members, or nullopt when a step is not a member (an index, a
/// call) or a member is not a field.
std::optional<Array> members(const AccessPath &P) {
  Array Out;
  for (const PathStep &S : P.steps()) {
    if ((S.K != PathStep::Dot && S.K != PathStep::Arrow) ||
        !isa_and_nonnull<FieldDecl>(S.Member))
      return std::nullopt;
    Out.push_back(Array{S.Member->getName(), S.K == PathStep::Arrow});
  }
  return Out;
}

std::optional<Value> Exporter::path(const AccessPath &P) const {
  std::optional<Array> Members = members(P);
  if (!Members)
    return std::nullopt;
  Object O;
  switch (P.rootKind()) {
  case AccessPath::RootKind::This:
    if (Members->empty())
      return std::nullopt;
    O["root"] = "this";
    break;
  case AccessPath::RootKind::Decl: {
    // A member of a parameter (`c.s`, `ctx->stream` of `Ctx *ctx`): by the
    // parameter's position; the caller's argument at the call.
    if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(P.rootDecl());
        PD && PD->getDeclContext() == FD && !Members->empty()) {
      O["root"] = "param";
      O["index"] = static_cast<int64_t>(PD->getFunctionScopeIndex());
      break;
    }
    const auto *V = dyn_cast_or_null<VarDecl>(P.rootDecl());
    if (!V || !V->hasGlobalStorage() || V->isStaticLocal() ||
        !V->isExternallyVisible())
      return std::nullopt; // a local, a parameter, a unit's own static
    std::string USR = usrOf(V);
    if (USR.empty())
      return std::nullopt;
    O["root"] = "global";
    O["usr"] = std::move(USR);
    break;
  }
  case AccessPath::RootKind::Call: {
    const CallExpr *C = P.rootCall();
    const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
    if (!Callee || isa<CXXMethodDecl>(Callee))
      return std::nullopt;
    std::string USR = usrOf(Callee);
    if (USR.empty())
      return std::nullopt;
    Array Args;
    for (const Expr *A : C->arguments()) {
      std::optional<Value> Arg = path(AccessPath::of(A));
      if (!Arg)
        return std::nullopt; // a parameter, a constant: not in version 1
      Args.push_back(std::move(*Arg));
    }
    O["root"] = "call";
    O["usr"] = std::move(USR);
    O["args"] = std::move(Args);
    break;
  }
  default:
    return std::nullopt;
  }
  O["members"] = std::move(*Members);
  return Value(std::move(O));
}

std::optional<Value> Exporter::stream(const StreamRef &S) const {
  Object O;
  switch (S.K) {
  case StreamRef::Legacy:
    O["kind"] = "legacy";
    break;
  case StreamRef::PerThread:
    O["kind"] = "perThread";
    break;
  case StreamRef::Unknown:
    O["kind"] = "unknown";
    break;
  case StreamRef::Named: {
    std::optional<Value> P = path(S.Path);
    if (!P)
      return std::nullopt;
    O["kind"] = "named";
    O["path"] = std::move(*P);
    O["spelling"] = S.Spelling;
    break;
  }
  }
  return Value(std::move(O));
}

std::optional<Value> Exporter::event(const HelperSummary::EventRef &E) const {
  std::optional<Value> P = path(E.Path);
  if (!P)
    return std::nullopt;
  return Value(Object{{"path", std::move(*P)}, {"spelling", E.Spelling}});
}

std::optional<Value>
Exporter::guard(const HelperSummary::EventGuard &G) const {
  if (G.EventParam >= 0)
    return Value(Object{{"eventParam", G.EventParam}});
  return event(G.Event);
}

std::string Exporter::at(const Stmt *S) const {
  if (!S)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(S->getBeginLoc()));
  if (P.isInvalid())
    return {};
  return (llvm::Twine(P.getFilename()) + ":" + llvm::Twine(P.getLine()) +
          ":" + llvm::Twine(P.getColumn()))
      .str();
}

Array indices(const std::vector<bool> &Flags) {
  Array Out;
  for (unsigned I = 0; I < Flags.size(); ++I)
    if (Flags[I])
      Out.push_back(static_cast<int64_t>(I));
  return Out;
}

Object Exporter::run(const HelperSummary &S, std::string USR) {
  Object O;
  O["usr"] = std::move(USR);
  O["name"] = FD->getQualifiedNameAsString();
  O["params"] = static_cast<int64_t>(FD->getNumParams());
  if (S.TooCostly) {
    O["tooCostly"] = true;
    return O;
  }
  O["syncsDevice"] = S.SyncsDevice;
  O["syncsStreamParams"] = indices(S.SyncsStreamParam);
  O["syncsStreamParamsIfBlocking"] = indices(S.SyncsStreamParamIfBlocking);
  O["syncsEventParams"] = indices(S.SyncsEventParam);
  // Syncs the format cannot name are dropped: the caller then sees less
  // synchronization, never more.
  Array Streams, Events;
  for (const StreamRef &St : S.SyncsStreams)
    if (std::optional<Value> V = stream(St))
      Streams.push_back(std::move(*V));
  for (const HelperSummary::EventRef &E : S.SyncsEvents)
    if (std::optional<Value> V = event(E))
      Events.push_back(std::move(*V));
  O["syncsStreams"] = std::move(Streams);
  O["syncsEvents"] = std::move(Events);
  // Records: a dropped one is renumbered away; the copies it covers are
  // dropped below (the caller's event would cover them).
  Array Records;
  std::vector<int> RecordIndex(S.RecordsEvents.size(), -1);
  for (unsigned N = 0; N < S.RecordsEvents.size(); ++N) {
    const HelperSummary::EventRecord &R = S.RecordsEvents[N];
    Object Rec;
    if (R.EventParam >= 0) {
      Rec["eventParam"] = R.EventParam;
    } else if (std::optional<Value> E = event(R.Event)) {
      Rec["event"] = std::move(*E);
    } else {
      continue;
    }
    if (R.StreamParam >= 0) {
      Rec["streamParam"] = R.StreamParam;
    } else if (std::optional<Value> St = stream(R.Stream)) {
      Rec["stream"] = std::move(*St);
    } else {
      continue;
    }
    if (R.SomePaths)
      Rec["somePaths"] = true;
    RecordIndex[N] = static_cast<int>(Records.size());
    Records.push_back(std::move(Rec));
  }
  O["recordsEvents"] = std::move(Records);
  // Accesses of parameters: a guard that cannot be named is dropped, so the
  // access is reported where the guard would have covered the copy -- as a
  // buffer passed to a function without a summary always is.
  Array Accesses;
  for (unsigned P = 0; P < S.AccessedUnlessSynced.size(); ++P) {
    if (S.AccessedUnlessSynced[P].empty())
      continue;
    Array Unless, Guards;
    for (int Seed : S.AccessedUnlessSynced[P])
      Unless.push_back(Seed);
    for (const HelperSummary::EventGuard &G : S.AccessGuards[P])
      if (std::optional<Value> V = guard(G))
        Guards.push_back(std::move(*V));
    Accesses.push_back(Object{{"param", static_cast<int64_t>(P)},
                              {"unlessSynced", std::move(Unless)},
                              {"guards", std::move(Guards)}});
  }
  O["accesses"] = std::move(Accesses);
  // Buffers the caller names too (members of `this`, globals), crossed with
  // the first NamedBufferStreams capture streams: all of them or none, as
  // a call without a summary touches none.
  Array Capture, Named;
  std::vector<int> NamedIndex(S.Named.size(), -1);
  bool StreamsNamed = true;
  for (unsigned K = 0; K < S.CaptureStreams.size(); ++K) {
    std::optional<Value> V = stream(S.CaptureStreams[K]);
    if (!V) {
      StreamsNamed = StreamsNamed && K >= S.NamedBufferStreams;
      break;
    }
    Capture.push_back(std::move(*V));
  }
  if (StreamsNamed && Capture.size() >= S.NamedBufferStreams) {
    for (unsigned N = 0; N < S.Named.size(); ++N) {
      const HelperSummary::NamedBuffer &B = S.Named[N];
      std::optional<Value> P = path(B.Path);
      if (!P)
        continue;
      Array Unsynced, Guards;
      bool AllGuards = true;
      for (int K : B.Unsynced)
        Unsynced.push_back(K);
      for (const HelperSummary::EventGuard &G : B.Guards) {
        std::optional<Value> V = guard(G);
        AllGuards = AllGuards && V;
        if (V)
          Guards.push_back(std::move(*V));
      }
      if (!AllGuards)
        continue; // its accesses would be reported where a guard covers
      NamedIndex[N] = static_cast<int>(Named.size());
      Named.push_back(Object{{"path", std::move(*P)},
                             {"name", B.Name},
                             {"unsynced", std::move(Unsynced)},
                             {"guards", std::move(Guards)}});
    }
    O["namedBufferStreams"] = static_cast<int64_t>(S.NamedBufferStreams);
    O["captureStreams"] = std::move(Capture);
  } else {
    O["namedBufferStreams"] = 0;
    O["captureStreams"] = Array();
  }
  O["named"] = std::move(Named);
  // Copies left in flight: one whose stream, record or join cannot be named
  // is dropped (a miss, as for a call without a summary), never kept on a
  // stream that nothing at the caller would be taken to synchronize.
  Array Copies;
  for (const HelperSummary::PendingCopy &PC : S.CopiesLeftPending) {
    Object C;
    if (PC.Returned)
      C["returned"] = true;
    else if (PC.DstNamed >= 0) {
      if (NamedIndex[PC.DstNamed] < 0)
        continue;
      C["dstNamed"] = NamedIndex[PC.DstNamed];
    } else {
      C["dst"] = static_cast<int64_t>(PC.DstParam);
    }
    if (PC.StreamParam >= 0) {
      C["streamParam"] = PC.StreamParam;
    } else if (std::optional<Value> St = stream(PC.Stream);
               St && (PC.Stream.K != StreamRef::Unknown)) {
      C["stream"] = std::move(*St);
    } else {
      continue;
    }
    Array Covered, Joined;
    bool Complete = true;
    for (unsigned R : PC.CoveredBy) {
      Complete = Complete && RecordIndex[R] >= 0;
      if (RecordIndex[R] >= 0)
        Covered.push_back(RecordIndex[R]);
    }
    for (const auto &[Param, Waiting] : PC.JoinedInto) {
      if (Param >= 0) {
        Joined.push_back(Object{{"param", Param}});
      } else if (std::optional<Value> St = stream(Waiting)) {
        Joined.push_back(Object{{"stream", std::move(*St)}});
      } else {
        Complete = false;
      }
    }
    if (!Complete)
      continue;
    C["coveredBy"] = std::move(Covered);
    C["joinedInto"] = std::move(Joined);
    C["pageable"] = PC.Pageable;
    if (PC.NeedsHostDestination)
      C["needsHostDestination"] = true;
    if (PC.UnlessBlocking)
      C["unlessBlocking"] = true;
    C["at"] = PC.CopyAt.empty() ? at(PC.Copy) : PC.CopyAt;
    Copies.push_back(std::move(C));
  }
  O["copies"] = std::move(Copies);
  Array Produces;
  for (const HelperSummary::Production &P : S.Produces) {
    if (P.NamedBuffer || P.On == HelperSummary::Production::OnNamedStream ||
        P.On == HelperSummary::Production::OnHandleStream)
      continue; // by paths the caller names, by a getter (not exported)
    const char *On = P.On == HelperSummary::Production::OnStreamParam
                         ? "param"
                     : P.On == HelperSummary::Production::CurrentStream
                         ? "current"
                         : "legacy";
    Produces.push_back(Object{{"param", static_cast<int64_t>(P.BufferParam)},
                              {"on", On},
                              {"streamParam",
                               static_cast<int64_t>(P.StreamParam)},
                              {"torch", P.Torch},
                              {"ifDevice", P.IfDevice}});
  }
  O["produces"] = std::move(Produces);
  Array Consumes;
  for (const HelperSummary::Consumption &C : S.Consumes)
    // A lambda's captures: no caller elsewhere; paths: not exported.
    if (!C.CapturedBuffer && !C.NamedBuffer &&
        C.NamedStream.K != StreamRef::Named)
      Consumes.push_back(
          Object{{"param", static_cast<int64_t>(C.BufferParam)},
                 {"on", C.OnStreamParam ? "param" : "legacy"},
                 {"streamParam", static_cast<int64_t>(C.StreamParam)},
                 {"blocking", C.Blocking}});
  O["consumes"] = std::move(Consumes);
  return O;
}

} // namespace

std::vector<long long> variantValues(QualType T) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (T->isBooleanType())
    return {0, 1};
  const auto *ET = T->getAs<EnumType>();
  const EnumDecl *ED = ET ? ET->getDecl()->getDefinition() : nullptr;
  std::vector<long long> Out;
  if (!ED)
    return Out;
  for (const EnumConstantDecl *E : ED->enumerators()) {
    if (Out.size() == MaxVariantValues)
      return {};
    Out.push_back(E->getInitVal().getExtValue());
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

void addVariant(Object &Summary, Object Variant, unsigned Param,
                long long Constant) {
  for (llvm::StringRef Identity : {"usr", "name"})
    Variant.erase(Identity); // "params" stays: the import checks it
  bool Same = true;
  for (const auto &[Key, V] : Variant)
    if (const Value *Any = Summary.get(Key); !Any || *Any != V)
      Same = false;
  if (Same)
    return;
  Variant["param"] = static_cast<int64_t>(Param);
  Variant["value"] = static_cast<int64_t>(Constant);
  if (!Summary.getArray("byConstant"))
    Summary["byConstant"] = Array();
  Summary.getArray("byConstant")->push_back(std::move(Variant));
}

std::optional<Object> exportSummary(const HelperSummary &S,
                                    const FunctionDecl *FD, ASTContext &Ctx) {
  std::string USR = usrOf(FD);
  if (USR.empty())
    return std::nullopt;
  return Exporter(FD, Ctx).run(S, std::move(USR));
}

llvm::StringRef streamOriginName(StreamOrigin O) {
  return O == StreamOrigin::CreatedNonBlocking ? "nonBlocking"
         : O == StreamOrigin::CreatedBlocking  ? "blocking"
                                               : "unknown";
}

StreamOrigin streamOriginNamed(llvm::StringRef Name) {
  for (StreamOrigin O : {StreamOrigin::CreatedNonBlocking,
                         StreamOrigin::CreatedBlocking})
    if (Name == streamOriginName(O))
      return O;
  return StreamOrigin::Unknown;
}

Array exportStreamMembers(
    llvm::ArrayRef<std::pair<const ValueDecl *, StreamOrigin>> Written,
    const SourceManager &SM) {
  Array Out;
  for (const auto &[D, Origin] : Written) {
    std::string USR = usrOf(D);
    if (USR.empty() || SM.isInSystemHeader(D->getLocation()))
      continue;
    Out.push_back(Object{{"usr", std::move(USR)},
                         {"name", D->getQualifiedNameAsString()},
                         {"origin", streamOriginName(Origin)}});
  }
  return Out;
}

Array exportHandleMembers(llvm::ArrayRef<StreamOrigins::WrittenHandle> Written,
                          const SourceManager &SM) {
  Array Out;
  for (const StreamOrigins::WrittenHandle &W : Written) {
    std::string USR = usrOf(W.Handle);
    if (USR.empty() || SM.isInSystemHeader(W.Handle->getLocation()))
      continue;
    Object Entry{{"usr", std::move(USR)},
                 {"name", W.Handle->getQualifiedNameAsString()}};
    if (std::string S = W.Stream ? usrOf(W.Stream) : ""; !S.empty()) {
      Entry["stream"] = std::move(S);
      if (W.SameObject)
        Entry["sameObject"] = true;
    }
    Out.push_back(std::move(Entry));
  }
  return Out;
}

std::string writeSummaryFile(llvm::StringRef Directory,
                             llvm::StringRef MainFile, Array Functions,
                             Array StreamMembers, Array HandleMembers,
                             std::vector<std::string> Calls,
                             std::vector<std::string> Consults,
                             std::vector<std::string> Inputs) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return "cannot create directory '" + Directory.str() +
           "': " + EC.message();
  llvm::SmallString<256> Abs(MainFile);
  llvm::sys::fs::make_absolute(Abs);
  llvm::SmallString<256> Target(Directory);
  llvm::sys::path::append(
      Target, llvm::sys::path::filename(MainFile) + "." +
                  llvm::utohexstr(llvm::xxh3_64bits(Abs.str())) + ".json");
  auto Sorted = [](std::vector<std::string> List) {
    llvm::sort(List);
    List.erase(std::unique(List.begin(), List.end()), List.end());
    Array Out;
    for (std::string &S : List)
      Out.push_back(std::move(S));
    return Out;
  };
  Object File{{"format", SummaryFormatName},
              {"version", SummaryFormatVersion},
              {"file", Abs.str()},
              {"functions", std::move(Functions)},
              {"streamMembers", std::move(StreamMembers)},
              {"handleMembers", std::move(HandleMembers)},
              {"calls", Sorted(std::move(Calls))},
              {"consults", Sorted(std::move(Consults))},
              {"inputs", Sorted(std::move(Inputs))}};
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Target + ".tmp-%%%%%%", FD, Temp))
    return "cannot write '" + Target.str().str() + "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << llvm::formatv("{0:2}", Value(std::move(File))) << "\n";
    if (OS.has_error()) {
      llvm::sys::fs::remove(Temp);
      return "cannot write '" + Temp.str().str() + "'";
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Target)) {
    llvm::sys::fs::remove(Temp);
    return "cannot write '" + Target.str().str() + "': " + EC.message();
  }
  return {};
}

} // namespace clang::tidy::cuda
