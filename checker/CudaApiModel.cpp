//===--- CudaApiModel.cpp - The table of modelled CUDA runtime calls ------===//

#include "CudaApiModel.h"
#include "ExprUtils.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
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

/// A stream-ordered allocation ("Stream Ordered Memory Allocator", CUDA C++
/// Programming Guide): ordered on its stream only, so not the implicit
/// barrier between streams that cudaMalloc is.
ApiEntry streamOrderedAlloc(llvm::StringRef Name, int Stream) {
  ApiEntry E = alloc(Name, ApiRole::DeviceAlloc);
  E.StreamArg = Stream;
  return E;
}

ApiEntry blocking(llvm::StringRef Name, int Kind) {
  ApiEntry E{Name, ApiRole::BlockingTransfer};
  E.KindArg = Kind;
  return E;
}

/// Rows every family has, with the same argument positions: host
/// callbacks (stream-ordered, do not block the caller: "The host function
/// [...] does not block the calling thread"; handing them the destination
/// on the copy's stream is correct), the stream waiting on an event ("Make a
/// compute stream wait on an event": device work only) and stream
/// destruction ("the function will return immediately").
struct StreamLifecycleNames {
  llvm::StringRef LaunchHostFunc, AddCallback, WaitEvent, Destroy;
};
void appendStreamLifecycle(std::vector<ApiEntry> &T,
                           const StreamLifecycleNames &N) {
  // (fn, userData) / (callback, userData, flags): userData is argument 2.
  for (llvm::StringRef Name : {N.LaunchHostFunc, N.AddCallback}) {
    T.push_back(onStream(Name, ApiRole::StreamOrdered, 0,
                         MissReason::HostCallback));
    T.back().UserDataArg = 2;
  }
  ApiEntry Wait = onStream(N.WaitEvent, ApiRole::NotASync, 0,
                           MissReason::StreamWaitEvent);
  Wait.EventArg = 1;
  T.push_back(Wait);
  T.push_back(onStream(N.Destroy, ApiRole::NotASync, 0,
                       MissReason::StreamDestroy));
}

/// Stream capture's end, graph instantiation and launch ("Graph
/// Management" in the CUDA Runtime API; the driver API's and HIP's twins
/// take the same arguments in the same places): EndCapture(stream,
/// &graph), Instantiate*(&exec, graph, ...), Launch(exec, stream).
void appendGraphs(std::vector<ApiEntry> &T, llvm::StringRef EndCapture,
                  std::initializer_list<llvm::StringRef> Instantiate,
                  llvm::StringRef Launch) {
  ApiEntry End = onStream(EndCapture, ApiRole::CaptureEnd, 0);
  End.GraphArg = 1;
  T.push_back(End);
  for (llvm::StringRef Name : Instantiate) {
    ApiEntry E = alloc(Name, ApiRole::GraphInstantiate);
    E.GraphArg = 1;
    T.push_back(E);
  }
  ApiEntry Run = onStream(Launch, ApiRole::GraphLaunch, 1);
  Run.GraphArg = 0;
  T.push_back(Run);
}

ApiEntry fixedCopy(llvm::StringRef Name, int Dst, int Src, int Kind,
                   int Stream) {
  ApiEntry E = copy(Name, Dst, Src, NoArg, Stream);
  E.FixedKind = Kind;
  return E;
}

/// A row of one dimension whose byte count is argument Size.
ApiEntry counted(ApiEntry E, int Size) {
  E.SizeArg = Size;
  return E;
}

/// A blocking copy whose source pointer is argument Src (bytes): a
/// device-to-host one reads it on the legacy default stream.
ApiEntry blockingFrom(llvm::StringRef Name, int Kind, int Src) {
  ApiEntry E = blocking(Name, Kind);
  E.SrcArg = Src;
  return E;
}

ApiEntry fixedBlocking(llvm::StringRef Name, int Kind) {
  ApiEntry E = blocking(Name, NoArg);
  E.FixedKind = Kind;
  return E;
}

