//===--- LibraryProducers.h - Library calls that write device buffers -*- C++ -*-===//
//
// One concern: the producer diagnostic's table of library algorithms --
// calls whose bodies the check does not follow (the toolchain's, or
// compiled elsewhere) that launch device work writing some of their
// arguments on a stream argument:
//  - CUB's device-wide primitives (`cub::DeviceReduce::Sum`,
//    `cub::DeviceSelect::Flagged`, `cub::DeviceRadixSort::SortPairs`, ...)
//    and hipCUB's: static members of a `Device*` class of namespace cub or
//    hipcub. CUB's documentation: each output is a parameter `d_*out*`
//    (`d_out`, `d_keys_out`, `d_num_selected_out`, ...) and "stream:
//    [optional] CUDA stream to launch kernels within. Default is stream 0";
//  - rocPRIM's device-level algorithms (`rocprim::reduce`,
//    `rocprim::run_length_encode`, ...): free functions of namespace
//    rocprim, outputs named `output` or `*_output`, the stream `stream`
//    (default 0);
//  - NCCL's collectives and receives (`ncclAllReduce`, `ncclBroadcast`,
//    `ncclRecv`, ...): the output `recvbuff`, on `stream` (nccl.h).
// Outputs and the stream are found by the declaration's parameter names,
// so that every algorithm and overload of these libraries is covered by one
// row each. A call whose temporary-storage argument is a null pointer
// constant is CUB's and rocPRIM's size query: "no work is done" (both
// libraries' documentation): not a producer;
//  - thrust algorithms given a CUDA execution policy (thrustCall below);
//  - cuBLAS, hipBLAS, rocBLAS, cuSOLVER (dense), hipSOLVER, rocSOLVER,
//    cuSPARSE, hipSPARSE and rocSPARSE routines and cuFFT's and hipFFT's
//    executions, which run on the stream their handle was last given
//    (handleRoutine below); the generic sparse API's dense outputs through
//    their descriptors' values (descriptorBinding).
// Not covered (no claim): batched routines (outputs through pointer
// arrays), cuSOLVER's 64-bit API and routines with host outputs (they may
// wait for their work), cuSOLVER's sparse and refactorization APIs, sparse
// outputs of the generic API (SpGEMM's matC).
//
// May call: ExprUtils, clang's AST. Read by ProducerEffects (EffectBuilder)
// and StreamOrdering (opaqueCallMayOrder).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_LIBRARYPRODUCERS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_LIBRARYPRODUCERS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::cuda {

/// What a library call writes: its output arguments (by position in the
/// call) on its stream argument (StreamArg; the omitted stream is a
/// CXXDefaultArgExpr, stream 0, at that position).
struct LibraryProduction {
  llvm::SmallVector<unsigned, 3> Outputs;
  unsigned StreamArg = 0;
};

/// The production of call C of Callee when Callee is one of the table's
/// (see the file comment); nullopt otherwise, for a size query, and for a
/// call whose stream parameter is not among its arguments.
std::optional<LibraryProduction> libraryProduction(const CallExpr *C,
                                                   const FunctionDecl *Callee,
                                                   const ASTContext &Ctx);

/// A call of the table's libraries whose whole effect is stream-ordered
/// device work on its stream argument, or none: a production, or CUB's or
/// rocPRIM's size query. Such a call neither synchronizes the host nor
/// orders one stream after another (its work on stream 0 is legacy-stream
/// work, which the caller adds), so it is no barrier of the producer
/// diagnostic (opaqueCallMayOrder). NCCL's other functions (communicator
/// set-up, which allocates) are not.
bool isStreamOrderedLibraryCall(const CallExpr *C, const FunctionDecl *Callee,
                                const ASTContext &Ctx);

/// A thrust algorithm called with a CUDA execution policy as its first
/// argument (Thrust's CUDA backend, thrust/system/cuda/detail/par.h):
/// `thrust::cuda::par`, `thrust::device`, `par.on(s)`, and policies derived
/// from `execute_on_stream_base` (rmm::exec_policy(s)) perform the
/// algorithm's "optional synchronization" of the policy's stream before
/// returning; `par_nosync`, `par_nosync.on(s)` and policies derived from
/// `execute_on_stream_nosync_base` (rmm::exec_policy_nosync(s)) do not:
/// "algorithms may return before the corresponding kernels are completed".
struct ThrustCall {
  const Expr *Policy = nullptr; ///< the policy argument
  bool Synchronizes = true;
  /// The arguments it writes, for the algorithms whose result the host
  /// computes without reading the device (copy, transform, fill, sort,
  /// scans, gather, scatter, ...; not copy_if, unique, reduce_by_key ...,
  /// which read a count back and so wait for their kernels): `result`, or
  /// the range an in-place algorithm changes (`first`, `keys_first`,
  /// `values_first`). Empty for other algorithms.
  llvm::SmallVector<unsigned, 2> Outputs;
};
/// nullopt when Callee is not a thrust function, or its first parameter is
/// not a CUDA execution policy of a known kind.
std::optional<ThrustCall> thrustCall(const CallExpr *C,
                                     const FunctionDecl *Callee);

