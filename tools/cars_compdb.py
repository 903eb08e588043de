"""Compile databases for the cuda-async-read-before-sync commands (tools/):
where one is (default_database, database_path), and nvcc entries turned into
clang-CUDA ones (translate_database, translate_entry, translate_nvcc), with
what nvcc provides and clang does not: the toolkit root behind an nvcc
(cuda_root_of), its CCCL headers, nvcc's predefined macros.

Used by the launcher, the hook, the gate and cuda-async-read-before-sync-
compdb, and by runtime/agree.py (cuda_root_of). Standard library only; may
call cars_tooling (ToolError).
"""

import functools
import glob
import json
import os
import re
import shlex
import shutil
import subprocess

from cars_tooling import ToolError


# nvcc options whose value is a separate argument (unless given with '=') and
# which do not matter to a host-side analysis: dropped with their value.
_NVCC_VALUE_OPTS = {
    "-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options", "-Xlinker",
    "--linker-options", "-Xnvlink", "--nvlink-options", "-Xarchive",
    "--archive-options", "-Xcudafe", "-Xfatbin", "--fatbin-options",
    "-maxrregcount", "--maxrregcount", "-t", "--threads", "-cudart", "--cudart",
    "-cudadevrt", "--cudadevrt", "-MF",
    "-MT", "-MQ", "-odir", "--output-directory", "-l", "--library", "-L",
    "--library-path", "-ldir", "--libdevice-directory", "-target-dir",
    "--target-directory", "--diag-suppress", "-diag-suppress", "--diag-error",
    "-diag-error", "--diag-warn", "-diag-warn", "-split-compile",
    "--split-compile", "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt",
    "--prec-sqrt", "-fmad", "--fmad", "-dopt", "--dopt", "-time", "--time",
    "-keep-dir", "--keep-dir", "-o", "--output-file", "-Xnvlink", "-m",
    "--machine", "-dlto", "-arch-ls", "--run-args", "-run-args", "-depfile",
    "--dependency-output", "-MJ", "--generate-dependencies-with-compile",
}
_NVCC_WERROR_KINDS = {"all-warnings", "cross-execution-space-call", "reorder",
                      "default-stream-launch", "missing-launch-bounds",
                      "ext-lambda-captures-this", "deprecated-declarations"}

# Option spellings that take a value: canonical name -> spellings.
_VALUED = {
    "I": ("-I", "--include-path"),
    "isystem": ("-isystem", "--system-include"),
    "iquote": ("-iquote",),
    "idirafter": ("-idirafter",),
    "D": ("-D", "--define-macro"),
    "U": ("-U", "--undefine-macro"),
    "include": ("-include", "--pre-include"),
    "std": ("-std", "--std"),
    "x": ("-x", "--x"),
    "arch": ("-arch", "--gpu-architecture"),
    "gencode": ("-gencode", "--generate-code"),
    "code": ("-code", "--gpu-code"),
    "default-stream": ("-default-stream", "--default-stream"),
    "rdc": ("-rdc", "--relocatable-device-code"),
    "Xcompiler": ("-Xcompiler", "--compiler-options"),
    "optf": ("-optf", "--options-file"),
}
_SPELLING = {s: name for name, spells in _VALUED.items() for s in spells}
# Spellings that also take their value glued on (-I/path, -DNAME).
_GLUED = {"-I": "I", "-D": "D", "-U": "U", "-isystem": "isystem",
          "-iquote": "iquote", "-idirafter": "idirafter"}


def is_nvcc(args):
    return bool(args) and os.path.basename(args[0]) in ("nvcc", "nvcc.exe")


def _split_valued(args, i):
    """(name, value, next_index) if args[i] is a value-taking option we use,
    else None."""
    a = args[i]
    if "=" in a and a.startswith("-"):
        head, val = a.split("=", 1)
        if head in _SPELLING:
            return _SPELLING[head], val, i + 1
    if a in _SPELLING:
        if i + 1 < len(args):
            return _SPELLING[a], args[i + 1], i + 2
        return None
    for prefix in sorted(_GLUED, key=len, reverse=True):
        if a.startswith(prefix) and len(a) > len(prefix) and not a.startswith("--"):
            return _GLUED[prefix], a[len(prefix):], i + 1
    return None