/// The CUDA driver API (cuda.h, "Memory Management", "Stream Management",
/// "Event Management"; the same "API synchronization behavior" as the
/// runtime). Names are matched without their _v2 / _v3 / _ptsz / _ptds
/// suffixes, which cuda.h adds with macros. CUstream is the runtime's
/// cudaStream_t (both are `struct CUstream_st *`).
void appendDriverApi(std::vector<ApiEntry> &Out) {
  std::vector<ApiEntry> T;
  T.push_back(
      counted(fixedCopy("cuMemcpyDtoHAsync", 0, 1, MemcpyDeviceToHost, 3), 2));
  // cuMemcpyAsync: unified addressing infers the direction from the
  // pointers, as cudaMemcpyDefault does.
  T.push_back(counted(fixedCopy("cuMemcpyAsync", 0, 1, MemcpyDefault, 3), 2));
  for (llvm::StringRef Name : {"cuMemcpy2DAsync", "cuMemcpy3DAsync"}) {
    // dstHost / dstMemoryType / srcMemoryType in CUDA_MEMCPY2D / _3D.
    ApiEntry E = copy(Name, NoArg, NoArg, NoArg, 1);
    E.Struct = ParamsStructKind::DriverMemcpy;
    T.push_back(E);
  }
  T.push_back(ApiEntry{"cuCtxSynchronize", ApiRole::DeviceSync});
  T.push_back(onStream("cuStreamSynchronize", ApiRole::StreamSync, 0));
  T.push_back(onEvent("cuEventSynchronize", ApiRole::EventSync, 0));
  T.push_back(onEvent("cuEventRecord", ApiRole::EventRecord, 0, 1));
  T.push_back(onEvent("cuEventRecordWithFlags", ApiRole::EventRecord, 0, 1));
  T.push_back(onStream("cuStreamQuery", ApiRole::StreamQuery, 0));
  T.push_back(onEvent("cuEventQuery", ApiRole::EventQuery, 0));
  {
    ApiEntry E = fixedBlocking("cuMemcpyDtoH", MemcpyDeviceToHost);
    E.SrcArg = 1;
    T.push_back(E);
  }
  T.push_back(fixedBlocking("cuMemcpyHtoD", MemcpyHostToDevice));
  T.push_back(fixedBlocking("cuMemcpy", MemcpyDefault));
  T.push_back(fixedBlocking("cuMemcpyDtoD", MemcpyDeviceToDevice));
  for (llvm::StringRef Name :
       {"cuMemcpy2D", "cuMemcpy2DUnaligned", "cuMemcpy3D"}) {
    ApiEntry E = blocking(Name, NoArg);
    E.Struct = ParamsStructKind::DriverMemcpy;
    T.push_back(E);
  }
  T.push_back(ApiEntry{"cuMemFree", ApiRole::FreeSync});
  T.push_back(ApiEntry{"cuMemFreeHost", ApiRole::FreeSync});
  appendStreamLifecycle(T, {"cuLaunchHostFunc", "cuStreamAddCallback",
                            "cuStreamWaitEvent", "cuStreamDestroy"});
  T.push_back(onStream("cuStreamBeginCapture", ApiRole::CaptureBegin, 0));
  appendGraphs(T, "cuStreamEndCapture",
               {"cuGraphInstantiate", "cuGraphInstantiateWithFlags",
                "cuGraphInstantiateWithParams"},
               "cuGraphLaunch");
  T.push_back(alloc("cuMemAllocHost", ApiRole::PinnedAlloc));
  T.push_back(alloc("cuMemHostAlloc", ApiRole::PinnedAlloc));
  T.push_back(alloc("cuMemHostRegister", ApiRole::PinnedAlloc,
                    PtrArgForm::Pointer));
  T.push_back(alloc("cuMemAlloc", ApiRole::DeviceAlloc));
  T.push_back(alloc("cuMemAllocPitch", ApiRole::DeviceAlloc));
  T.push_back(streamOrderedAlloc("cuMemAllocAsync", 2));
  T.push_back(alloc("cuStreamCreate", ApiRole::StreamCreate,
                    PtrArgForm::AddressOfPointer, 1));
  T.push_back(alloc("cuStreamCreateWithPriority", ApiRole::StreamCreate,
                    PtrArgForm::AddressOfPointer, 1));
  for (ApiEntry &E : T) {
    E.Family = ApiFamily::CudaDriver;
    Out.push_back(E);
  }
}