/// A routine of a math library that runs its device work on the stream
/// its handle holds: "cublasSetStream ... sets the cuBLAS library stream,
/// which will be used to execute all subsequent calls to the cuBLAS library
/// functions. If the cuBLAS library stream is not set, all kernels use the
/// default NULL stream" (cuBLAS, "cublasSetStream()"); hipBLAS and rocBLAS
/// (`hipblasSetStream`, `rocblas_set_stream`; rocSOLVER's routines take a
/// rocblas_handle), cuSOLVER's dense API (`cusolverDnSetStream`; "The
/// cuSolver library functions prefer to keep asynchronous execution as much
/// as possible", cuSOLVER, "Asynchronous Execution" -- not always: gesvd and
/// syevd were measured to wait for their work, so only the families
/// measured not to are routines here: getrf, getrs, potrf, geqrf, ormqr /
/// unmqr) and hipSOLVER,
/// cuSPARSE (`cusparseSetStream`), hipSPARSE and rocSPARSE, cuFFT
/// (`cufftSetStream`: "Associates a CUDA stream with a cuFFT plan") and
/// hipFFT (`hipfftSetStream`). Outputs: a routine's pointers to non-const
/// data (`y` of `cublasScopy`, `C` of `cublasSgemm`, `A`, `devIpiv` and
/// `devInfo` of `cusolverDnSgetrf`, `cooRowInd` of `cusparseXcsr2coo`),
/// cuFFT's and hipFFT's `odata`; not a pointer to an opaque type (a
/// descriptor, cuSOLVER's params and info objects). Descriptors: the
/// sparse libraries' generic API writes a dense vector or matrix through
/// its non-const descriptor (`vecY` of `cusparseSpMV`, `matC` of
/// `cusparseSpMM`), whose values are the buffer it was created with
/// (descriptorBinding). Not routines (nullopt, an opaque call): one that
/// may write host memory and so wait for its own work (a `result`, an
/// `h_*` output, a host workspace or size: writesHost), size queries
/// (`*_bufferSize`), sparsity counts (`*nnz*`), batched routines (outputs
/// through arrays of pointers). The handle is argument 0 of every routine.
struct HandleRoutine {
  llvm::SmallVector<unsigned, 2> Outputs;
  /// Arguments that are dense descriptors the routine writes through.
  llvm::SmallVector<unsigned, 1> Descriptors;
};
std::optional<HandleRoutine> handleRoutine(const CallExpr *C,
                                           const FunctionDecl *Callee);
/// A dense descriptor of the sparse libraries' generic API given its
/// values: `cusparseCreateDnVec(&d, size, values, type)`,
/// `cusparseCreateDnMat(&d, rows, cols, ld, values, type, order)`,
/// `cusparseDnVecSetValues(d, values)`, `cusparseDnMatSetValues(d,
/// values)`, and hipSPARSE's and rocSPARSE's kin (argument 0 is the
/// descriptor or its address, the parameter named `values` the buffer).
/// nullopt for any other call.
struct DescriptorBinding {
  const Expr *Descriptor = nullptr; ///< the descriptor (not its address)
  const Expr *Values = nullptr;
};
std::optional<DescriptorBinding> descriptorBinding(const CallExpr *C,
                                                   const FunctionDecl *Callee);
/// A math library's handle type (cublasHandle_t, cusolverDnHandle_t,
/// cusparseHandle_t, cufftHandle, hipBLAS's, rocBLAS's, hipSOLVER's,
/// hipSPARSE's, rocSPARSE's, hipFFT's), or an array of them, as written
/// (through typedefs of it).
bool isLibraryHandleType(QualType T);
/// A function of such a library taking its handle first (a routine, a
/// setter, a getter, cublasDestroy): it does not give the handle another
/// stream, except a setter.
bool isHandleLibraryCall(const FunctionDecl *Callee);
/// cublasSetStream(handle, stream) and its kin: handle argument 0, stream
/// argument 1.
bool isHandleStreamSetter(const FunctionDecl *Callee);
/// cublasGetStream(handle, &stream) and its kin (cuBLAS, hipBLAS, rocBLAS,
/// cuSOLVER, hipSOLVER, cuSPARSE, hipSPARSE, rocSPARSE: each library's
/// "GetStream" / "get_stream"): the stream the handle holds, written to
/// argument 1; handle argument 0.
bool isHandleStreamGetter(const FunctionDecl *Callee);
/// cublasCreate(&handle), cufftPlan1d(&plan, ...) and their kin: argument 0
/// points to the new handle, whose stream is the legacy default stream.
bool isHandleCreation(const FunctionDecl *Callee);

/// The stream a thrust CUDA policy expression names: the argument of
/// `.on(s)`, or of the policy's constructor (`rmm::exec_policy(s)`); null
/// with *Default set for `par`, `par_nosync` or `thrust::device` alone
/// (Thrust's default stream: the legacy default stream, or the per-thread
/// one under CUDA_API_PER_THREAD_DEFAULT_STREAM); null otherwise.
const Expr *thrustPolicyStream(const Expr *Policy, bool *Default);

} // namespace clang::tidy::cuda

#endif
