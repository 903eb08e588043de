//===--- SummaryImport.cpp - Summaries read from other units ------------===//
//
// Import: summary files read once per process and file version, and a
// HelperSummary rebuilt from one function's entry for a declaration of the
// importing unit (SummaryFiles.h; the format is described at the top of
// SummaryExport.cpp).
//
//===----------------------------------------------------------------------===//

#include "SummaryFiles.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <mutex>

namespace clang::tidy::cuda {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

namespace {

/// One summary file as last parsed by this process.
struct ParsedFile {
  uint64_t Size = 0;
  llvm::sys::TimePoint<> Modified;
  std::vector<std::pair<std::string, std::shared_ptr<const Object>>> Functions;
  /// "streamMembers": USR and origin.
  std::vector<std::pair<std::string, StreamOrigin>> StreamMembers;
  /// "handleMembers": USR, the stream's USR (empty: unknown), and
  /// whether the stream is a member of the handle's own object.
  struct Handle {
    std::string USR, Stream;
    bool SameObject;
  };
  std::vector<Handle> HandleMembers;
  std::string Error;
};

/// Parses a file (or returns this process's earlier parse of it).
std::shared_ptr<const ParsedFile> parseFile(const std::string &Path) {
  static std::mutex Lock;
  static std::map<std::string, std::shared_ptr<const ParsedFile>> Cache;
  llvm::sys::fs::file_status Status;
  auto Out = std::make_shared<ParsedFile>();
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    Out->Error = EC.message();
    return Out;
  }
  std::lock_guard<std::mutex> Guard(Lock);
  if (auto It = Cache.find(Path);
      It != Cache.end() && It->second->Size == Status.getSize() &&
      It->second->Modified == Status.getLastModificationTime())
    return It->second;
  Out->Size = Status.getSize();
  Out->Modified = Status.getLastModificationTime();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Out->Error = Buffer.getError().message();
    return Out;
  }
  llvm::Expected<Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    Out->Error = "not JSON: " + llvm::toString(Parsed.takeError());
    return Out;
  }
  const Object *Root = Parsed->getAsObject();
  if (!Root || Root->getString("format") != SummaryFormatName) {
    Out->Error = "not a summary file of this check";
    return Out;
  }
  if (Root->getInteger("version") != SummaryFormatVersion) {
    Out->Error = "summary format version " +
                 std::to_string(Root->getInteger("version").value_or(0)) +
                 ", this check reads version " +
                 std::to_string(SummaryFormatVersion) +
                 " (summaries of another release: compute them again)";
    return Out;
  }
  if (const Array *Functions = Root->getArray("functions"))
    for (const Value &F : *Functions) {
      const Object *O = F.getAsObject();
      std::optional<llvm::StringRef> USR = O ? O->getString("usr") : std::nullopt;
      if (!USR || USR->empty()) {
        Out->Error = "a function entry without a USR";
        continue;
      }
      Out->Functions.emplace_back(USR->str(),
                                  std::make_shared<const Object>(*O));
    }
  if (const Array *Members = Root->getArray("streamMembers"))
    for (const Value &M : *Members) {
      const Object *O = M.getAsObject();
      std::optional<llvm::StringRef> USR = O ? O->getString("usr") : std::nullopt;
      std::optional<llvm::StringRef> Origin =
          O ? O->getString("origin") : std::nullopt;
      if (!USR || USR->empty() || !Origin) {
        Out->Error = "a stream member entry without a USR or an origin";
        continue;
      }
      Out->StreamMembers.emplace_back(USR->str(), streamOriginNamed(*Origin));
    }
  if (const Array *Handles = Root->getArray("handleMembers"))
    for (const Value &M : *Handles) {
      const Object *O = M.getAsObject();
      std::optional<llvm::StringRef> USR = O ? O->getString("usr") : std::nullopt;
      if (!USR || USR->empty()) {
        Out->Error = "a handle member entry without a USR";
        continue;
      }
      Out->HandleMembers.push_back(
          {USR->str(), O->getString("stream").value_or("").str(),
           O->getBoolean("sameObject").value_or(false)});
    }
  Cache[Path] = Out;
  return Out;
}

} // namespace

