//===--- ByteRegions.h - The bytes a copy or an access names ---*- C++ -*-===//
//
// One concern: the part of a host buffer that a device-to-host copy writes
// or a host access touches, where constant offsets say it (slices of one
// pinned arena: `cudaMemcpyAsync(arena + 1024, d, 256, ...)` then a read of
// `arena[0]`). A copy and an access whose regions are both known, measured
// from the same root, and disjoint are not a race: the DMA writes only the
// copy's bytes (CUDA Runtime API, cudaMemcpyAsync: "Copies count bytes from
// the memory area pointed to by src to the memory area pointed to by dst").
// A region not known here is the whole buffer, as before: only a proof of
// disjointness removes a claim.
//
// May call: FunctionFacts (constants, references of a variable, the parent
// map, the API model), ExprUtils. Called by Effects (copies and accesses)
// and the Solver (disjointness at an access).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_READ_BEFORE_SYNC_BYTEREGIONS_H
#define CUDA_ASYNC_READ_BEFORE_SYNC_BYTEREGIONS_H

#include "clang/AST/Expr.h"
#include <optional>
#include <string>
#include <tuple>

namespace clang::tidy::cuda {

class FunctionFacts;
struct ApiEntry;

/// Bytes [Lo, Hi) counted from the address a root variable holds
/// (Root: the AccessPath key of that variable, a local or parameter whose
/// value the callable never changes but by allocating into it, or an
/// array). Two regions are comparable only with the same Root.
struct ByteRange {
  std::string Root;
  long long Lo = 0, Hi = 0;
  bool operator<(const ByteRange &O) const {
    return std::tie(Root, Lo, Hi) < std::tie(O.Root, O.Lo, O.Hi);
  }
};

/// Two regions are known not to overlap: both known, from one root, and
/// apart. False when either is unknown (nullopt: the whole buffer).
bool disjoint(const std::optional<ByteRange> &A,
              const std::optional<ByteRange> &B);

/// The bytes a one-dimensional copy call C (row E, whose SizeArg gives the
/// byte count) writes from its destination expression Dst down to the root
/// Root (bufferRoot(Dst)): `arena + 256` of a `float *` with count 1024 is
/// [1024, 2048) from `arena`; with a count not known, every byte from the
/// offset on. nullopt where an offset is not a constant
/// (FunctionFacts::constantArg), the row has no count argument, or the root
/// is not stable.
std::optional<ByteRange> copyRegion(const FunctionFacts &F, const CallExpr *C,
                                    const ApiEntry &E, const Expr *Dst,
                                    const Expr *Root);

/// The bytes a host access through Node (an occurrence of a buffer's root,
/// as Effects finds it) touches: `arena[3]` of a `float *` is [12, 16),
/// `*(arena + 2)` is [8, 12), `hdr->count` the member's bytes; a member
/// of an element lies within the element. nullopt for any other use
/// (passed to a function, stored, read with a non-constant index), or
/// where the root is not stable.
std::optional<ByteRange> accessRegion(const FunctionFacts &F,
                                      const Expr *Node);

} // namespace clang::tidy::cuda

#endif
