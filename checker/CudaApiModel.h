//===--- CudaApiModel.h - What each modelled CUDA API call does -*- C++ -*-===//
//
// The single source of truth for which calls the check understands: the
// pre-filter matcher in AsyncReadBeforeSyncCheck and the transfer functions
// in AsyncCopyAnalysis both read this table. Adding an API is one row in
// CudaApiModel.cpp plus a lit test.
//
// Every row follows the CUDA Runtime API reference (CUDA 13.0), sections
// "API synchronization behavior" and "Stream synchronization behavior", and
// what docs/semantics.md measured on an H200 where the manual is vague.
// The model also owns the rules that follow from those sections: which
// stream a host sync covers (covers / missFor), the role predicates the
// analysis asks, and the field names of the parameter structs.
//
// May call: AccessPath (a named stream's identity), ExprUtils (stream
// wrapper classes), clang's Decl.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_CUDAAPIMODEL_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_CUDAAPIMODEL_H

#include "AccessPath.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class FunctionDecl;
namespace tidy::cuda {

/// What a modelled call does to the host's view of pending copies.
enum class ApiRole {
  /// An asynchronous copy whose destination may be host memory
  /// (cudaMemcpyAsync and relatives). It is a device-to-host copy when its
  /// cudaMemcpyKind argument is known to be cudaMemcpyDeviceToHost, or
  /// cudaMemcpyDefault with a destination not known to be device memory and a
  /// source not known to be host memory.
  AsyncCopy,
  /// A batch of asynchronous copies (CUDA 12.8+): DstArg is an array of
  /// destinations (cudaMemcpyBatchAsync) or of cudaMemcpy3DBatchOp whose
  /// `dst.op.ptr.ptr` are the destinations (cudaMemcpy3DBatchAsync). Each
  /// destination known to be host memory becomes pending.
  AsyncBatchCopy,
  /// libtorch: `t.to(<CPU>, .., /*non_blocking=*/true)` (the result, a
  /// pinned tensor, is the destination) and `dst.copy_(src, true)`. Both run
  /// on the current CUDA stream. With non_blocking false, a blocking copy
  /// that synchronizes the current stream when its source is on the GPU.
  TorchCopy,
  /// libtorch: `.item()` / `.cpu()` of a CUDA tensor: synchronizes the
  /// current stream.
  TorchBlockingRead,
  /// libtorch: returns the current CUDA stream (getCurrentCUDAStream).
  CurrentStream,
  /// libtorch: returns the device's default stream (getDefaultCUDAStream):
  /// the stream 0 of the device, the legacy default stream (PyTorch is
  /// built without per-thread default streams; per-thread mode, where the
  /// code under check opts in, makes it the per-thread stream as for 0).
  DefaultStream,
  /// libtorch: returns a stream from the pool (getStreamFromPool), which
  /// PyTorch creates with cudaStreamNonBlocking.
  PoolStream,
  /// libtorch: makes its stream argument the current stream, for the rest of
  /// the function (setCurrentCUDAStream) or, for a guard object, of the
  /// enclosing scope (CUDAStreamGuard).
  SetCurrentStream,
  /// Blocks the host until all preceding work on the device has completed
  /// (cudaDeviceSynchronize).
  DeviceSync,
  /// Blocks the host until all work on one stream has completed.
  StreamSync,
  /// Blocks the host until an event has completed.
  EventSync,
  /// Captures the work enqueued so far on a stream into an event.
  EventRecord,
  /// Returns cudaSuccess once a stream's work has completed; a sync only on
  /// the path where the result is known to be cudaSuccess.
  StreamQuery,
  /// Returns cudaSuccess once an event has completed; as StreamQuery.
  EventQuery,
  /// A blocking transfer (cudaMemcpy, cudaMemset, ...): issued on the default
  /// stream and returns after it, so it synchronizes the legacy default
  /// stream (or, in per-thread mode, the per-thread stream).
  BlockingTransfer,
  /// A blocking memset (cudaMemset, cudaMemset2D; DstArg is its target):
  /// stream-ordered work on the default stream that "is asynchronous with
  /// respect to the host except when the target is pinned host memory", when
  /// it is fully synchronous ("API synchronization behavior", Memset). With a
  /// target known pinned it synchronizes the legacy default stream, as
  /// BlockingTransfer; otherwise it is no sync (runtime/cases/
  /// blocking_memset_{device,pinned,pinned_nonblocking}: stale, fresh, stale
  /// on the H200).
  BlockingMemset,
  /// Measured to block the host until the device is idle, but not documented
  /// to (cudaFree "may perform implicit synchronization"; cudaFreeHost
  /// promises nothing). A device-wide sync unless StrictMode is on.
  FreeSync,
  /// Device work that orders on a stream and may use host pointers passed to
  /// it (cudaMemsetAsync, cudaMemPrefetchAsync, host functions, callbacks).
  /// Passing a pending destination to it on the copy's own stream is not a
  /// host access; on another stream it races with the copy.
  StreamOrdered,
  /// Looks like a synchronization but does not block the host
  /// (cudaStreamWaitEvent, cudaStreamDestroy). Recorded only for the note
  /// that explains why a later access is still unsynchronized.
  NotASync,
  /// Allocates or registers pinned (page-locked) host memory.
  PinnedAlloc,
  /// Allocates device memory (for cudaMemcpyDefault's direction).
  DeviceAlloc,
  /// Creates a stream, with flags when FlagsArg is set.
  StreamCreate,
  /// Starts capturing the stream into a graph (cudaStreamBeginCapture):
  /// work issued on it until the matching end is recorded, not run ("Stream
  /// Capture" in the programming guide).
  CaptureBegin,
  /// Ends the capture of the stream (cudaStreamEndCapture); GraphArg is the
  /// `cudaGraph_t *` the captured graph is returned through.
  CaptureEnd,
  /// Instantiates a graph (cudaGraphInstantiate): writes the executable
  /// graph through PtrArg from the graph GraphArg. Host-side: runs no device
  /// work and is no synchronization (runtime/cases/
  /// graph_instantiate_not_sync: stale on the H100).
  GraphInstantiate,
  /// Launches an executable graph (GraphArg) on a stream (StreamArg):
  /// stream-ordered work that returns at once ("Graph Management",
  /// cudaGraphLaunch). The device-to-host copies captured into the graph
  /// run again on that stream (runtime/cases/capture_launch_read: stale).
  GraphLaunch,
};

/// Why a call that looks like a sync does not cover a copy; selects the text
/// of the explanatory note (keep in step with the %select in the check).
enum class MissReason {
  None,
  OtherStream,            ///< synchronizes a different stream
  EventBeforeCopy,        ///< the event was recorded before the copy
  EventOtherStream,       ///< the event was recorded on another stream
  EventNotRecorded,       ///< no record of the event after the copy is visible
  StreamWaitEvent,        ///< cudaStreamWaitEvent orders device work only
  StreamDestroy,          ///< cudaStreamDestroy returns at once
  HostCallback,           ///< a host function does not block the caller
  NonBlockingStream,      ///< legacy-stream sync vs cudaStreamNonBlocking
  PerThreadDefaultStream, ///< stream 0 is the per-thread stream here
  QueryNotChecked,        ///< query result not known to be cudaSuccess
  StrictFree,             ///< cudaFree/cudaFreeHost do not count (strict)
  MemsetNotPinned,        ///< a blocking memset of memory not known pinned
  SomeElements,           ///< a sync of some elements of an array of streams
                          ///< or events, the copy's may be another
  OtherDevice,            ///< a device sync while another device is current
};

/// Which pointer argument an argument index refers to, for PinnedAlloc and
/// DeviceAlloc: either `T **` (cudaMallocHost(&p, n)) or the pointer itself
/// (cudaHostRegister(p, n, flags)).
enum class PtrArgForm { AddressOfPointer, Pointer };

constexpr int NoArg = -1;
/// The implicit object of a member call (`stream.synchronize()`).
constexpr int ObjectArg = -2;

/// Copies described by a struct passed by address.
enum class ParamsStructKind {
  None,
  /// cudaMemcpy3DParms / hipMemcpy3DParms: `dstPtr` (a cudaPitchedPtr,
  /// often from make_cudaPitchedPtr(h, ...)) or `dstPtr.ptr`, and `kind`.
  Runtime3D,
  /// CUDA_MEMCPY2D / CUDA_MEMCPY3D: `dstHost` with `dstMemoryType ==
  /// CU_MEMORYTYPE_HOST` and `srcMemoryType` not host.
  DriverMemcpy,
  /// cudaMemcpy3DBatchOp[]: `ops[i].dst.op.ptr.ptr`.
  Batch3DOps,
};

/// Which API a row belongs to (for the docs and family-specific defaults).
enum class ApiFamily { CudaRuntime, CudaDriver, Hip, Torch, Rmm, Raft, User };

/// One modelled function. Argument indices are 0-based positions in the
/// call; NoArg where the function has no such argument.
struct ApiEntry {
  llvm::StringRef Name;
  ApiRole Role;
  int DstArg = NoArg;    ///< AsyncCopy: destination pointer (bytes)
  int SrcArg = NoArg;    ///< AsyncCopy, BlockingTransfer: source pointer
  int KindArg = NoArg;   ///< AsyncCopy: cudaMemcpyKind
  /// AsyncCopy of one dimension: the byte count, the bytes written from the
  /// destination pointer on (`count` of cudaMemcpyAsync, `ByteCount` of
  /// cuMemcpyDtoHAsync); NoArg where the extent is not one count (2D, 3D,
  /// batches, parameter structs, a project's own rows).
  int SizeArg = NoArg;
  int StreamArg = NoArg; ///< stream the call is ordered on (0 if omitted)
  int EventArg = NoArg;  ///< EventRecord / EventSync / EventQuery
  int PtrArg = NoArg;    ///< PinnedAlloc / DeviceAlloc / StreamCreate /
                         ///< GraphInstantiate
  PtrArgForm PtrForm = PtrArgForm::AddressOfPointer;
  int FlagsArg = NoArg;  ///< StreamCreate: flags (cudaStreamNonBlocking)
  int GraphArg = NoArg;  ///< CaptureEnd / GraphInstantiate / GraphLaunch
  /// Host functions enqueued on a stream (cudaLaunchHostFunc,
  /// cudaStreamAddCallback and their driver API and HIP twins): the pointer
  /// handed to the function. The function runs once the stream's earlier
  /// work completed (CUDA Runtime API, "Stream Management",
  /// cudaLaunchHostFunc: "The function to call once preceding stream
  /// operations are complete"), so a host thread that waits for what the
  /// function does to that object waits for the stream (HostOrdering.cpp).
  int UserDataArg = NoArg;
  /// AsyncCopy / BlockingTransfer without a kind argument: the direction
  /// the function always has (cuMemcpyDtoHAsync: device-to-host;
  /// cuMemcpyAsync: inferred from the pointers, as cudaMemcpyDefault).
  int FixedKind = NoArg;
  /// StreamQuery / EventQuery: returns a bool that is true once complete
  /// (c10::cuda::CUDAStream::query) instead of cudaSuccess.
  bool QueryReturnsBool = false;
  /// An omitted stream argument means the current stream (libtorch), not
  /// the default stream.
  bool OmittedStreamIsCurrent = false;
  /// PoolStream: the pool creates its streams with cudaStreamNonBlocking
  /// (c10's); false: with the default flags, blocking (rmm's
  /// cuda_stream_pool, whose constructor's flags default to
  /// cuda_stream::flags::sync_default).
  bool PoolNonBlocking = true;
  /// AsyncCopy / BlockingTransfer: the destination and direction are
  /// fields of a parameter struct whose address is argument 0.
  ParamsStructKind Struct = ParamsStructKind::None;
  ApiFamily Family = ApiFamily::CudaRuntime;
  MissReason Miss = MissReason::None; ///< NotASync / StreamOrdered note
};

/// Does a role synchronize (or, for queries, may prove complete) the stream
/// given by StreamArg? (StreamSync, StreamQuery.)
bool synchronizesStreamArg(ApiRole R);
/// Does a role synchronize (or may prove complete) the event given by
/// EventArg? (EventSync, EventQuery.)
bool synchronizesEventArg(ApiRole R);
/// A query whose result tells whether work completed (StreamQuery,
/// EventQuery): a sync only where the result is known to be success.
bool isQueryRole(ApiRole R);
/// The roles that issue asynchronous copies into host memory: the calls
/// whose presence makes a callable worth analysing (the check's pre-filter;
/// a callable with a blocking transfer is too, but not its callers: the
/// producer diagnostic's blocking copies are the callable's own).
llvm::ArrayRef<ApiRole> copyRoles();

/// Field names of the parameter structs of ParamsStructKind (CUDA 13.0
/// driver_types.h / cuda.h; the same names in HIP's headers). Empty where a
/// struct has no such field.
struct ParamsStructFields {
  /// The destination pointer: `dstPtr.ptr` (a cudaPitchedPtr member's
  /// pointer) or `dstHost`.
  llvm::StringRef Dst;
  /// A field whose value is a whole struct holding Dst as its first
  /// constructor argument (`dstPtr = make_cudaPitchedPtr(h, ...)`).
  llvm::StringRef DstWhole;
  llvm::StringRef Kind;          ///< cudaMemcpyKind
  llvm::StringRef DstMemoryType; ///< CUmemorytype of the destination
  llvm::StringRef SrcMemoryType; ///< CUmemorytype of the source
  /// Batch3DOps: the member path from an element of the ops array to the
  /// destination pointer, innermost first (`ops[i].dst.op.ptr.ptr`).
  llvm::ArrayRef<llvm::StringLiteral> DstPathInElement;
};
const ParamsStructFields &paramsStructFields(ParamsStructKind K);

/// Values of enum CUmemorytype (cuda.h).
enum MemoryTypeValue : long long {
  MemoryTypeHost = 1,
  MemoryTypeDevice = 2,
  MemoryTypeArray = 3,
  MemoryTypeUnified = 4,
};

/// Values of enum cudaMemcpyKind (driver_types.h).
enum MemcpyKindValue : long long {
  MemcpyHostToHost = 0,
  MemcpyHostToDevice = 1,
  MemcpyDeviceToHost = 2,
  MemcpyDeviceToDevice = 3,
  MemcpyDefault = 4,
};
/// cudaSuccess and cudaErrorNotReady (driver_types.h).
constexpr long long CudaSuccess = 0;
constexpr long long CudaErrorNotReady = 600;
/// cudaStreamNonBlocking (driver_types.h).
constexpr long long StreamNonBlockingFlag = 1;
/// Handle values of cudaStreamLegacy and cudaStreamPerThread.
constexpr long long StreamLegacyHandle = 1;
constexpr long long StreamPerThreadHandle = 2;

/// Which stream a copy or sync refers to ("Stream synchronization
/// behavior": the legacy default stream, the per-thread default stream, a
/// created stream, blocking or not).
struct StreamRef {
  enum Kind {
    Legacy,    ///< 0 / nullptr / cudaStreamLegacy (legacy default stream)
    PerThread, ///< cudaStreamPerThread, or 0 in per-thread mode
    Named,     ///< a variable, member or call; identity by Path
    Unknown,   ///< matches no stream (helper summaries' "any stream")
  } K = Unknown;
  AccessPath Path;       ///< identity, for Named
  /// For Named: which elements of an array of streams it may be (`s[i]`
  /// in a loop over i), where it is one.
  std::optional<ElementRange> Elements;
  std::string Spelling; ///< source text, for notes
  bool NonBlocking = false; ///< created with cudaStreamNonBlocking
  /// Named: a stream this callable created (cudaStreamCreate*,
  /// cuStreamCreate, hipStreamCreate*, c10::cuda::getStreamFromPool) into a
  /// local variable it changes nowhere else (FunctionFacts::isFreshStream):
  /// no other handle the callable holds can name it, unless copied from it.
  bool Fresh = false;
  /// Named: known to be a created stream, never a default stream, whose
  /// value no other stream variable shares unless copied from it: Fresh, or
  /// a member or global every write of which in the translation unit is a
  /// stream creation (StreamOrigins.h). NonBlocking then says how it was
  /// created.
  bool Created = false;
  /// For a Created member or global: that member or global (the same
  /// member of two objects may be one object's stream); for a stream a
  /// lambda captures from the function that created it
  /// (CallerContexts::createdFresh): that function's local, which no other
  /// local of it names.
  const ValueDecl *Origin = nullptr;
  /// Created, of a local object built here that holds its own streams
  /// (FunctionFacts::ownStreamObject): two such objects' streams differ,
  /// though Origin (the member) is the same.
  bool OwnObject = false;
  /// Created, the stream a math library handle holds (heldByHandle): known
  /// only as what its Origin member holds, so a stream of the same Origin
  /// may be it (covers).
  bool ViaHandle = false;
  /// Named, not Created: a stream the callable is handed rather than one it
  /// creates -- a parameter, a member of a parameter or of `this`, a global,
  /// a call's result (`h->get_stream()`, `get_cuda_stream(res)`), or a local
  /// given one of these once (`rocblas_get_stream(h, &s)`) -- and whose
  /// handle the callable does not change. It may be the legacy default
  /// stream, a blocking or a non-blocking stream: a claim on it says so
  /// (claimUnordered).
  bool Supplied = false;
  /// Named: a local or parameter handle to which the callable assigns
  /// another value (`b = a;`, `std::swap(a, b)`, `std::exchange(b, a)`):
  /// at a given point it may hold any stream, so it is not told apart from
  /// any other (covers, unorderedStreams): the check follows no handle's
  /// value through assignments.
  bool Rebound = false;

