//===--- CudaApiModel.cpp - The table of modelled CUDA runtime calls ------===//

#include "CudaApiModel.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/StringMap.h"

namespace clang::tidy::cuda {
namespace {

ApiEntry copy(llvm::StringRef Name, int Dst, int Src, int Kind, int Stream) {
  ApiEntry E{Name, ApiRole::AsyncCopy};
  E.DstArg = Dst;
  E.SrcArg = Src;
  E.KindArg = Kind;
  E.StreamArg = Stream;
  return E;
}

ApiEntry onStream(llvm::StringRef Name, ApiRole Role, int Stream,
                  MissReason Miss = MissReason::None) {
  ApiEntry E{Name, Role};
  E.StreamArg = Stream;
  E.Miss = Miss;
  return E;
}

ApiEntry onEvent(llvm::StringRef Name, ApiRole Role, int Event,
                 int Stream = NoArg) {
  ApiEntry E{Name, Role};
  E.EventArg = Event;
  E.StreamArg = Stream;
  return E;
}

ApiEntry alloc(llvm::StringRef Name, ApiRole Role,
               PtrArgForm Form = PtrArgForm::AddressOfPointer,
               int Flags = NoArg) {
  ApiEntry E{Name, Role};
  E.PtrArg = 0;
  E.PtrForm = Form;
  E.FlagsArg = Flags;
  return E;
}

ApiEntry blocking(llvm::StringRef Name, int Kind) {
  ApiEntry E{Name, ApiRole::BlockingTransfer};
  E.KindArg = Kind;
  return E;
}

std::vector<ApiEntry> buildTable() {
  std::vector<ApiEntry> T;
  // Asynchronous copies ("Memory Management", CUDA Runtime API 13.0). The
  // destination is a host pointer for a device-to-host copy; all of them
  // return before the DMA completes when that pointer is pinned.
  T.push_back(copy("cudaMemcpyAsync", 0, 1, 3, 4));
  T.push_back(copy("cudaMemcpy2DAsync", 0, 2, 6, 7));
  T.push_back(copy("cudaMemcpyFromSymbolAsync", 0, 1, 4, 5));
  T.push_back(copy("cudaMemcpy2DFromArrayAsync", 0, 2, 7, 8));
  T.push_back(copy("cudaMemcpyFromArrayAsync", 0, 1, 5, 6)); // deprecated
  {
    // cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t stream):
    // the destination is p->dstPtr.ptr and the kind p->kind.
    ApiEntry E = copy("cudaMemcpy3DAsync", NoArg, NoArg, NoArg, 1);
    E.ParamsStruct = true;
    T.push_back(E);
  }

  // Host-blocking synchronization ("Device Management", "Stream Management",
  // "Event Management").
  T.push_back(ApiEntry{"cudaDeviceSynchronize", ApiRole::DeviceSync});
  T.push_back(ApiEntry{"cudaThreadSynchronize", ApiRole::DeviceSync});
  T.push_back(onStream("cudaStreamSynchronize", ApiRole::StreamSync, 0));
  T.push_back(onEvent("cudaEventSynchronize", ApiRole::EventSync, 0));
  T.push_back(onEvent("cudaEventRecord", ApiRole::EventRecord, 0, 1));
  T.push_back(onEvent("cudaEventRecordWithFlags", ApiRole::EventRecord, 0, 1));
  // cudaStreamQuery / cudaEventQuery: "Returns cudaSuccess if all operations
  // in the stream have completed, or cudaErrorNotReady if not."
  T.push_back(onStream("cudaStreamQuery", ApiRole::StreamQuery, 0));
  T.push_back(onEvent("cudaEventQuery", ApiRole::EventQuery, 0));

  // "API synchronization behavior", Memcpy: the synchronous functions return
  // once the copy has completed, except device-to-device copies, which
  // perform no host-side synchronization. They run on the legacy default
  // stream, which waits for all blocking streams. cudaMemset is
  // deliberately absent: the manual says it is asynchronous with respect to
  // the host unless its target is pinned host memory.
  T.push_back(blocking("cudaMemcpy", 3));
  T.push_back(blocking("cudaMemcpy2D", 6));
  T.push_back(blocking("cudaMemcpyToSymbol", 4));
  T.push_back(blocking("cudaMemcpyFromSymbol", 4));
  T.push_back(blocking("cudaMemcpy2DToArray", 7));
  T.push_back(blocking("cudaMemcpy2DFromArray", 7));
  T.push_back(blocking("cudaMemcpyToArray", 5));
  T.push_back(blocking("cudaMemcpyFromArray", 5));
  {
    ApiEntry E = blocking("cudaMemcpy3D", NoArg);
    E.ParamsStruct = true;
    T.push_back(E);
  }

  // Measured to wait for the device (semantics.md); only cudaFree is
  // documented to "perform implicit synchronization", and only "may".
  T.push_back(ApiEntry{"cudaFree", ApiRole::FreeSync});
  T.push_back(ApiEntry{"cudaFreeHost", ApiRole::FreeSync});

  // Stream-ordered work that may touch host memory passed to it.
  T.push_back(onStream("cudaMemsetAsync", ApiRole::StreamOrdered, 3));
  T.push_back(onStream("cudaMemset", ApiRole::StreamOrdered, NoArg));
  T.push_back(onStream("cudaMemcpyToSymbolAsync", ApiRole::StreamOrdered, 5));
  T.push_back(onStream("cudaMemcpyPeerAsync", ApiRole::StreamOrdered, 5));
  // cudaLaunchHostFunc: "The host function [...] does not block the calling
  // thread"; it runs after the stream's earlier work, so handing it the
  // destination on the copy's stream is correct.
  T.push_back(onStream("cudaLaunchHostFunc", ApiRole::StreamOrdered, 0,
                       MissReason::HostCallback));
  T.push_back(onStream("cudaStreamAddCallback", ApiRole::StreamOrdered, 0,
                       MissReason::HostCallback));

  // Look like synchronization, are not ("Stream Management").
  {
    // cudaStreamWaitEvent: "Make a compute stream wait on an event": device
    // work only, the host does not wait.
    ApiEntry E = onStream("cudaStreamWaitEvent", ApiRole::NotASync, 0,
                          MissReason::StreamWaitEvent);
    E.EventArg = 1;
    T.push_back(E);
  }
  // cudaStreamDestroy: "the function will return immediately".
  T.push_back(onStream("cudaStreamDestroy", ApiRole::NotASync, 0,
                       MissReason::StreamDestroy));

  // Pinned and device allocations (provenance of copy destinations).
  T.push_back(alloc("cudaMallocHost", ApiRole::PinnedAlloc));
  T.push_back(alloc("cudaHostAlloc", ApiRole::PinnedAlloc));
  T.push_back(alloc("cudaHostRegister", ApiRole::PinnedAlloc,
                    PtrArgForm::Pointer));
  T.push_back(alloc("cudaMalloc", ApiRole::DeviceAlloc));
  T.push_back(alloc("cudaMallocAsync", ApiRole::DeviceAlloc));
  T.push_back(alloc("cudaMallocPitch", ApiRole::DeviceAlloc));
  T.push_back(alloc("cudaMallocFromPoolAsync", ApiRole::DeviceAlloc));

  // Streams; cudaStreamNonBlocking streams do not synchronize with the
  // legacy default stream ("Stream synchronization behavior").
  T.push_back(alloc("cudaStreamCreate", ApiRole::StreamCreate));
  T.push_back(alloc("cudaStreamCreateWithFlags", ApiRole::StreamCreate,
                    PtrArgForm::AddressOfPointer, 1));
  T.push_back(alloc("cudaStreamCreateWithPriority", ApiRole::StreamCreate,
                    PtrArgForm::AddressOfPointer, 1));
  return T;
}

const std::vector<ApiEntry> &table() {
  static const std::vector<ApiEntry> T = buildTable();
  return T;
}

const llvm::StringMap<const ApiEntry *> &index() {
  static const llvm::StringMap<const ApiEntry *> Index = [] {
    llvm::StringMap<const ApiEntry *> M;
    for (const ApiEntry &E : table())
      M[E.Name] = &E;
    return M;
  }();
  return Index;
}

constexpr llvm::StringLiteral PerThreadSuffixes[] = {"_ptsz", "_ptds"};

bool isGlobalFunction(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

} // namespace

llvm::ArrayRef<ApiEntry> apiTable() { return table(); }

bool isPerThreadName(const FunctionDecl *Callee) {
  if (!isGlobalFunction(Callee))
    return false;
  llvm::StringRef Name = Callee->getName();
  return llvm::any_of(PerThreadSuffixes,
                      [&](llvm::StringRef S) { return Name.ends_with(S); });
}

const ApiEntry *lookupApi(const FunctionDecl *Callee) {
  if (!isGlobalFunction(Callee))
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  for (llvm::StringRef S : PerThreadSuffixes)
    Name.consume_back(S);
  auto It = index().find(Name);
  return It == index().end() ? nullptr : It->second;
}

std::vector<std::string> namesWithRole(ApiRole Role) {
  std::vector<std::string> Names;
  for (const ApiEntry &E : table()) {
    if (E.Role != Role)
      continue;
    Names.push_back(E.Name.str());
    for (llvm::StringRef S : PerThreadSuffixes)
      Names.push_back((E.Name + S).str());
  }
  return Names;
}

bool isUnmodelledGpuApi(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  if (Name.size() > 2 && Name.starts_with("cu") && llvm::isUpper(Name[2]))
    return true; // driver API: cuMemcpyDtoHAsync, cuStreamSynchronize, ...
  for (llvm::StringRef Prefix : {"cuda", "__cuda", "hip", "nccl", "cublas",
                                 "cufft", "cusparse", "curand", "cusolver",
                                 "cudnn", "nvtx"})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

} // namespace clang::tidy::cuda