std::shared_ptr<const SummaryStore>
SummaryStore::load(llvm::ArrayRef<std::string> Paths,
                   llvm::function_ref<void(const std::string &)> Report) {
  auto Store = std::make_shared<SummaryStore>();
  auto Add = [&](const std::string &File) {
    std::shared_ptr<const ParsedFile> P = parseFile(File);
    if (!P->Error.empty())
      Report("summary file '" + File + "': " + P->Error);
    for (const auto &[USR, O] : P->Functions)
      Store->Functions.try_emplace(USR, O);
    for (const auto &[USR, Origin] : P->StreamMembers) {
      auto [It, New] = Store->StreamMembers.try_emplace(USR, Origin);
      if (!New && It->second != Origin)
        It->second = StreamOrigin::Unknown;
    }
    for (const ParsedFile::Handle &H : P->HandleMembers) {
      auto [It, New] = Store->HandleMembers.try_emplace(H.USR, H.Stream);
      if (!New && It->second != H.Stream)
        It->second.clear();
      if (!H.SameObject)
        Store->HandleOtherObject.insert(H.USR);
    }
  };
  for (const std::string &Path : Paths) {
    if (!llvm::sys::fs::is_directory(Path)) {
      if (!llvm::sys::fs::exists(Path))
        Report("summary path '" + Path + "' does not exist");
      else
        Add(Path);
      continue;
    }
    std::vector<std::string> Files;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator I(Path, EC), E; I != E && !EC;
         I.increment(EC))
      if (llvm::sys::path::extension(I->path()) == ".json")
        Files.push_back(I->path());
    if (EC)
      Report("summary directory '" + Path + "': " + EC.message());
    llvm::sort(Files);
    for (const std::string &F : Files)
      Add(F);
  }
  return Store;
}

const Object *SummaryStore::find(llvm::StringRef USR) const {
  auto It = Functions.find(USR);
  return It == Functions.end() ? nullptr : It->second.get();
}

std::optional<StreamOrigin>
SummaryStore::streamMemberOrigin(llvm::StringRef USR) const {
  auto It = StreamMembers.find(USR);
  if (It == StreamMembers.end())
    return std::nullopt;
  return It->second;
}

std::optional<std::string>
SummaryStore::handleMemberStream(llvm::StringRef USR) const {
  auto It = HandleMembers.find(USR);
  if (It == HandleMembers.end())
    return std::nullopt;
  return It->second;
}

bool SummaryStore::leavesCopies(llvm::StringRef USR) const {
  const Object *O = find(USR);
  const Array *Copies = O ? O->getArray("copies") : nullptr;
  return Copies && !Copies->empty();
}

bool SummaryStore::hasEffects(llvm::StringRef USR) const {
  const Object *O = find(USR);
  if (!O)
    return false;
  for (const auto &[Key, V] : *O) {
    if (Key == "usr" || Key == "name" || Key == "params")
      continue;
    if (const Array *A = V.getAsArray(); A && !A->empty())
      return true;
    if (const Object *M = V.getAsObject(); M && !M->empty())
      return true;
    if (V.getAsBoolean().value_or(false))
      return true;
    if (V.getAsInteger().value_or(0) != 0)
      return true;
    if (std::optional<llvm::StringRef> S = V.getAsString(); S && !S->empty())
      return true;
  }
  return false;
}

/// Whether a qualified name (`CM::operator Matrix`, `Buf::operator[]`) is
/// an operator's or a conversion function's: its last component is not an
/// identifier, and may itself hold `::` (`operator Eigen::MatrixXd`).
static bool isOperatorName(llvm::StringRef Qualified) {
  for (size_t At = Qualified.find("operator"); At != llvm::StringRef::npos;
       At = Qualified.find("operator", At + 1)) {
    llvm::StringRef After = Qualified.substr(At + 8);
    if ((At == 0 || Qualified.substr(0, At).ends_with("::")) &&
        (After.empty() || !(llvm::isAlnum(After.front()) || After.front() == '_')))
      return true;
  }
  return false;
}