/// HIP (hip_runtime_api.h, HIP Runtime API reference): the runtime API's
/// twin, with the same enumerator values (hipMemcpyDeviceToHost = 2,
/// hipErrorNotReady = 600, hipStreamNonBlocking = 1). Code that reaches
/// these names through `#define cudaMemcpyAsync hipMemcpyAsync`
/// portability headers is seen as the HIP call it expands to.
void appendHip(std::vector<ApiEntry> &T) {
  auto Hip = [](ApiEntry E) {
    E.Family = ApiFamily::Hip;
    return E;
  };
  T.push_back(Hip(counted(copy("hipMemcpyAsync", 0, 1, 3, 4), 2)));
  T.push_back(Hip(counted(
      fixedCopy("hipMemcpyDtoHAsync", 0, 1, MemcpyDeviceToHost, 3), 2)));
  T.push_back(Hip(copy("hipMemcpy2DAsync", 0, 2, 6, 7)));
  T.push_back(Hip(counted(copy("hipMemcpyFromSymbolAsync", 0, 1, 4, 5), 2)));
  T.push_back(Hip(copy("hipMemcpy2DFromArrayAsync", 0, 2, 7, 8)));
  {
    ApiEntry E = copy("hipMemcpy3DAsync", NoArg, NoArg, NoArg, 1);
    E.Struct = ParamsStructKind::Runtime3D;
    T.push_back(Hip(E));
  }
  T.push_back(Hip(ApiEntry{"hipDeviceSynchronize", ApiRole::DeviceSync}));
  T.push_back(Hip(onStream("hipStreamSynchronize", ApiRole::StreamSync, 0)));
  T.push_back(Hip(onEvent("hipEventSynchronize", ApiRole::EventSync, 0)));
  T.push_back(Hip(onEvent("hipEventRecord", ApiRole::EventRecord, 0, 1)));
  T.push_back(Hip(onStream("hipStreamQuery", ApiRole::StreamQuery, 0)));
  T.push_back(Hip(onEvent("hipEventQuery", ApiRole::EventQuery, 0)));
  T.push_back(Hip(blockingFrom("hipMemcpy", 3, 1)));
  // hipMemcpyWithStream: "copies ... on the specified stream; the function
  // returns once the copy is complete" (synchronous on that stream).
  T.push_back(Hip(onStream("hipMemcpyWithStream", ApiRole::StreamSync, 4)));
  {
    ApiEntry E = fixedBlocking("hipMemcpyDtoH", MemcpyDeviceToHost);
    E.SrcArg = 1;
    T.push_back(Hip(E));
  }
  T.push_back(Hip(fixedBlocking("hipMemcpyHtoD", MemcpyHostToDevice)));
  T.push_back(Hip(blockingFrom("hipMemcpy2D", 6, 2)));
  T.push_back(Hip(blocking("hipMemcpyToSymbol", 4)));
  T.push_back(Hip(blocking("hipMemcpyFromSymbol", 4)));
  T.push_back(Hip(ApiEntry{"hipFree", ApiRole::FreeSync}));
  T.push_back(Hip(ApiEntry{"hipHostFree", ApiRole::FreeSync}));
  T.push_back(Hip(ApiEntry{"hipFreeHost", ApiRole::FreeSync}));
  {
    ApiEntry E = onStream("hipMemsetAsync", ApiRole::StreamOrdered, 3);
    E.DstArg = 0;
    T.push_back(Hip(E));
  }
  {
    std::vector<ApiEntry> Rows;
    appendStreamLifecycle(Rows, {"hipLaunchHostFunc", "hipStreamAddCallback",
                                 "hipStreamWaitEvent", "hipStreamDestroy"});
  T.push_back(
      Hip(onStream("hipStreamBeginCapture", ApiRole::CaptureBegin, 0)));
    appendGraphs(Rows, "hipStreamEndCapture",
                 {"hipGraphInstantiate", "hipGraphInstantiateWithFlags",
                  "hipGraphInstantiateWithParams"},
                 "hipGraphLaunch");
    for (const ApiEntry &E : Rows)
      T.push_back(Hip(E));
  }
  T.push_back(Hip(alloc("hipHostMalloc", ApiRole::PinnedAlloc)));
  T.push_back(Hip(alloc("hipMallocHost", ApiRole::PinnedAlloc)));
  T.push_back(Hip(alloc("hipHostAlloc", ApiRole::PinnedAlloc)));
  T.push_back(Hip(alloc("hipExtHostAlloc", ApiRole::PinnedAlloc)));
  T.push_back(Hip(alloc("hipHostRegister", ApiRole::PinnedAlloc,
                        PtrArgForm::Pointer)));
  T.push_back(Hip(alloc("hipMalloc", ApiRole::DeviceAlloc)));
  T.push_back(Hip(streamOrderedAlloc("hipMallocAsync", 2)));
  T.push_back(Hip(alloc("hipMallocPitch", ApiRole::DeviceAlloc)));
  T.push_back(Hip(alloc("hipStreamCreate", ApiRole::StreamCreate)));
  T.push_back(Hip(alloc("hipStreamCreateWithFlags", ApiRole::StreamCreate,
                        PtrArgForm::AddressOfPointer, 1)));
  T.push_back(Hip(alloc("hipStreamCreateWithPriority", ApiRole::StreamCreate,
                        PtrArgForm::AddressOfPointer, 1)));
}

/// RAPIDS rmm (26.x, rmm/device_scalar.hpp, rmm/device_uvector.hpp): the
/// members documented "@note This function synchronizes `stream`" (they
/// copy one element to the host and call stream.synchronize()). By the
/// class template's qualified name. rmm::cuda_stream_view::synchronize is
/// a stream wrapper's sync (wrapperSync).
void appendRmm(std::vector<ApiEntry> &T) {
  auto Rmm = [](ApiEntry E) {
    E.Family = ApiFamily::Rmm;
    return E;
  };
  T.push_back(Rmm(onStream("rmm::device_scalar::value", ApiRole::StreamSync, 0)));
  T.push_back(
      Rmm(onStream("rmm::device_uvector::element", ApiRole::StreamSync, 1)));
  T.push_back(Rmm(
      onStream("rmm::device_uvector::front_element", ApiRole::StreamSync, 0)));
  T.push_back(Rmm(
      onStream("rmm::device_uvector::back_element", ApiRole::StreamSync, 0)));
  T.push_back(Rmm(
      onStream("rmm::device_uvector::set_element", ApiRole::StreamSync, 2)));
  // rmm/cuda_stream_pool.hpp: a stream the pool created (rmm::cuda_stream,
  // cudaStreamCreateWithFlags with the pool's flags, sync_default unless
  // given): never a default stream. Blocking: the legacy default stream
  // waits for it, the per-thread default stream does not.
  ApiEntry Pool{"rmm::cuda_stream_pool::get_stream", ApiRole::PoolStream};
  Pool.PoolNonBlocking = false;
  T.push_back(Rmm(Pool));
}

