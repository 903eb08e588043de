//===--- CudaTidyModule.cpp - the `cuda` clang-tidy module ----------------===//
//
// Registers the module with clang-tidy's registry when the plugin is loaded
// (`clang-tidy --load=CudaAsyncReadBeforeSync.so`).
//
//===----------------------------------------------------------------------===//

#include "AsyncReadBeforeSyncCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/Version.h"
#if CLANG_VERSION_MAJOR < 22
// Before LLVM 22 the registry lived in its own header (deprecated since).
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif

namespace clang::tidy::cuda {

class CudaTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<AsyncReadBeforeSyncCheck>(
        "cuda-async-read-before-sync");
  }
};

static ClangTidyModuleRegistry::Add<CudaTidyModule>
    X("cuda-module", "Checks for CUDA host code.");

} // namespace clang::tidy::cuda
