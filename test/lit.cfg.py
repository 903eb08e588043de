# lit configuration shared by the checker suite (test/) and the runtime
# corpus (runtime/cases/). Paths come from the generated lit.site.cfg.py.
import os

import lit.formats

config.name = config.suite_name
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cpp", ".c", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py"]
config.test_source_root = config.suite_source_root
config.test_exec_root = config.suite_exec_root

# FileCheck, not, count from the same LLVM as clang-tidy.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])

check = "cuda-async-read-before-sync"
# %clang_tidy: clang-tidy with the plugin loaded, nothing enabled.
config.substitutions.append(
    ("%clang_tidy_cars",
     "%s --quiet --load=%s -checks=-*,%s" % (config.clang_tidy, config.plugin, check)))
config.substitutions.append(
    ("%clang_tidy", "%s --quiet --load=%s" % (config.clang_tidy, config.plugin)))
config.substitutions.append(("%plugin", config.plugin))
# Host-side CUDA compilation against the mock headers: no toolkit needed.
config.substitutions.append(
    ("%cuda_mock_flags",
     "-x cuda --cuda-host-only -nocudainc -nocudalib -isystem %s" % config.inputs_dir))
# Host-side CUDA compilation against the real toolkit headers. CUDA 13 keeps
# cub/thrust/cuda::std under include/cccl, which nvcc adds and clang does not.
config.substitutions.append(
    ("%cuda_real_flags",
     "-x cuda --cuda-path=%s --cuda-host-only -nocudalib --cuda-gpu-arch=sm_90 "
     "-isystem %s/include/cccl -Wno-unknown-cuda-version" % (config.cuda_path, config.cuda_path)))
config.substitutions.append(("%inputs", config.inputs_dir))

if os.path.exists(os.path.join(config.cuda_path, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
if os.path.exists(os.path.join(config.cuda_path, "bin", "nvcc")):
    config.available_features.add("nvcc")