bool SummaryStore::copiesThroughOperators() const {
  for (const auto &Entry : Functions)
    if (leavesCopies(Entry.getKey()) &&
        isOperatorName(Entry.getValue()->getString("name").value_or("")))
      return true;
  return false;
}

std::vector<std::string> SummaryStore::copyingNames() const {
  std::vector<std::string> Names;
  for (const auto &Entry : Functions) {
    if (!leavesCopies(Entry.getKey()))
      continue;
    llvm::StringRef Name =
        Entry.getValue()->getString("name").value_or("");
    if (isOperatorName(Name))
      continue; // copiesThroughOperators
    Name = Name.rsplit("::").second.empty() ? Name : Name.rsplit("::").second;
    if (!Name.empty())
      Names.push_back(Name.str());
  }
  llvm::sort(Names);
  Names.erase(std::unique(Names.begin(), Names.end()), Names.end());
  return Names;
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

namespace {

/// Variables with global storage and functions of the translation unit,
/// outside function bodies.
class UsrCollector : public RecursiveASTVisitor<UsrCollector> {
public:
  explicit UsrCollector(llvm::StringMap<const ValueDecl *> &Out) : Out(Out) {}
  bool VisitVarDecl(VarDecl *V) {
    if (V->hasGlobalStorage() && !V->isStaticLocal())
      Out.try_emplace(usrOf(V), V);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *F) {
    Out.try_emplace(usrOf(F), F);
    return true;
  }
  bool TraverseStmt(Stmt *) { return true; } // no bodies
private:
  llvm::StringMap<const ValueDecl *> &Out;
};

} // namespace

const ValueDecl *UsrIndex::find(llvm::StringRef USR) {
  if (!Built) {
    Built = true;
    UsrCollector(Decls).TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return Decls.lookup(USR);
}

namespace {

/// Rebuilds one function's summary in the importing unit.
class Importer {
public:
  Importer(const FunctionDecl *FD, UsrIndex &Index) : FD(FD), Index(Index) {}
  std::unique_ptr<HelperSummary> run(const Object &O);

private:
  std::optional<AccessPath> path(const Value *V) const;
  std::optional<StreamRef> stream(const Value *V) const;
  std::optional<HelperSummary::EventRef> event(const Value *V) const;
  std::optional<HelperSummary::EventGuard> guard(const Value &V) const;
  /// An index into [0, Bound), or -1 when V is absent; nullopt when V is
  /// out of range or not an integer.
  std::optional<int> index(const Object &O, llvm::StringRef Key,
                           size_t Bound) const;

  const FunctionDecl *FD;
  UsrIndex &Index;
};

/// The field named Name of record RD or of one of its bases.
const FieldDecl *fieldNamed(const CXXRecordDecl *RD, llvm::StringRef Name) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  RD = RD->getDefinition();
  for (const FieldDecl *F : RD->fields())
    if (F->getName() == Name)
      return F;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const FieldDecl *F =
            fieldNamed(B.getType()->getAsCXXRecordDecl(), Name))
      return F;
  return nullptr;
}

std::optional<AccessPath> Importer::path(const Value *V) const {
  const Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return std::nullopt;
  llvm::StringRef Root = O->getString("root").value_or("");
  AccessPath P;
  const CXXRecordDecl *Record = nullptr;
  if (Root == "this") {
    const auto *M = dyn_cast<CXXMethodDecl>(FD);
    if (!M || M->isStatic())
      return std::nullopt;
    P = AccessPath::ofThis();
    Record = M->getParent();
  } else if (Root == "param") {
    std::optional<int64_t> I = O->getInteger("index");
    if (!I || *I < 0 || *I >= static_cast<int64_t>(FD->getNumParams()))
      return std::nullopt;
    const ParmVarDecl *PD = FD->getParamDecl(static_cast<unsigned>(*I));
    P = AccessPath::ofDecl(PD);
    Record = PD->getType().getNonReferenceType()
                 ->getPointeeOrArrayElementType()->getAsCXXRecordDecl();
  } else if (Root == "global" || Root == "call") {
    const ValueDecl *D = Index.find(O->getString("usr").value_or(""));
    if (Root == "global") {
      const auto *Var = dyn_cast_or_null<VarDecl>(D);
      if (!Var)
        return std::nullopt;
      P = AccessPath::ofDecl(Var);
      Record = Var->getType()->getPointeeOrArrayElementType()
                   ->getAsCXXRecordDecl();
    } else {
      const auto *Callee = dyn_cast_or_null<FunctionDecl>(D);
      const Array *Args = O->getArray("args");
      if (!Callee || !Args)
        return std::nullopt;
      llvm::SmallVector<AccessPath, 4> ArgPaths;
      for (const Value &A : *Args) {
        std::optional<AccessPath> AP = path(&A);
        if (!AP)
          return std::nullopt;
        ArgPaths.push_back(std::move(*AP));
      }
      P = AccessPath::ofCallee(Callee, ArgPaths);
      Record = Callee->getReturnType()->getPointeeOrArrayElementType()
                   ->getAsCXXRecordDecl();
    }
  } else {
    return std::nullopt;
  }
  const Array *Members = O->getArray("members");
  if (!Members)
    return std::nullopt;
  for (const Value &M : *Members) {
    const Array *Step = M.getAsArray();
    if (!Step || Step->size() != 2)
      return std::nullopt;
    std::optional<llvm::StringRef> Name = (*Step)[0].getAsString();
    std::optional<bool> Arrow = (*Step)[1].getAsBoolean();
    const FieldDecl *F = Name && Arrow ? fieldNamed(Record, *Name) : nullptr;
    if (!F)
      return std::nullopt; // the unit does not see that member
    P = P.withMember(F, *Arrow);
    Record = F->getType()->getPointeeOrArrayElementType()->getAsCXXRecordDecl();
  }
  return P;
}

std::optional<StreamRef> Importer::stream(const Value *V) const {
  const Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return std::nullopt;
  llvm::StringRef Kind = O->getString("kind").value_or("");
  StreamRef S;
  if (Kind == "legacy") {
    S.K = StreamRef::Legacy;
  } else if (Kind == "perThread") {
    S.K = StreamRef::PerThread;
  } else if (Kind == "unknown") {
    S.K = StreamRef::Unknown;
  } else if (Kind == "named") {
    std::optional<AccessPath> P = path(O->get("path"));
    if (!P)
      return std::nullopt;
    S.K = StreamRef::Named;
    S.Path = std::move(*P);
    S.Spelling = O->getString("spelling").value_or("").str();
  } else {
    return std::nullopt;
  }
  return S;
}

std::optional<HelperSummary::EventRef> Importer::event(const Value *V) const {
  const Object *O = V ? V->getAsObject() : nullptr;
  std::optional<AccessPath> P = O ? path(O->get("path")) : std::nullopt;
  if (!P)
    return std::nullopt;
  return HelperSummary::EventRef{std::move(*P),
                                 O->getString("spelling").value_or("").str()};
}

std::optional<HelperSummary::EventGuard>
Importer::guard(const Value &V) const {
  const Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  HelperSummary::EventGuard G;
  if (std::optional<int> P = index(*O, "eventParam", FD->getNumParams());
      P && *P >= 0) {
    G.EventParam = *P;
    return G;
  }
  std::optional<HelperSummary::EventRef> E = event(&V);
  if (!E)
    return std::nullopt;
  G.Event = std::move(*E);
  return G;
}

std::optional<int> Importer::index(const Object &O, llvm::StringRef Key,
                                   size_t Bound) const {
  const Value *V = O.get(Key);
  if (!V)
    return -1;
  std::optional<int64_t> I = V->getAsInteger();
  if (!I || *I < 0 || static_cast<size_t>(*I) >= Bound)
    return std::nullopt;
  return static_cast<int>(*I);
}

/// Integers of an array, each in [Lo, Bound); nullopt on anything else.
std::optional<std::vector<int>> integers(const Array *A, int Lo, int Bound) {
  std::vector<int> Out;
  if (!A)
    return Out;
  for (const Value &V : *A) {
    std::optional<int64_t> I = V.getAsInteger();
    if (!I || *I < Lo || *I >= Bound)
      return std::nullopt;
    Out.push_back(static_cast<int>(*I));
  }
  return Out;
}

std::unique_ptr<HelperSummary> Importer::run(const Object &O) {
  const unsigned NP = FD->getNumParams();
  if (O.getInteger("params") != static_cast<int64_t>(NP))
    return nullptr;
  auto S = std::make_unique<HelperSummary>();
  if (O.getBoolean("tooCostly").value_or(false)) {
    S->TooCostly = true;
    return S;
  }
  const int Params = static_cast<int>(NP);
  S->SyncsDevice = O.getBoolean("syncsDevice").value_or(false);
  S->sizeForParams(NP);
  auto Ints = [&](llvm::StringRef Key) {
    return integers(O.getArray(Key), 0, Params);
  };
  std::optional<std::vector<int>> SyncedStreams = Ints("syncsStreamParams"),
                                  IfBlocking =
                                      Ints("syncsStreamParamsIfBlocking"),
                                  SyncedEvents = Ints("syncsEventParams");
  if (!SyncedStreams || !IfBlocking || !SyncedEvents)
    return nullptr;
  for (int P : *SyncedStreams)
    S->SyncsStreamParam[P] = true;
  for (int P : *IfBlocking)
    S->SyncsStreamParamIfBlocking[P] = true;
  for (int P : *SyncedEvents)
    S->SyncsEventParam[P] = true;
  // What names a declaration this unit lacks is dropped, with what rests
  // on it, as in export.
  if (const Array *A = O.getArray("syncsStreams"))
    for (const Value &V : *A)
      if (std::optional<StreamRef> St = stream(&V))
        S->SyncsStreams.push_back(std::move(*St));
  if (const Array *A = O.getArray("syncsEvents"))
    for (const Value &V : *A)
      if (std::optional<HelperSummary::EventRef> E = event(&V))
        S->SyncsEvents.push_back(std::move(*E));
  std::vector<int> RecordIndex;
  if (const Array *A = O.getArray("recordsEvents"))
    for (const Value &V : *A) {
      RecordIndex.push_back(-1);
      const Object *R = V.getAsObject();
      if (!R)
        continue;
      HelperSummary::EventRecord Rec;
      std::optional<int> EP = index(*R, "eventParam", NP),
                         SP = index(*R, "streamParam", NP);
      if (!EP || !SP)
        continue;
      Rec.EventParam = *EP;
      Rec.StreamParam = *SP;
      Rec.SomePaths = R->getBoolean("somePaths").value_or(false);
      if (*EP < 0) {
        std::optional<HelperSummary::EventRef> E = event(R->get("event"));
        if (!E)
          continue;
        Rec.Event = std::move(*E);
      }
      if (*SP < 0) {
        std::optional<StreamRef> St = stream(R->get("stream"));
        if (!St)
          continue;
        Rec.Stream = std::move(*St);
      }
      RecordIndex.back() = static_cast<int>(S->RecordsEvents.size());
      S->RecordsEvents.push_back(std::move(Rec));
    }
  if (const Array *A = O.getArray("accesses"))
    for (const Value &V : *A) {
      const Object *Acc = V.getAsObject();
      std::optional<int> P = Acc ? index(*Acc, "param", NP) : std::nullopt;
      std::optional<std::vector<int>> Unless =
          Acc ? integers(Acc->getArray("unlessSynced"),
                         SummarySeed::PerThreadStream, Params)
              : std::nullopt;
      if (!P || *P < 0 || !Unless)
        return nullptr; // an access is never dropped
      S->AccessedUnlessSynced[*P] = std::move(*Unless);
      if (const Array *G = Acc->getArray("guards"))
        for (const Value &GV : *G)
          if (std::optional<HelperSummary::EventGuard> Gd = guard(GV))
            S->AccessGuards[*P].push_back(std::move(*Gd));
    }
  // Capture streams and the buffers crossed with them: all or none.
  std::vector<StreamRef> Capture;
  bool StreamsNamed = true;
  if (const Array *A = O.getArray("captureStreams"))
    for (const Value &V : *A) {
      std::optional<StreamRef> St = stream(&V);
      if (!St) {
        StreamsNamed = false;
        break;
      }
      Capture.push_back(std::move(*St));
    }
  unsigned Crossed = static_cast<unsigned>(
      O.getInteger("namedBufferStreams").value_or(0));
  std::vector<int> NamedIndex;
  if (StreamsNamed && Crossed <= Capture.size()) {
    S->CaptureStreams = std::move(Capture);
    S->NamedBufferStreams = Crossed;
    if (const Array *A = O.getArray("named"))
      for (const Value &V : *A) {
        NamedIndex.push_back(-1);
        const Object *B = V.getAsObject();
        std::optional<AccessPath> P = B ? path(B->get("path")) : std::nullopt;
        std::optional<std::vector<int>> Unsynced =
            B ? integers(B->getArray("unsynced"), SummarySeed::PerThreadStream,
                         static_cast<int>(S->CaptureStreams.size()))
              : std::nullopt;
        if (!P || !Unsynced)
          continue;
        HelperSummary::NamedBuffer NB;
        NB.Path = std::move(*P);
        NB.Name = B->getString("name").value_or("").str();
        NB.Unsynced = std::move(*Unsynced);
        bool AllGuards = true;
        if (const Array *G = B->getArray("guards"))
          for (const Value &GV : *G) {
            std::optional<HelperSummary::EventGuard> Gd = guard(GV);
            AllGuards = AllGuards && Gd;
            if (Gd)
              NB.Guards.push_back(std::move(*Gd));
          }
        if (!AllGuards)
          continue;
        NamedIndex.back() = static_cast<int>(S->Named.size());
        S->Named.push_back(std::move(NB));
      }
  }
  if (const Array *A = O.getArray("copies"))
    for (const Value &V : *A) {
      const Object *C = V.getAsObject();
      if (!C)
        continue;
      HelperSummary::PendingCopy PC{0, -1, StreamRef{}, nullptr, -1, {}, {}};
      PC.Returned = C->getBoolean("returned").value_or(false);
      PC.Pageable = C->getBoolean("pageable").value_or(false);
      PC.NeedsHostDestination =
          C->getBoolean("needsHostDestination").value_or(false);
      PC.UnlessBlocking = C->getBoolean("unlessBlocking").value_or(false);
      PC.CopyAt = C->getString("at").value_or("").str();
      if (!PC.Returned) {
        std::optional<int> Dst = index(*C, "dst", NP);
        std::optional<int> DstNamed = index(*C, "dstNamed", NamedIndex.size());
        if (Dst && *Dst >= 0)
          PC.DstParam = static_cast<unsigned>(*Dst);
        else if (DstNamed && *DstNamed >= 0 && NamedIndex[*DstNamed] >= 0)
          PC.DstNamed = NamedIndex[*DstNamed];
        else
          continue;
      }
      std::optional<int> SP = index(*C, "streamParam", NP);
      if (!SP)
        continue;
      PC.StreamParam = *SP;
      if (*SP < 0) {
        std::optional<StreamRef> St = stream(C->get("stream"));
        if (!St || St->K == StreamRef::Unknown)
          continue;
        PC.Stream = std::move(*St);
      }
      bool Complete = true;
      if (const Array *Cov = C->getArray("coveredBy"))
        for (const Value &R : *Cov) {
          std::optional<int64_t> I = R.getAsInteger();
          bool Known = I && *I >= 0 &&
                       static_cast<size_t>(*I) < RecordIndex.size() &&
                       RecordIndex[*I] >= 0;
          Complete = Complete && Known;
          if (Known)
            PC.CoveredBy.push_back(static_cast<unsigned>(RecordIndex[*I]));
        }
      if (const Array *J = C->getArray("joinedInto"))
        for (const Value &W : *J) {
          const Object *WO = W.getAsObject();
          std::optional<int> P = WO ? index(*WO, "param", NP) : std::nullopt;
          if (P && *P >= 0) {
            StreamRef Param;
            Param.K = StreamRef::Named;
            Param.Path = AccessPath::ofDecl(FD->getParamDecl(*P));
            PC.JoinedInto.push_back({*P, Param});
          } else if (std::optional<StreamRef> St =
                         WO ? stream(WO->get("stream")) : std::nullopt) {
            PC.JoinedInto.push_back({-1, std::move(*St)});
          } else {
            Complete = false;
          }
        }
      if (Complete)
        S->CopiesLeftPending.push_back(std::move(PC));
    }
  if (const Array *A = O.getArray("produces"))
    for (const Value &V : *A) {
      const Object *P = V.getAsObject();
      std::optional<int> Buf = P ? index(*P, "param", NP) : std::nullopt;
      std::optional<int> SP = P ? index(*P, "streamParam", NP) : std::nullopt;
      llvm::StringRef On = P ? P->getString("on").value_or("") : "";
      if (!Buf || *Buf < 0)
        continue;
      HelperSummary::Production Pr;
      Pr.BufferParam = static_cast<unsigned>(*Buf);
      Pr.Torch = P->getBoolean("torch").value_or(false);
      Pr.IfDevice = P->getBoolean("ifDevice").value_or(false);
      if (On == "param" && SP && *SP >= 0) {
        Pr.On = HelperSummary::Production::OnStreamParam;
        Pr.StreamParam = static_cast<unsigned>(*SP);
      } else if (On == "current") {
        Pr.On = HelperSummary::Production::CurrentStream;
      } else if (On == "legacy") {
        Pr.On = HelperSummary::Production::LegacyStream;
      } else {
        continue;
      }
      S->Produces.push_back(Pr);
    }
  if (const Array *A = O.getArray("consumes"))
    for (const Value &V : *A) {
      const Object *C = V.getAsObject();
      std::optional<int> Buf = C ? index(*C, "param", NP) : std::nullopt;
      std::optional<int> SP = C ? index(*C, "streamParam", NP) : std::nullopt;
      llvm::StringRef On = C ? C->getString("on").value_or("") : "";
      if (!Buf || *Buf < 0 || (On != "param" && On != "legacy") ||
          (On == "param" && (!SP || *SP < 0)))
        continue;
      HelperSummary::Consumption Co;
      Co.BufferParam = static_cast<unsigned>(*Buf);
      Co.OnStreamParam = On == "param";
      Co.StreamParam = Co.OnStreamParam ? static_cast<unsigned>(*SP) : 0;
      Co.Blocking = C->getBoolean("blocking").value_or(false);
      S->Consumes.push_back(Co);
    }
  return S;
}

} // namespace

const Object *variantFor(const Array &Variants, unsigned Param,
                         std::optional<long long> Constant) {
  for (const Value &V : Variants)
    if (const Object *O = V.getAsObject();
        O && O->getInteger("param") == static_cast<int64_t>(Param) &&
        (!Constant ||
         O->getInteger("value") == static_cast<int64_t>(*Constant)))
      return O;
  return nullptr;
}

std::unique_ptr<HelperSummary> importSummary(const Object &O,
                                             const FunctionDecl *FD,
                                             UsrIndex &Index) {
  return Importer(FD, Index).run(O);
}

} // namespace clang::tidy::cuda