def _read_options_file(path, directory):
    full = path if os.path.isabs(path) else os.path.join(directory, path)
    try:
        with open(full) as f:
            return shlex.split(f.read())
    except OSError:
        raise ToolError(
            "nvcc options file %s is missing (the Ninja generator writes these "
            "at build time: build the project once, or configure with "
            "-DCMAKE_CUDA_USE_RESPONSE_FILE_FOR_INCLUDES=OFF)" % full)


def _expand_options_files(args, directory, depth=0):
    out, i = [], 0
    while i < len(args):
        sv = _split_valued(args, i)
        if sv and sv[0] == "optf":
            if depth > 8:
                raise ToolError("nvcc options files nest too deeply")
            out += _expand_options_files(
                _read_options_file(sv[1], directory), directory, depth + 1)
            i = sv[2]
        else:
            out.append(args[i])
            i += 1
    return out


def _archs(name, value):
    """sm_XX architectures named by -arch/-code/-gencode values."""
    if name == "gencode":
        m = re.search(r"code=\[?([^\]]*)\]?", value)
        parts = m.group(1).split(",") if m else []
        a = re.search(r"arch=(\w+)", value)
        parts.append(a.group(1) if a else "")
    else:
        parts = value.split(",")
    out = []
    for p in parts:
        m = re.fullmatch(r"(?:sm|compute|lto)_(\d+[a-z]?)", p.strip())
        if m:
            out.append("sm_" + m.group(1))
    return out


def _host_flags(tokens):
    """The preprocessor-relevant part of host-compiler flags (-Xcompiler
    values, and unknown flags nvcc forwards to the host compiler), and
    whether they turn OpenMP on (-fopenmp: _OPENMP defined, omp.h found)."""
    out, i, openmp = [], 0, False
    while i < len(tokens):
        sv = _split_valued(tokens, i)
        if sv and sv[0] in ("I", "isystem", "iquote", "idirafter", "D", "U",
                            "include", "std"):
            out += _emit(sv[0], sv[1])
            i = sv[2]
        else:
            openmp |= any(t in _OPENMP_FLAGS for t in tokens[i].split())
            i += 1
    return out, openmp


# GCC's spellings of OpenMP for the host compiler (-Xcompiler -fopenmp);
# clang's is -fopenmp.
_OPENMP_FLAGS = {"-fopenmp", "-fopenmp=libomp", "-fopenmp=libgomp"}

# What nvcc's host compilation gives and clang's does not (an integer
# __CUDACC__, the host min()/max() overloads): installed beside this file
# (tools/ in the source tree).
NVCC_HOST_HEADER = os.path.join(os.path.dirname(os.path.realpath(__file__)), "cars_nvcc_host.h")


def _emit(name, val):
    if name in ("I", "D", "U"):
        return ["-" + name + val]
    if name == "std":
        return ["-std=" + val]
    return ["-" + name, val]


def _has_cuda_headers(root):
    return bool(root) and os.path.isfile(os.path.join(root, "include", "cuda_runtime.h"))


def _nvcc_top(path):
    """TOP= of `nvcc -dryrun`: the toolkit root nvcc itself compiles against,
    or None where nvcc does not run or does not say."""
    try:
        p = subprocess.run([path, "-dryrun", "-x", "cu", "-E", os.devnull],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, errors="replace", timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"^#\$ TOP=(.*)$", p.stdout, re.M)
    return os.path.normpath(m.group(1).strip()) if m else None


_CUDA_ROOTS = {}


def cuda_root_of(nvcc):
    """The CUDA toolkit root (the directory whose include/ holds
    cuda_runtime.h) behind the nvcc command `nvcc`, for clang's --cuda-path.

    nvcc is often not in its toolkit's bin/: /usr/bin/nvcc may be a symlink,
    /usr/local/bin/nvcc a wrapper script (`exec /usr/local/cuda-13.0/bin/nvcc
    "$@"`). Candidates, first with the headers wins: the directory above
    nvcc's own; the same with symlinks resolved; TOP= of `nvcc -dryrun` (what
    nvcc itself uses); $CUDA_PATH; $CUDA_HOME; /usr/local/cuda. With none,
    the first candidate, so that clang's own error names a path."""
    path = nvcc if os.sep in nvcc else (shutil.which(nvcc) or "")
    if path in _CUDA_ROOTS:
        return _CUDA_ROOTS[path]
    above = os.path.dirname(os.path.dirname(path)) if path else ""
    lazy = [lambda: above,
            lambda: os.path.dirname(os.path.dirname(os.path.realpath(path))) if path else "",
            lambda: _nvcc_top(path) if path else None,
            lambda: os.environ.get("CUDA_PATH"),
            lambda: os.environ.get("CUDA_HOME"),
            lambda: "/usr/local/cuda"]
    root = next((r for r in (c() for c in lazy) if _has_cuda_headers(r)),
                above or "/usr/local/cuda")
    _CUDA_ROOTS[path] = root
    return root


