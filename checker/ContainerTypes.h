//===--- ContainerTypes.h - Containers of host and device memory -*- C++ -*-===//
//
// One concern: which library containers and views hold a buffer, and what
// kind of memory: the standard library's sequences (`v[i]` is an element),
// its containers with std::allocator (pageable), and the device containers
// of rmm, thrust and raft (their data() is a device pointer, their
// iterators name their storage).
//
// May call: ExprUtils (outermostNamespace). Called by ExprUtils
// (bufferRoot), AccessPath, provenance and the effect builders.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_CONTAINERTYPES_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_CONTAINERTYPES_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang::tidy::cuda {

/// std::vector / std::array / std::basic_string / std::deque / std::valarray
/// with std::allocator: pageable storage. A custom allocator may pin it.
bool isStdContainer(QualType T);

/// std::vector / std::array / std::deque / std::span, whatever the
/// allocator: `v[i]` is element i, as `a[i]` of an array is ([sequence.reqmts],
/// operator[]: `*(a.begin() + n)`).
bool isStdSequence(QualType T);
/// `v[i]` of such a container (isStdSequence), or `m[k]` of a std::map or
/// std::unordered_map (the element of key k), or null: the element call.
const CXXOperatorCallExpr *sequenceElement(const Expr *E);
/// `v.front()` of such a container, or null: element 0 ([sequence.reqmts],
/// front(): `*a.begin()`).
const CXXMemberCallExpr *sequenceFront(const Expr *E);

/// Containers and views of device memory (rmm::device_uvector,
/// rmm::device_buffer, rmm::device_scalar, thrust::device_vector; by the
/// outermost namespace, so that versioned inline namespaces such as
/// thrust's match; raft::span<T, true>; an mdspan or mdarray whose accessor
/// is raft::host_device_accessor<P, memory_type::device>, raft's
/// device_mdspan / device_mdarray): their data() / data_handle() is a
/// device pointer.
bool isDeviceContainer(QualType T);

/// raft's owning arrays of host memory: an mdarray whose accessor is
/// host_device_accessor<P, memory_type::host> (make_host_vector,
/// make_host_matrix: pageable, false) or memory_type::pinned
/// (make_pinned_matrix: pinned, true); nullopt for anything else.
std::optional<bool> raftOwnedHostMemoryIsPinned(QualType T);

/// thrust::device_ptr<T>: a device pointer wrapped in a class.
bool isThrustDevicePtr(QualType T);

/// `x.begin()` / `x.end()` (and cbegin / cend) of a device container x
/// (isDeviceContainer): x, whose storage the iterator ranges over, as its
/// data() names it (`thrust::fill(par.on(s), v.begin(), v.end(), 1.f)`
/// writes v); null otherwise.
const Expr *deviceIteratorObject(const Expr *E);

} // namespace clang::tidy::cuda

#endif
