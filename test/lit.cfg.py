# lit configuration shared by the checker suite (test/) and the runtime
# corpus (runtime/cases/). Paths come from the generated lit.site.cfg.py.
import os

import lit.formats

config.name = config.suite_name
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cpp", ".c", ".test"]
# The Python front end's tests (test/checkers/python/*.py) and the runtime
# corpus's PyTorch cases (runtime/cases/py_*.py).
config.suffixes.append(".py")
config.excludes = ["Inputs", "parts", "CMakeLists.txt", "lit.cfg.py"]
config.test_source_root = config.suite_source_root
config.test_exec_root = config.suite_exec_root

# FileCheck, not, count from the same LLVM as clang-tidy.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])

check = "cuda-async-read-before-sync"
# The clang-tidy binary itself (a test that wraps it); before %clang_tidy,
# of which it is an extension.
config.substitutions.append(("%clang_tidy_bin", config.clang_tidy))
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
config.substitutions.append(("%cuda_path", config.cuda_path))

if os.path.exists(os.path.join(config.cuda_path, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
if os.path.exists(os.path.join(config.cuda_path, "bin", "nvcc")):
    config.available_features.add("nvcc")

# --- Integration tests (test/integration/): the commands in tools/ --------
import re
import shutil
import subprocess

config.substitutions.append(
    ("%cars_tools", os.path.normpath(os.path.join(config.inputs_dir, "..", "..", "tools"))))
config.substitutions.append(
    ("%cars_build", os.path.dirname(os.path.dirname(config.plugin))))
config.substitutions.append(("%python", "/usr/bin/python3"))
# The Python front end, as the launcher runs it.
config.substitutions.append(
    ("%cars_python", "env PYTHONPATH=%s /usr/bin/python3 -m cars_python" % os.path.normpath(
        os.path.join(config.inputs_dir, "..", "..", "checker", "python"))))
# The commands find the plugin under test (whichever build this suite runs).
config.environment["CARS_PLUGIN"] = config.plugin
_m = re.search(r"LLVM version (\d+)", subprocess.run(
    [config.clang_tidy, "--version"], capture_output=True, text=True).stdout)
config.llvm_major = int(_m.group(1)) if _m else 0
config.substitutions.append(("%llvm_major", str(config.llvm_major)))
config.available_features.add("llvm-%d" % config.llvm_major)
# clang before 22 cannot parse CUDA 13's headers (its CUDA wrapper includes
# texture_fetch_functions.h, which CUDA 13 removed): no real-header tests.
try:
    with open(os.path.join(config.cuda_path, "include", "cuda.h")) as _f:
        _cv = int(re.search(r"#define CUDA_VERSION (\d+)", _f.read()).group(1))
except (OSError, AttributeError):
    _cv = 0
if config.llvm_major < 22 and _cv >= 13000:
    config.available_features.discard("cuda-toolkit")
# clang's own omp.h (Debian: libomp-<major>-dev, which scripts/setup.sh
# installs), for code built with -Xcompiler -fopenmp.
import glob
if glob.glob(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(config.clang_tidy))),
                          "lib", "clang", "*", "include", "omp.h")):
    config.available_features.add("clang-openmp")
for _tool in ("cmake", "cpack", "git", "pre-commit", "dpkg-deb"):
    if shutil.which(_tool):
        config.available_features.add(_tool)
if subprocess.run(["/usr/bin/python3", "-c", "import flake8"], capture_output=True).returncode == 0:
    config.available_features.add("flake8")
if subprocess.run(["/usr/bin/python3", "-c",
                   "import yaml, jsonschema"],
                  capture_output=True).returncode == 0:
    config.available_features.add("sarif")
# A real `apt-get install ./x.deb` changes the machine: only where asked (CI).
if os.environ.get("CARS_TEST_DEB_INSTALL") == "1" and os.geteuid() == 0:
    config.available_features.add("deb-install")

# --- Real headers of other API families, where their Debian packages are
# installed (scripts/run-tests.sh installs them): HIP and libtorch.
config.suffixes.append(".hip")
if os.path.exists("/usr/include/hip/hip_runtime.h"):
    config.available_features.add("hip-headers")
if os.path.exists("/usr/include/torch/csrc/api/include/torch/torch.h"):
    config.available_features.add("libtorch-headers")
config.substitutions.append(
    ("%torch_mock_flags",
     "-x c++ -std=c++17 -isystem %s/torch -isystem %s" % (config.inputs_dir, config.inputs_dir)))
