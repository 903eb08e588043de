//===--- ContainerTypes.cpp - Containers of host and device memory -------===//

#include "ContainerTypes.h"
#include "ExprUtils.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::cuda {

bool isStdSequence(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier())
    return false;
  llvm::StringRef Name = Spec->getName();
  return Name == "vector" || Name == "array" || Name == "deque" ||
         Name == "span";
}

/// std::map / std::unordered_map: `m[k]` is the element of key k, another
/// key's another element ([associative.reqmts], [unord.req]: keys are
/// unique), which stays where it is while others are inserted.
static bool isStdMap(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  return Spec && Spec->isInStdNamespace() && Spec->getIdentifier() &&
         (Spec->getName() == "map" || Spec->getName() == "unordered_map");
}

const CXXOperatorCallExpr *sequenceElement(const Expr *E) {
  const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
  return Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
                 (isStdSequence(Op->getArg(0)->getType()) ||
                  isStdMap(Op->getArg(0)->getType()))
             ? Op
             : nullptr;
}

const CXXMemberCallExpr *sequenceFront(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  return M && M->getIdentifier() && M->getName() == "front" &&
                 MC->getNumArgs() == 0 &&
                 isStdSequence(MC->getImplicitObjectArgument()->getType())
             ? MC
             : nullptr;
}

bool isStdContainer(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier())
    return false;
  llvm::StringRef Name = Spec->getName();
  if (Name == "array" || Name == "valarray")
    return true;
  if (Name != "vector" && Name != "basic_string" && Name != "deque")
    return false;
  // Storage from std::allocator is pageable; a custom allocator may pin it.
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  const TemplateArgument &Alloc = Args[Args.size() - 1];
  if (Alloc.getKind() != TemplateArgument::Type)
    return false;
  const auto *A = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Alloc.getAsType()->getAsCXXRecordDecl());
  return A && A->isInStdNamespace() && A->getName() == "allocator";
}

/// raft::memory_type (raft/core/memory_type.hpp). Its enumerators' values
/// changed between releases (host, device, managed, pinned = 0..3 until
/// 2023; host, pinned, device, managed = 0..3 since), so they are told by
/// name.
enum class RaftMemory { Host, Pinned, Device, Other };

/// The memory_type of a raft::host_device_accessor<P, memory_type::M> among
/// a specialization's template arguments, by the enumerator's name.
static std::optional<RaftMemory>
raftMemoryType(const ClassTemplateSpecializationDecl *Spec) {
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
    if (A.getKind() != TemplateArgument::Type)
      continue;
    const auto *Acc = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        A.getAsType()->getAsCXXRecordDecl());
    if (!Acc || !Acc->getIdentifier() ||
        Acc->getName() != "host_device_accessor" ||
        Acc->getTemplateArgs().size() < 2)
      continue;
    const TemplateArgument &Mem = Acc->getTemplateArgs()[1];
    if (Mem.getKind() != TemplateArgument::Integral)
      continue;
    const auto *ET = Mem.getIntegralType()->getAs<EnumType>();
    const EnumDecl *ED = ET ? ET->getDecl()->getDefinition() : nullptr;
    if (!ED)
      return std::nullopt;
    for (const EnumConstantDecl *C : ED->enumerators())
      if (llvm::APSInt::isSameValue(C->getInitVal(), Mem.getAsIntegral()))
        return llvm::StringSwitch<RaftMemory>(C->getName())
            .Case("host", RaftMemory::Host)
            .Case("pinned", RaftMemory::Pinned)
            .Case("device", RaftMemory::Device)
            .Default(RaftMemory::Other);
  }
  return std::nullopt;
}

bool isDeviceContainer(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  llvm::StringRef NS = outermostNamespace(RD), Name = RD->getName();
  if (NS.empty())
    return false;
  if (NS == "rmm")
    return llvm::is_contained({"device_uvector", "device_buffer", "device_scalar"},
                              Name);
  if (NS == "thrust")
    return Name == "device_vector";
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  // raft::span<T, true> (raft::device_span).
  if (NS == "raft" && Name == "span" && Args.size() > 1 &&
      Args[1].getKind() == TemplateArgument::Integral)
    return Args[1].getAsIntegral().getBoolValue();
  // raft's device_mdspan / device_mdarray (any mdspan or mdarray).
  return raftMemoryType(Spec) == RaftMemory::Device;
}

std::optional<bool> raftOwnedHostMemoryIsPinned(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->getIdentifier() || Spec->getName() != "mdarray")
    return std::nullopt;
  std::optional<RaftMemory> Mem = raftMemoryType(Spec);
  if (Mem == RaftMemory::Host)
    return false;
  if (Mem == RaftMemory::Pinned)
    return true;
  return std::nullopt;
}

bool isThrustDevicePtr(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "device_ptr" &&
         outermostNamespace(RD) == "thrust";
}

const Expr *deviceIteratorObject(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  const Expr *Object = MC ? MC->getImplicitObjectArgument() : nullptr;
  return M && M->getIdentifier() &&
                 llvm::is_contained({"begin", "end", "cbegin", "cend"},
                                    M->getName()) &&
                 Object &&
                 isDeviceContainer(Object->IgnoreImpCasts()->getType())
             ? Object
             : nullptr;
}

} // namespace clang::tidy::cuda