/// RAPIDS raft (raft/core/interruptible.hpp, 22.x to 26.x):
/// `raft::interruptible::synchronize(stream)` and `(event)` poll
/// cudaStreamQuery / cudaEventQuery until complete ("Synchronize the CUDA
/// stream, subject to being interrupted"), through a function pointer the
/// check does not follow: a host sync of the argument. It is what
/// `raft::resource::sync_stream(res[, stream])` and `handle.sync_stream()`
/// call. Two overloads of one name, told apart by the argument's type
/// (rows of one name are adjacent; ApiModel::lookup picks the one whose
/// stream or event argument fits).
void appendRaft(std::vector<ApiEntry> &T) {
  auto Raft = [](ApiEntry E) {
    E.Family = ApiFamily::Raft;
    return E;
  };
  T.push_back(Raft(
      onStream("raft::interruptible::synchronize", ApiRole::StreamSync, 0)));
  T.push_back(Raft(
      onEvent("raft::interruptible::synchronize", ApiRole::EventSync, 0)));
}

/// libtorch / ATen (PyTorch 2.x C++ API; the declarations are the same in
/// libtorch 1.13): rows by qualified name. Tensor copies run on the current
/// CUDA stream (c10::cuda::getCurrentCUDAStream), which is the device's
/// default stream unless a CUDAStreamGuard or setCurrentCUDAStream changed
/// it.
void appendTorch(std::vector<ApiEntry> &T) {
  auto Torch = [](ApiEntry E) {
    E.Family = ApiFamily::Torch;
    return E;
  };
  T.push_back(Torch(ApiEntry{"at::Tensor::to", ApiRole::TorchCopy}));
  T.push_back(Torch(ApiEntry{"at::Tensor::copy_", ApiRole::TorchCopy}));
  T.push_back(Torch(ApiEntry{"at::Tensor::item", ApiRole::TorchBlockingRead}));
  T.push_back(Torch(ApiEntry{"at::Tensor::cpu", ApiRole::TorchBlockingRead}));
  T.push_back(Torch(ApiEntry{"torch::cuda::synchronize", ApiRole::DeviceSync}));
  T.push_back(
      Torch(ApiEntry{"c10::cuda::device_synchronize", ApiRole::DeviceSync}));
  for (llvm::StringRef Cls : {"c10::cuda::CUDAStream", "c10::Stream"}) {
    T.push_back(Torch(onStream(Cls.str() == "c10::Stream"
                                   ? "c10::Stream::synchronize"
                                   : "c10::cuda::CUDAStream::synchronize",
                               ApiRole::StreamSync, ObjectArg)));
    ApiEntry Q = onStream(Cls.str() == "c10::Stream"
                              ? "c10::Stream::query"
                              : "c10::cuda::CUDAStream::query",
                          ApiRole::StreamQuery, ObjectArg);
    Q.QueryReturnsBool = true;
    T.push_back(Torch(Q));
  }
  // at::cuda::CUDAEvent: record() on the current stream, or record(stream).
  for (llvm::StringRef Name :
       {"at::cuda::CUDAEvent::record", "at::cuda::CUDAEvent::recordOnce"}) {
    ApiEntry E = onEvent(Name, ApiRole::EventRecord, ObjectArg, 0);
    E.OmittedStreamIsCurrent = true;
    T.push_back(Torch(E));
  }
  T.push_back(Torch(onEvent("at::cuda::CUDAEvent::synchronize",
                            ApiRole::EventSync, ObjectArg)));
  {
    ApiEntry Q = onEvent("at::cuda::CUDAEvent::query", ApiRole::EventQuery,
                         ObjectArg);
    Q.QueryReturnsBool = true;
    T.push_back(Torch(Q));
  }
  {
    // event.block(stream): the stream waits on the device, like
    // cudaStreamWaitEvent.
    ApiEntry E = onStream("at::cuda::CUDAEvent::block", ApiRole::NotASync, 0,
                          MissReason::StreamWaitEvent);
    E.EventArg = ObjectArg;
    T.push_back(Torch(E));
  }
  T.push_back(Torch(ApiEntry{"c10::cuda::getCurrentCUDAStream",
                             ApiRole::CurrentStream}));
  T.push_back(Torch(ApiEntry{"c10::cuda::getStreamFromPool",
                             ApiRole::PoolStream}));
  T.push_back(Torch(ApiEntry{"c10::cuda::getDefaultCUDAStream",
                             ApiRole::DefaultStream}));
  T.push_back(Torch(onStream("c10::cuda::setCurrentCUDAStream",
                             ApiRole::SetCurrentStream, 0)));
  // The guards of c10/cuda/CUDAGuard.h and c10/core/StreamGuard.h: each
  // makes its stream (or, for CUDAMultiStreamGuard, one per device) the
  // current stream until the end of its scope. FunctionFacts::guardStream
  // reads the argument: optionals and lists it cannot read may be any
  // stream.
  for (const char *Guard :
       {"c10::cuda::CUDAStreamGuard::CUDAStreamGuard",
        "c10::cuda::OptionalCUDAStreamGuard::OptionalCUDAStreamGuard",
        "c10::cuda::CUDAMultiStreamGuard::CUDAMultiStreamGuard",
        "c10::StreamGuard::StreamGuard",
        "c10::OptionalStreamGuard::OptionalStreamGuard"})
    T.push_back(Torch(onStream(Guard, ApiRole::SetCurrentStream, 0)));
}