_NVCC_MODE_MACROS = {
    # nvcc's predefined macros for its language modes (NVCC manual,
    # "NVCC Predefined Macros"); headers test them (cuCollections #errors
    # without __CUDACC_EXTENDED_LAMBDA__).
    "--extended-lambda": "__CUDACC_EXTENDED_LAMBDA__",
    "-extended-lambda": "__CUDACC_EXTENDED_LAMBDA__",
    "--expt-extended-lambda": "__CUDACC_EXTENDED_LAMBDA__",
    "-expt-extended-lambda": "__CUDACC_EXTENDED_LAMBDA__",
    "--expt-relaxed-constexpr": "__CUDACC_RELAXED_CONSTEXPR__",
    "-expt-relaxed-constexpr": "__CUDACC_RELAXED_CONSTEXPR__",
}

@functools.lru_cache(maxsize=None)
def toolkit_version(root):
    """(major, minor) of the CUDA toolkit at root, from CUDA_VERSION in its
    include/cuda.h (13000 is 13.0), or None where that cannot be read."""
    try:
        with open(os.path.join(root, "include", "cuda.h"), errors="replace") as f:
            m = re.search(r"^\s*#\s*define\s+CUDA_VERSION\s+(\d+)", f.read(), re.M)
    except OSError:
        return None
    if not m:
        return None
    v = int(m.group(1))
    return (v // 1000, v % 1000 // 10)


def translate_nvcc(args, directory, file):
    """clang-CUDA arguments for one nvcc invocation, host side only."""
    root = cuda_root_of(args[0])
    args = _expand_options_files(list(args[1:]), directory)
    flags, archs, lang, ptds, openmp, rdc = [], [], None, False, False, False
    modes = []
    i = 0
    while i < len(args):
        a = args[i]
        sv = _split_valued(args, i)
        if sv:
            name, val, i = sv
            if name in ("I", "isystem", "iquote", "idirafter", "D", "U", "include", "std"):
                flags += _emit(name, val)
            elif name == "x":
                lang = {"cu": "cuda", "c++": "c++", "c": "c"}.get(val, val)
            elif name in ("arch", "gencode", "code"):
                archs += _archs(name, val)
            elif name == "default-stream":
                ptds = val == "per-thread"
            elif name == "rdc":
                rdc = val.lower() == "true"
            elif name == "Xcompiler":
                host, omp = _host_flags(val.split(","))
                flags += host
                openmp |= omp
            continue
        if a in _NVCC_VALUE_OPTS:
            i += 2
            continue
        if a in ("-dc", "--device-c"):
            rdc = True  # -rdc=true -c
        if a in _OPENMP_FLAGS:
            openmp = True  # forwarded to the host compiler (-forward-unknown-to-host-compiler)
        if a in _NVCC_MODE_MACROS and _NVCC_MODE_MACROS[a] not in modes:
            modes.append(_NVCC_MODE_MACROS[a])
        if a in ("-Werror", "--Werror") and i + 1 < len(args) and \
                args[i + 1].split(",")[0] in _NVCC_WERROR_KINDS:
            i += 2
            continue
        i += 1  # anything else: nvcc-only, or host flags that do not matter
    if lang is None:
        ext = os.path.splitext(file)[1].lower()
        lang = "cuda" if ext in (".cu", ".cuh") else "c" if ext == ".c" else "c++"
    out = ["clang" if lang == "c" else "clang++", "-x", lang]
    if lang == "cuda":
        arch = os.environ.get("CARS_CUDA_GPU_ARCH") or (archs[0] if archs else None)
        out += ["--cuda-host-only", "-nocudalib", "--cuda-path=" + root,
                "--no-cuda-version-check", "-Wno-unknown-cuda-version"]
        if arch:
            out.append("--cuda-gpu-arch=" + arch)
        if rdc:
            # Separate compilation (-rdc=true, -dc): device code may launch
            # kernels and call extern __device__ functions; clang's
            # spelling.
            out.append("-fgpu-rdc")
    else:
        out += ["-isystem", os.path.join(root, "include")]
    # CUDA 12.x+/13 keep CCCL (cuda/std, cub, thrust) under include/cccl,
    # which nvcc adds by itself and clang does not.
    cccl = os.path.join(root, "include", "cccl")
    if os.path.isdir(cccl):
        out += ["-isystem", cccl]
    if ptds:
        out.append("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
    if lang == "cuda":
        # What nvcc predefines and clang does not: its version (CUTLASS and
        # cuCollections stop with "NVCC version not found" without it) and
        # its language modes. Before the entry's own flags, which may -U.
        # Then what must come after clang's CUDA wrapper header: an integer
        # __CUDACC__, nvcc's host min()/max() (cars_nvcc_host.h).
        version = toolkit_version(root)
        if version:
            out += ["-D__CUDACC_VER_MAJOR__=%d" % version[0],
                    "-D__CUDACC_VER_MINOR__=%d" % version[1]]
        out += ["-D" + m for m in modes]
        out += ["-include", NVCC_HOST_HEADER]
    if openmp:
        out.append("-fopenmp")  # omp.h: clang's own (libomp-<major>-dev)
    out += flags
    out += ["-c", file]
    return out


def entry_arguments(entry):
    """A compile database entry's command as a list (its "arguments", or
    its "command" split as a shell would), compiler launchers (ccache nvcc
    ...) left out."""
    if "arguments" in entry:
        args = list(entry["arguments"])
    else:
        args = shlex.split(entry.get("command", ""))
    while args and os.path.basename(args[0]) in ("ccache", "sccache") and len(args) > 1:
        args = args[1:]
    return args


def translate_entry(entry):
    args = entry_arguments(entry)
    if not is_nvcc(args):
        return entry, False
    new = {"directory": entry["directory"], "file": entry["file"],
           "arguments": translate_nvcc(args, entry["directory"], entry["file"])}
    if "output" in entry:
        new["output"] = entry["output"]
    return new, True


def default_database(start=None):
    """The -p value used when none is given: compile_commands.json, then
    build/compile_commands.json, in start (default: the current directory)
    or, inside a git work tree, the nearest directory above it up to the
    tree's top that has one (a command run from a subdirectory of the
    project finds the project's database, translated, where clang-tidy's
    own search would find the untranslated one or none); else None."""
    d = os.path.abspath(start or os.getcwd())
    dirs = [d]
    while not os.path.exists(os.path.join(d, ".git")) and os.path.dirname(d) != d:
        d = os.path.dirname(d)
        dirs.append(d)
    if not os.path.exists(os.path.join(d, ".git")):
        dirs = dirs[:1]  # not in a work tree: this directory only
    for d in dirs:
        for cand in (os.path.join(d, "compile_commands.json"),
                     os.path.join(d, "build", "compile_commands.json")):
            if os.path.isfile(cand):
                return cand
    return None


def database_path(p):
    """compile_commands.json named by a -p value (a build dir or the file)."""
    if os.path.isdir(p):
        return os.path.join(p, "compile_commands.json")
    return p


def translate_database(src, out_dir):
    """Writes out_dir/compile_commands.json; returns the number of nvcc
    entries translated."""
    try:
        with open(src) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError("cannot read compile database %s: %s" % (src, e))
    result, n = [], 0
    for e in entries:
        new, changed = translate_entry(e)
        result.append(new)
        n += changed
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    return n


def openmp_note(out_dir, clang_tidy):
    """A line to print where entries of the translated database in out_dir
    turn OpenMP on (-fopenmp) and the clang of clang_tidy has no omp.h in
    its resource directory (Debian's libomp-<major>-dev provides it; the
    setup script installs it), else None. Those units would stop at
    `#include <omp.h>`."""
    llvm = os.path.dirname(os.path.dirname(os.path.realpath(clang_tidy)))
    if glob.glob(os.path.join(llvm, "lib", "clang", "*", "include", "omp.h")):
        return None  # the usual case: the database is not read again
    try:
        with open(os.path.join(out_dir, "compile_commands.json")) as f:
            n = sum("-fopenmp" in e.get("arguments", ()) for e in json.load(f))
    except (OSError, ValueError):
        return None
    if not n:
        return None
    m = re.search(r"llvm-(\d+)", llvm)
    return ("%d translation unit%s OpenMP (-Xcompiler -fopenmp) and %s has no omp.h: "
            "install %s, or %s at `#include <omp.h>`"
            % (n, " uses" if n == 1 else "s use", clang_tidy,
               "libomp-%s-dev" % m.group(1) if m else "clang's OpenMP headers (libomp)",
               "it stops" if n == 1 else "they stop"))
