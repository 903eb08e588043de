//===--- UserApiRows.cpp - Rows the user declares through options --------===//
//
// One concern: parseUserRow (declared in CudaApiModel.h), which turns one
// entry of a user-declared list option (`AsyncCopyFunctions`,
// `StreamSyncFunctions`, ...: `name:positions`) into a row of the model, or
// an error that says what is wrong with it. The table of built-in rows and
// the lookup are CudaApiModel.cpp's.
//
// May call: CudaApiModel.h's types, LLVM's string utilities.
//
//===----------------------------------------------------------------------===//

#include "CudaApiModel.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"

namespace clang::tidy::cuda {

llvm::Expected<ApiEntry> parseUserRow(llvm::StringRef Text, ApiRole Role) {
  auto Fail = [&](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'" + Text + "': " + Why);
  };
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.trim().split(Parts, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  // A qualified name (ns::f) splits into empty parts around "::": rejoin.
  llvm::SmallVector<llvm::StringRef, 4> Fields;
  size_t I = 0;
  const char *NameBegin = Parts.empty() ? nullptr : Parts[0].data();
  const char *NameEnd = NameBegin;
  while (I < Parts.size()) {
    NameEnd = Parts[I].data() + Parts[I].size();
    if (I + 2 < Parts.size() && Parts[I + 1].empty() &&
        !Parts[I + 2].empty() && !llvm::isDigit(Parts[I + 2].front())) {
      I += 2;
      continue;
    }
    ++I;
    break;
  }
  llvm::StringRef Name(NameBegin, NameEnd - NameBegin);
  Name.consume_front("::"); // a fully qualified name: ::io::fetch
  for (; I < Parts.size(); ++I)
    Fields.push_back(Parts[I].trim());
  if (Name.empty() || !llvm::all_of(Name, [](char C) {
        return llvm::isAlnum(C) || C == '_' || C == ':';
      }))
    return Fail("expected a function name");
  unsigned Required = 0, Allowed = 0;
  switch (Role) {
  case ApiRole::AsyncCopy: Required = 1; Allowed = 2; break;  // dst[:stream]
  case ApiRole::StreamSync: Required = 1; Allowed = 1; break; // stream
  case ApiRole::EventRecord: Required = 1; Allowed = 2; break; // event[:stream]
  case ApiRole::EventSync: Required = 1; Allowed = 1; break;  // event
  case ApiRole::DeviceSync: Required = 0; Allowed = 0; break;
  default:
    return Fail("this role cannot be declared");
  }
  if (Fields.size() < Required || Fields.size() > Allowed)
    return Fail("expected " + llvm::Twine(Required) +
                (Allowed > Required ? " or " + llvm::Twine(Allowed) : "") +
                " argument position(s) after the name");
  llvm::SmallVector<int, 2> Pos;
  for (llvm::StringRef F : Fields) {
    unsigned V;
    // `this`: the object of a member function (a wrapper's synchronize()).
    if (F == "this" && !(Role == ApiRole::AsyncCopy && Pos.empty())) {
      Pos.push_back(ObjectArg);
      continue;
    }
    if (F.getAsInteger(10, V) || V > 64)
      return Fail("'" + F + "' is not an argument position (0, 1, ...)" +
                  (F == "this" ? llvm::Twine(" here") : llvm::Twine("")));
    Pos.push_back(static_cast<int>(V));
  }
  ApiEntry E{Name, Role};
  E.Family = ApiFamily::User;
  switch (Role) {
  case ApiRole::AsyncCopy:
    E.DstArg = Pos[0];
    E.FixedKind = MemcpyDeviceToHost;
    E.StreamArg = Pos.size() > 1 ? Pos[1] : NoArg;
    break;
  case ApiRole::StreamSync:
    E.StreamArg = Pos[0];
    break;
  case ApiRole::EventRecord:
    E.EventArg = Pos[0];
    E.StreamArg = Pos.size() > 1 ? Pos[1] : NoArg;
    break;
  case ApiRole::EventSync:
    E.EventArg = Pos[0];
    break;
  default:
    break;
  }
  return E;
}

} // namespace clang::tidy::cuda