  bool sameStream(const StreamRef &O) const {
    return K == O.K && (K != Named || Path == O.Path) && K != Unknown;
  }
  /// Equal for the same stream (Unknown streams included), ordered: a key
  /// for maps by stream.
  using Identity = std::pair<Kind, AccessPath>;
  Identity identity() const { return {K, Path}; }
};

/// Every element of the array or container of streams Range, in turn (a
/// range-for over it, `std::for_each` over it): Range's element of unknown
/// index, whose elements are all of Range's.
inline StreamRef everyStreamOf(const AccessPath &Range, std::string Spelling) {
  StreamRef Every;
  Every.K = StreamRef::Named;
  Every.Path = Range.withAnyIndex();
  Every.Spelling = std::move(Spelling);
  ElementRange All;
  All.Array = Range;
  All.Every = true;
  Every.Elements = All;
  return Every;
}

/// Does a host sync of stream Sync complete work on stream Work? The same
/// stream does; the legacy default stream waits for every blocking stream,
/// and the per-thread default stream is blocking. Two named streams that
/// the check cannot tell apart (AccessPath's relate: through pointers,
/// non-constant indices, calls) are taken for the same stream: a warning
/// claims that a copy is in flight, which needs the streams to differ.
/// Elements of one array of streams cover when the sync's elements include
/// every element the work may be on (`for (j < N) sync(s[j])` after
/// `for (i < N) copy(.., s[i])`). Unknown streams cover nothing and are
/// covered by nothing.
bool covers(const StreamRef &Sync, const StreamRef &Work);

/// A stream the legacy default stream's work orders, and waits for
/// ("Stream synchronization behavior"): any known stream not created
/// non-blocking (the per-thread default stream is blocking).
bool isBlockingStream(const StreamRef &S);

/// Does nothing order work issued on stream A with work issued on stream B
/// ("Stream synchronization behavior")? True only where the two are known
/// to be different streams -- each the legacy or the per-thread default
/// stream, or a stream the callable created (StreamRef::Fresh), two created
/// ones being distinct variables, or a Created member of another name --
/// and neither is the legacy default stream with the other a blocking
/// stream (which it waits for and which waits for it). A parameter, member,
/// global or call's stream may be any stream, 0 included: false (see
/// claimUnordered for the claims that name that condition). The producer diagnostic's basis (see Solver::
/// checkProducers): a warning there claims the streams differ.
bool unorderedStreams(const StreamRef &A, const StreamRef &B);

/// The producer diagnostic's claim on two streams A and B (the producer's
/// and the copy's), from "Stream synchronization behavior":
///  - None: they may be ordered, or may be the same stream: no warning;
///  - Certain: unorderedStreams;
///  - the rest are claims that hold unless a stream the callable is handed
///    (StreamRef::Supplied; Subject) is a particular one, said in the
///    warning's note: UnlessLegacyOrBlocking (the other is the legacy
///    default stream, which waits for blocking streams), UnlessDefault (the
///    other is the per-thread default stream: ordered only with the legacy
///    or the per-thread default stream), UnlessSame (the other, Other, is a
///    named stream: ordered if they are the same stream), UnlessSameOrLegacy
///    (the other is a created blocking stream, which the legacy default
///    stream also orders). Two handed streams are claimed only where both
///    are parameters, members of a parameter or of `this`, or globals, of
///    different names (AccessPath's relate: Distinct): a local or a call's
///    result may be a copy of the other that the check does not see.
enum class ClaimKind {
  None,
  Certain,
  UnlessLegacyOrBlocking,
  UnlessDefault,
  UnlessSame,
  UnlessSameOrLegacy,
};
struct StreamClaim {
  ClaimKind K = ClaimKind::None;
  const StreamRef *Subject = nullptr; ///< the handed stream, for Unless*
  const StreamRef *Other = nullptr;   ///< the other stream, for UnlessSame*
};
/// CallerStreams false: only Certain claims (the check's option).
StreamClaim claimUnordered(const StreamRef &A, const StreamRef &B,
                           bool CallerStreams);

/// Why a sync of stream Sync did not cover work on stream Work (for the
/// note): a non-blocking stream, stream 0 meaning the per-thread stream
/// (PerThreadMode), some elements of an array of streams only, or simply
/// another stream.
MissReason missFor(const StreamRef &Sync, const StreamRef &Work,
                   bool PerThreadMode);
/// The note's %0 for missFor's reason: the sync's stream as spelled, or for
/// SomeElements which elements it covers and which the work may be on.
std::string missDetail(const StreamRef &Sync, const StreamRef &Work,
                       MissReason Reason);
/// The same for an event sync of some elements of an array of events.
std::string missDetail(const std::string &SyncSpelling,
                       const ElementRange &Sync, const ElementRange &Work,
                       llvm::StringRef What);

/// Every built-in row: the CUDA runtime API, the CUDA driver API and HIP.
llvm::ArrayRef<ApiEntry> builtinApiTable();

/// The table the check uses: the built-in rows plus functions the user
/// declared through the check's options (their own wrappers). Lookups match
/// a callee by name after dropping the suffixes that per-thread
/// default-stream mode adds (_ptsz, _ptds: cuda_runtime_api.h and cuda.h
/// rename the API with macros) and the driver API's versions (_v2, _v3):
/// built-in rows only for functions declared at global scope (extern "C"
/// or not), user rows by plain or fully qualified name.
class ApiModel {
public:
  /// Rows for user-declared functions; their Name may be qualified
  /// (`ns::copyToHost`). A user row takes precedence over a built-in row.
  explicit ApiModel(std::vector<ApiEntry> UserRows = {});
  ApiModel(const ApiModel &) = delete;
  ApiModel &operator=(const ApiModel &) = delete;