std::vector<ApiEntry> buildTable() {
  std::vector<ApiEntry> T;
  // Asynchronous copies ("Memory Management", CUDA Runtime API 13.0). The
  // destination is a host pointer for a device-to-host copy; all of them
  // return before the DMA completes when that pointer is pinned.
  T.push_back(counted(copy("cudaMemcpyAsync", 0, 1, 3, 4), 2));
  T.push_back(copy("cudaMemcpy2DAsync", 0, 2, 6, 7));
  T.push_back(counted(copy("cudaMemcpyFromSymbolAsync", 0, 1, 4, 5), 2));
  T.push_back(copy("cudaMemcpy2DFromArrayAsync", 0, 2, 7, 8));
  // deprecated
  T.push_back(counted(copy("cudaMemcpyFromArrayAsync", 0, 1, 5, 6), 4));
  {
    // cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t stream):
    // the destination is p->dstPtr.ptr and the kind p->kind.
    ApiEntry E = copy("cudaMemcpy3DAsync", NoArg, NoArg, NoArg, 1);
    E.Struct = ParamsStructKind::Runtime3D;
    T.push_back(E);
  }

  // Batches (CUDA 12.8+; CUDA 13 signatures, no failIdx argument).
  {
    ApiEntry E{"cudaMemcpyBatchAsync", ApiRole::AsyncBatchCopy};
    E.DstArg = 0;
    E.SrcArg = 1;
    E.StreamArg = 7;
    T.push_back(E);
    ApiEntry Ops{"cudaMemcpy3DBatchAsync", ApiRole::AsyncBatchCopy};
    Ops.DstArg = 1;
    Ops.StreamArg = 3;
    Ops.Struct = ParamsStructKind::Batch3DOps;
    T.push_back(Ops);
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
  // stream, which waits for all blocking streams. cudaMemset and
  // cudaMemset2D only where their target is pinned host memory ("Memset").
  T.push_back(blockingFrom("cudaMemcpy", 3, 1));
  T.push_back(blockingFrom("cudaMemcpy2D", 6, 2));
  T.push_back(blocking("cudaMemcpyToSymbol", 4));
  T.push_back(blocking("cudaMemcpyFromSymbol", 4));
  T.push_back(blocking("cudaMemcpy2DToArray", 7));
  T.push_back(blocking("cudaMemcpy2DFromArray", 7));
  T.push_back(blocking("cudaMemcpyToArray", 5));
  T.push_back(blocking("cudaMemcpyFromArray", 5));
  {
    ApiEntry E = blocking("cudaMemcpy3D", NoArg);
    E.Struct = ParamsStructKind::Runtime3D;
    T.push_back(E);
  }

  // Measured to wait for the device (semantics.md); only cudaFree is
  // documented to "perform implicit synchronization", and only "may".
  T.push_back(ApiEntry{"cudaFree", ApiRole::FreeSync});
  T.push_back(ApiEntry{"cudaFreeHost", ApiRole::FreeSync});

  // Stream-ordered work that may touch host memory passed to it.
  {
    // Writes its target (DstArg, bytes): a producer for the copies of it.
    ApiEntry E = onStream("cudaMemsetAsync", ApiRole::StreamOrdered, 3);
    E.DstArg = 0;
    T.push_back(E);
  }
  for (llvm::StringRef Name : {"cudaMemset", "cudaMemset2D"}) {
    ApiEntry E{Name, ApiRole::BlockingMemset};
    E.DstArg = 0;
    E.Miss = MissReason::MemsetNotPinned;
    T.push_back(E);
  }
  T.push_back(onStream("cudaMemcpyToSymbolAsync", ApiRole::StreamOrdered, 5));
  T.push_back(onStream("cudaMemcpyPeerAsync", ApiRole::StreamOrdered, 5));
  // Host callbacks; look like synchronization, are not ("Stream
  // Management").
  appendStreamLifecycle(T, {"cudaLaunchHostFunc", "cudaStreamAddCallback",
                            "cudaStreamWaitEvent", "cudaStreamDestroy"});

  // Stream capture (CUDA Runtime API, "Stream Management"): work issued on
  // a capturing stream is recorded into a graph, not executed.
  T.push_back(onStream("cudaStreamBeginCapture", ApiRole::CaptureBegin, 0));
  T.push_back(
      onStream("cudaStreamBeginCaptureToGraph", ApiRole::CaptureBegin, 0));
  appendGraphs(T, "cudaStreamEndCapture",
               {"cudaGraphInstantiate", "cudaGraphInstantiateWithFlags",
                "cudaGraphInstantiateWithParams"},
               "cudaGraphLaunch");

  // Pinned and device allocations (provenance of copy destinations).
  T.push_back(alloc("cudaMallocHost", ApiRole::PinnedAlloc));
  T.push_back(alloc("cudaHostAlloc", ApiRole::PinnedAlloc));
  T.push_back(alloc("cudaHostRegister", ApiRole::PinnedAlloc,
                    PtrArgForm::Pointer));
  T.push_back(alloc("cudaMalloc", ApiRole::DeviceAlloc));
  T.push_back(streamOrderedAlloc("cudaMallocAsync", 2));
  T.push_back(alloc("cudaMallocPitch", ApiRole::DeviceAlloc));
  T.push_back(streamOrderedAlloc("cudaMallocFromPoolAsync", 3));

  // Streams; cudaStreamNonBlocking streams do not synchronize with the
  // legacy default stream ("Stream synchronization behavior").
  T.push_back(alloc("cudaStreamCreate", ApiRole::StreamCreate));
  T.push_back(alloc("cudaStreamCreateWithFlags", ApiRole::StreamCreate,
                    PtrArgForm::AddressOfPointer, 1));
  T.push_back(alloc("cudaStreamCreateWithPriority", ApiRole::StreamCreate,
                    PtrArgForm::AddressOfPointer, 1));

  appendDriverApi(T);
  appendHip(T);
  appendTorch(T);
  appendRmm(T);
  appendRaft(T);
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
      M.try_emplace(E.Name, &E); // the first of overloaded rows
    return M;
  }();
  return Index;
}

