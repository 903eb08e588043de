//===--- LibraryCode.h - Whose function bodies the check follows -*- C++ -*-===//
//
// One concern: which code is the toolchain's, whose bodies the check never
// follows, and which is the project's or a library's, whose bodies it
// follows (summaries, stream ordering, provenance) and, at the top level,
// walks for the callables to analyse.
//
// CMake hands an imported library's include directories to the compiler as
// -isystem, so "in a system header" does not mean "not the project's
// concern": raft's copy wrappers (raft::copy, raft::update_host) and rmm's
// containers' element access are inline code in system headers that leave
// copies in flight or synchronize. The toolchain is what the check's model
// names by API (CudaApiModel, TorchModel) or what never touches a stream:
//  - the C and C++ standard libraries and every implementation-reserved
//    namespace (std, __gnu_cxx, __cxxabiv1, `__x`, `_X`);
//  - the CUDA toolkit: the runtime's inline wrappers and clang's CUDA
//    headers (global namespace), CCCL's thrust, cub and libcu++ (thrust,
//    cub, cuda, nv) -- wherever they are installed: a CCCL checkout passed
//    with -isystem is still the toolchain;
//  - HIP's (hip, hipcub, rocprim) and libtorch's (c10, at, torch, caffe2).
// A system header's declaration in the global namespace is the toolchain's
// too (C libraries, the CUDA runtime's C++ overloads): a library's code is
// told apart by its namespace. Code outside system headers is always the
// project's.
//
// Reports are never made in system headers, whoever's code it is
// (AsyncReadBeforeSyncCheck).
//
// May call: clang's AST and SourceManager.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_LIBRARYCODE_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_LIBRARYCODE_H

#include "clang/AST/DeclBase.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

/// Whether D (a function, a namespace, any declaration) is the toolchain's
/// code as the file comment defines it: in a system header, and in the
/// global namespace or in a toolchain namespace (its outermost named
/// namespace, so `raft::detail` is raft's). Null is the toolchain's.
bool isToolchainCode(const Decl *D, const SourceManager &SM);

/// Whether D is a library's code: in a system header, and not the
/// toolchain's.
bool isLibraryCode(const Decl *D, const SourceManager &SM);

} // namespace clang::tidy::cuda

#endif