  /// The row for a call's callee, or nullptr.
  const ApiEntry *lookup(const FunctionDecl *Callee) const;

  /// Every name (with per-thread suffixes) of the rows with a role: the
  /// names the check's pre-filter matcher looks for.
  std::vector<std::string> namesWithRole(ApiRole Role) const;

private:
  std::vector<std::unique_ptr<std::string>> UserNames; ///< row name storage
  std::vector<ApiEntry> UserRows;
  llvm::StringMap<const ApiEntry *> User;
};

/// Parses one user-declared row of an option: `name[:ARG[:ARG]]`, where the
/// ARGs are 0-based argument positions in the order the role needs
/// (AsyncCopy: destination, stream; StreamSync: stream; EventRecord: event,
/// stream; EventSync: event; DeviceSync: none). A missing stream means the
/// default stream. The row's Name refers into Text. Returns a message
/// saying what is wrong on malformed input.
llvm::Expected<ApiEntry> parseUserRow(llvm::StringRef Text, ApiRole Role);

/// True when the callee's name carries a per-thread suffix (_ptsz / _ptds),
/// which means the translation unit was compiled in per-thread mode.
bool isPerThreadName(const FunctionDecl *Callee);

/// Functions whose name says they belong to a GPU API (cuda*, cu[A-Z]*,
/// hip*, nccl*, cublas*, ...). Passing a pointer to one of them that the
/// model does not know is neither an access nor a sync: unknown APIs are
/// left alone rather than guessed at. (A function so named whose body the
/// check can read is the project's own helper, and looked through.)
bool isUnmodelledGpuApi(const FunctionDecl *Callee);

} // namespace tidy::cuda
} // namespace clang

#endif