// CUDA (_ptsz, _ptds) and HIP (_spt) per-thread default-stream names.
constexpr llvm::StringLiteral PerThreadSuffixes[] = {"_ptsz", "_ptds", "_spt"};
constexpr llvm::StringLiteral VersionSuffixes[] = {"_v2", "_v3"};

bool isGlobalFunction(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

} // namespace

llvm::ArrayRef<ApiEntry> builtinApiTable() { return table(); }

bool isPerThreadName(const FunctionDecl *Callee) {
  if (!isGlobalFunction(Callee))
    return false;
  llvm::StringRef Name = Callee->getName();
  return llvm::any_of(PerThreadSuffixes,
                      [&](llvm::StringRef S) { return Name.ends_with(S); });
}

ApiModel::ApiModel(std::vector<ApiEntry> Rows) : UserRows(std::move(Rows)) {
  for (ApiEntry &E : UserRows) {
    UserNames.push_back(std::make_unique<std::string>(E.Name.str()));
    E.Name = *UserNames.back();
    User[E.Name] = &E;
  }
}

/// Does a class hold a stream: a stream wrapper (isStreamWrapper), or a
/// class with a member function without parameters that returns a stream
/// handle (`cudaStream_t stream() const`)?
static bool holdsStream(const CXXRecordDecl *R) {
  if (isStreamWrapper(R))
    return true;
  R = R ? R->getDefinition() : nullptr;
  if (!R || R->isInvalidDecl())
    return false;
  for (const CXXMethodDecl *M : R->methods())
    if (!M->isStatic() && M->getNumParams() == 0 &&
        isStreamType(M->getReturnType()))
      return true;
  return false;
}

/// `sv.synchronize()` of a class that holds a stream (holdsStream: rmm's
/// cuda_stream_view, a project's `DeviceStream` with `stream()`) whose
/// definition the check cannot read (compiled elsewhere, as rmm's, or in a
/// system header): a host sync of the object's stream, which covers work on
/// `sv` and on `sv.stream()`. A definition in the user's code is a helper.
static const ApiEntry *wrapperSync(const FunctionDecl *Callee) {
  static const ApiEntry Sync =
      onStream("<stream wrapper>::synchronize", ApiRole::StreamSync, ObjectArg);
  const auto *M = dyn_cast<CXXMethodDecl>(Callee);
  if (!M || M->isStatic() || M->getNumParams() != 0 || !M->getIdentifier() ||
      !llvm::is_contained({"synchronize", "synchronize_no_throw"},
                          M->getName()) ||
      !holdsStream(M->getParent()))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (M->hasBody(Def) && Def &&
      !M->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return nullptr;
  return &Sync;
}

/// Of the adjacent rows named as First is, the one whose stream or event
/// argument has the callee's parameter type (`synchronize(stream)` or
/// `synchronize(event)`); First where the name has one row.
static const ApiEntry *pickOverload(const ApiEntry *First,
                                    const FunctionDecl *Callee) {
  const ApiEntry *End = table().data() + table().size();
  if (First + 1 == End || First[1].Name != First->Name)
    return First;
  auto Fits = [&](int Arg, bool (*Type)(QualType)) {
    return Arg == NoArg || (Arg >= 0 &&
                            static_cast<unsigned>(Arg) < Callee->getNumParams() &&
                            Type(Callee->getParamDecl(Arg)->getType()));
  };
  for (const ApiEntry *E = First; E != End && E->Name == First->Name; ++E)
    if (Fits(E->StreamArg, isStreamOrWrapper) && Fits(E->EventArg, isEventType))
      return E;
  return nullptr;
}

const ApiEntry *ApiModel::lookup(const FunctionDecl *Callee) const {
  // Constructors have no identifier (c10::cuda::CUDAStreamGuard's is a row).
  if (!Callee || (!Callee->getIdentifier() && !isa<CXXConstructorDecl>(Callee)))
    return nullptr;
  if (!User.empty() && Callee->getIdentifier()) {
    // By the qualified name or any tail of it: `io::fetch`, `fetch`,
    // `DeviceStream::synchronize` for ns::DeviceStream::synchronize.
    std::string Qualified = Callee->getQualifiedNameAsString();
    for (llvm::StringRef Tail = Qualified;;) {
      auto It = User.find(Tail);
      if (It != User.end())
        return It->second;
      size_t Sep = Tail.find("::");
      if (Sep == llvm::StringRef::npos)
        break;
      Tail = Tail.drop_front(Sep + 2);
    }
  }
  if (!isGlobalFunction(Callee)) {
    // Library rows (libtorch) by qualified name; cheap test first.
    const DeclContext *Outer = Callee->getDeclContext();
    while (Outer->getParent() && !Outer->getParent()->isTranslationUnit())
      Outer = Outer->getParent();
    const auto *NS = dyn_cast<NamespaceDecl>(Outer);
    if (NS && NS->getIdentifier() &&
        llvm::is_contained({"at", "c10", "torch", "rmm", "raft"},
                           NS->getName())) {
      // A member of a class template by the template's name
      // (rmm::device_scalar::value for rmm::device_scalar<int>::value).
      std::string Name = Callee->getQualifiedNameAsString();
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(
              Callee->getDeclContext()))
        Name = Spec->getSpecializedTemplate()->getQualifiedNameAsString() +
               "::" + Callee->getNameAsString();
      auto It = index().find(Name);
      if (It != index().end())
        return pickOverload(It->second, Callee);
    }
    return wrapperSync(Callee);
  }
  llvm::StringRef Name = Callee->getName();
  for (llvm::StringRef S : PerThreadSuffixes)
    Name.consume_back(S);
  for (llvm::StringRef S : VersionSuffixes)
    Name.consume_back(S);
  auto It = index().find(Name);
  return It == index().end() ? nullptr : It->second;
}

std::vector<std::string> ApiModel::namesWithRole(ApiRole Role) const {
  std::vector<std::string> Names;
  for (const ApiEntry &E : table()) {
    if (E.Role != Role)
      continue;
    for (llvm::StringRef V : {"", "_v2", "_v3"}) {
      Names.push_back((E.Name + V).str());
      for (llvm::StringRef S : PerThreadSuffixes)
        Names.push_back((E.Name + V + S).str());
    }
  }
  for (const ApiEntry &E : UserRows)
    if (E.Role == Role)
      Names.push_back(E.Name.str());
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

//===----------------------------------------------------------------------===//
// Rules that follow from the table's sections
//===----------------------------------------------------------------------===//

bool synchronizesStreamArg(ApiRole R) {
  return R == ApiRole::StreamSync || R == ApiRole::StreamQuery;
}

bool synchronizesEventArg(ApiRole R) {
  return R == ApiRole::EventSync || R == ApiRole::EventQuery;
}

bool isQueryRole(ApiRole R) {
  return R == ApiRole::StreamQuery || R == ApiRole::EventQuery;
}

llvm::ArrayRef<ApiRole> copyRoles() {
  static constexpr ApiRole Roles[] = {ApiRole::AsyncCopy, ApiRole::TorchCopy,
                                      ApiRole::AsyncBatchCopy};
  return Roles;
}

const ParamsStructFields &paramsStructFields(ParamsStructKind K) {
  static constexpr llvm::StringLiteral BatchPath[] = {"ptr", "ptr", "op",
                                                      "dst"};
  static const ParamsStructFields None{};
  static const ParamsStructFields Runtime3D{"dstPtr.ptr", "dstPtr", "kind",
                                            "", "", {}};
  static const ParamsStructFields Driver{
      "dstHost", "", "", "dstMemoryType", "srcMemoryType", {}};
  static const ParamsStructFields Batch{"", "", "", "", "", BatchPath};
  switch (K) {
  case ParamsStructKind::None:
    return None;
  case ParamsStructKind::Runtime3D:
    return Runtime3D;
  case ParamsStructKind::DriverMemcpy:
    return Driver;
  case ParamsStructKind::Batch3DOps:
    return Batch;
  }
  return None;
}

static Coverage namedCoverage(const StreamRef &S, const StreamRef &C) {
  return coverage(S.Path, S.Elements ? &*S.Elements : nullptr, C.Path,
                  C.Elements ? &*C.Elements : nullptr);
}

bool covers(const StreamRef &S, const StreamRef &C) {
  if (S.K == StreamRef::Unknown || C.K == StreamRef::Unknown)
    return false;
  if (S.Rebound || C.Rebound)
    return true;
  // A library handle's stream and another stream of the same origin: the
  // check cannot tell them apart, so it does not claim that they differ.
  if ((S.ViaHandle || C.ViaHandle) && S.Created && C.Created && S.Origin &&
      S.Origin == C.Origin && !S.OwnObject && !C.OwnObject)
    return true;
  if (S.K == StreamRef::Named && C.K == StreamRef::Named)
    return namedCoverage(S, C) == Coverage::Covers;
  if (S.sameStream(C))
    return true;
  if (S.K == StreamRef::Legacy)
    return isBlockingStream(C);
  return false;
}

bool isBlockingStream(const StreamRef &S) {
  return S.K != StreamRef::Unknown && !S.NonBlocking;
}

/// Two created streams that are not the same one: different variables the
/// callable created into, or a Created member or global and another
/// creation (a member of another name: each write of each is its own
/// creation; the same member of two objects may be one object's).
static bool distinctCreated(const StreamRef &A, const StreamRef &B) {
  if (!A.Created || !B.Created ||
      relate(A.Path, B.Path) != PathRelation::Distinct)
    return false;
  return A.Fresh || B.Fresh || A.Origin != B.Origin ||
         (A.OwnObject && B.OwnObject);
}

bool unorderedStreams(const StreamRef &A, const StreamRef &B) {
  if (A.K == StreamRef::Unknown || B.K == StreamRef::Unknown ||
      A.Rebound || B.Rebound || A.sameStream(B))
    return false;
  auto Default = [](const StreamRef &S) { return S.K != StreamRef::Named; };
  if (Default(A) && Default(B))
    return false; // the per-thread default stream waits for the legacy one
  if (!Default(A) && !Default(B))
    return distinctCreated(A, B);
  const StreamRef &D = Default(A) ? A : B, &N = Default(A) ? B : A;
  if (!N.Created)
    return false;
  // The legacy default stream and a blocking stream wait for each other;
  // the per-thread default stream does not wait for created streams.
  return D.K == StreamRef::PerThread || !isBlockingStream(N);
}

/// A handed stream whose name the callable cannot have made a copy of: a
/// parameter, a member of one or of `this`, a global.
static bool handedByName(const StreamRef &S) {
  const AccessPath &P = S.Path;
  if (P.rootKind() == AccessPath::RootKind::This)
    return true;
  const auto *V = dyn_cast_or_null<VarDecl>(P.rootDecl());
  return P.rootKind() == AccessPath::RootKind::Decl && V &&
         (isa<ParmVarDecl>(V) || !V->hasLocalStorage());
}

StreamClaim claimUnordered(const StreamRef &A, const StreamRef &B,
                           bool CallerStreams) {
  StreamClaim C;
  if (unorderedStreams(A, B)) {
    C.K = ClaimKind::Certain;
    return C;
  }
  if (!CallerStreams || A.K == StreamRef::Unknown ||
      B.K == StreamRef::Unknown || A.sameStream(B))
    return C;
  const StreamRef *S = A.Supplied ? &A : B.Supplied ? &B : nullptr;
  if (!S)
    return C;
  const StreamRef &O = S == &A ? B : A;
  C.Subject = S;
  C.Other = &O;
  switch (O.K) {
  case StreamRef::Legacy:
    C.K = ClaimKind::UnlessLegacyOrBlocking;
    break;
  case StreamRef::PerThread:
    C.K = ClaimKind::UnlessDefault;
    break;
  case StreamRef::Named:
    if (relate(S->Path, O.Path) != PathRelation::Distinct)
      break; // may be one handle (`p->s`, `q->s`; `s[i]`, `s[j]`)
    if (O.Supplied && handedByName(*S) && handedByName(O))
      C.K = ClaimKind::UnlessSame;
    else if (O.Created)
      C.K = O.NonBlocking ? ClaimKind::UnlessSame
                          : ClaimKind::UnlessSameOrLegacy;
    break;
  case StreamRef::Unknown:
    break;
  }
  return C;
}

MissReason missFor(const StreamRef &S, const StreamRef &C,
                   bool PerThreadMode) {
  if (S.K == StreamRef::Legacy && C.NonBlocking)
    return MissReason::NonBlockingStream;
  if (S.K == StreamRef::PerThread && PerThreadMode && S.Spelling != "" &&
      C.K != StreamRef::PerThread)
    return MissReason::PerThreadDefaultStream;
  if (S.K == StreamRef::Named && C.K == StreamRef::Named &&
      namedCoverage(S, C) == Coverage::MissesSome)
    return MissReason::SomeElements;
  return MissReason::OtherStream;
}

std::string missDetail(const std::string &SyncSpelling,
                       const ElementRange &Sync, const ElementRange &Work,
                       llvm::StringRef What) {
  bool Stream = What == "stream";
  return (What + " '" + SyncSpelling + "', " + Sync.describe() +
          " of its array, but " +
          (Stream ? "the copy's stream" : "the event recorded after the copy") +
          " may be any of " + Work.describe())
      .str();
}

std::string missDetail(const StreamRef &S, const StreamRef &C,
                       MissReason Reason) {
  if (Reason == MissReason::SomeElements && S.Elements && C.Elements)
    return missDetail(S.Spelling, *S.Elements, *C.Elements, "stream");
  return S.Spelling;
}

} // namespace clang::tidy::cuda
