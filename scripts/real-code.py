#!/usr/bin/env python3
"""Run cuda-async-read-before-sync over a real project's sources.

Takes the path of a project snapshot (an extracted work tree), builds the
clang flags that project's CMake would give each translation unit (include
directories, defines, language standard), runs clang-tidy with only this
check on every selected file in parallel, and reports, per file: the check's
warnings (file:line:col, message and notes; findings in headers are kept and
attributed to the header), whether clang reported compile errors (a parse
error), whether clang-tidy crashed (a signal, or a 'Stack dump'), whether it
ran past the per-file timeout, and the wall time. A summary goes to stdout;
the full results go, as deterministic JSON with paths relative to --src, to
--out, so that two runs (say, two builds of the plugin) can be diffed.

Usage:

  scripts/real-code.py --project {cuda-samples,faiss,raft,generic} --src PATH
      [--plugin P] [--clang-tidy P] [--cuda-path P] [--jobs N]
      [--timeout S] [--out FILE.json] [--files-limit N] [--match REGEX]
      [--extra-arg ARG ...] [--rmm PATH] [--rapids-logger PATH] [--cccl PATH]
      [--raft-as-system] [--config YAML]

  scripts/real-code.py --diff OLD.json NEW.json   # what changed, times aside

Projects (the file sets and flags each recipe uses):

  cuda-samples  every .cu file; -std=c++17, -I Common (as the samples'
                CMakeLists do), plus a sample's own common/include and inc/.
  faiss         the .cu files under faiss/gpu that the default build compiles
                (FAISS_ENABLE_CUVS=OFF: the cuVS-only files are left out,
                and so is the IVFInterleaved scan template CMake expands);
                -I <repo root>; C++17 for CUDA (nvcc's default, faiss sets no
                CUDA standard), C++20 for C++.
  raft          the .cu files under cpp/tests that a ConfigureTest() in
                cpp/tests/CMakeLists.txt builds; -std=c++20 (the tests'
                CUDA_STANDARD), -I cpp/include, cpp/internal, cpp/tests,
                -isystem rmm's cpp/include and rapids-logger's include, the
                logger_macros.hpp headers CMake would generate (written to a
                scratch folder), RAFT's interface defines, and per test the
                RAFT_COMPILED / RAFT_EXPLICIT_INSTANTIATE_ONLY defines that its
                ConfigureTest(... LIB EXPLICIT_INSTANTIATE_ONLY) in
                cpp/tests/CMakeLists.txt asks for. rmm and rapids-logger are
                looked for next to --src (../rmm, ../rapids-logger) unless
                --rmm / --rapids-logger say where; rmm needs CCCL >= 3.3,
                so a CCCL checkout (--cccl, default ../cccl when present)
                replaces the toolkit's include/cccl. --raft-as-system
                passes cpp/include as -isystem instead, as a project using
                an installed raft sees it (findings in raft's headers are
                then not reported, only those in the tests).
  generic       every .cu file, with only the base flags and -I <src>.

Base flags: .cu/.cuh files get `-x cuda --cuda-path=<cuda> --cuda-host-only
-nocudalib --cuda-gpu-arch=sm_90 -isystem <cuda>/include/cccl`; .cpp/.cc/.cxx
files get `-x c++ -isystem <cuda>/include -isystem <cuda>/include/cccl`.
A recipe may put another CCCL in place of <cuda>/include/cccl (raft does);
--extra-arg appends to all. Two nvcc-compatibility shims are added too
unless --no-nvcc-shims: CUDA files get `-include` of tools/cars_nvcc_host.h
(nvcc's __host__ min()/max() overloads, which clang's CUDA headers declare
__device__ only, and an integer __CUDACC__), as the compile-database
translator gives them, and every file gets `-isystem` of a scratch folder
holding GCC's omp.h when clang has none (nvcc's host GCC finds it).

Exit status: 0 when the run completed (findings and parse errors included),
2 on a usage error. Only the Python 3 standard library is used.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

CHECK = "cuda-async-read-before-sync"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PLUGIN = os.path.join(HERE, "..", "build", "checker",
                              "CudaAsyncReadBeforeSync.so")
DEFAULT_CLANG_TIDY = "/usr/lib/llvm-22/bin/clang-tidy"
CUDA_EXTS = (".cu", ".cuh")
CXX_EXTS = (".cpp", ".cc", ".cxx", ".c++", ".C")


# ---------------------------------------------------------------- recipes --

class Recipe:
    """How one project's files are picked and compiled."""

    name = "generic"
    exts = (".cu",)

    def __init__(self, args, src):
        self.args = args
        self.src = src

    def select(self):
        out = []
        for root, dirs, files in os.walk(self.src):
            dirs[:] = sorted(d for d in dirs if d not in (".git",))
            for f in files:
                if f.endswith(self.exts):
                    rel = os.path.relpath(os.path.join(root, f), self.src)
                    if self.keep(rel):
                        out.append(rel)
        return sorted(out)

    def keep(self, rel):
        return True

    def std(self, rel, cuda):
        return None

    def flags(self, rel):
        """Project flags for one file (after the base flags)."""
        return ["-I" + self.src]

    def describe(self):
        """Project-level facts worth recording (paths as given)."""
        return {}

    def cccl(self):
        """The CCCL include folders (cub, thrust, libcu++) to use."""
        return [os.path.join(self.args.cuda_path, "include", "cccl")]


def gen_dir(name, text):
    """A scratch folder for generated headers, keyed by their content."""
    key = hashlib.sha256(text.encode()).hexdigest()[:12]
    d = os.path.join(tempfile.gettempdir(), "cars-real-code-gen",
                     name + "-" + key)
    os.makedirs(d, exist_ok=True)
    return d


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".%d.tmp" % os.getpid()
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def nvcc_host_minmax_header():
    """The header of what nvcc's host compilation gives and clang's does
    not (an integer __CUDACC__, nvcc's host min()/max()): the one the
    compile-database translator hands to clang (tools/cars_nvcc_host.h)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "tools", "cars_nvcc_host.h")


def omp_include_dir(clang_tidy):
    """A folder that has omp.h: none needed when clang's own has one (libomp
    installed); else one holding a copy of GCC's omp.h (the same API)."""
    llvm = os.path.dirname(os.path.dirname(os.path.realpath(clang_tidy)))
    for d in sorted(glob.glob(os.path.join(llvm, "lib", "clang", "*",
                                           "include"))):
        if os.path.isfile(os.path.join(d, "omp.h")):
            return None
    gcc = sorted(glob.glob("/usr/lib/gcc/*/*/include/omp.h"),
                 key=lambda p: [int(x) if x.isdigit() else 0 for x in
                                p.split("/")[4].split(".")])
    if not gcc:
        return None
    with open(gcc[-1], encoding="utf-8", errors="replace") as f:
        text = f.read()
    d = gen_dir("omp", text)
    write_file(os.path.join(d, "omp.h"), text)
    return d


def strip_cmake_comments(text):
    """A CMake text without its comments."""
    text = re.sub(r"#[^\n]*", "", text)
    return text


class CudaSamples(Recipe):
    name = "cuda-samples"

    def __init__(self, args, src):
        super().__init__(args, src)
        self.cache = {}

    def std(self, rel, cuda):
        return "c++17"  # CMAKE_CXX_STANDARD / CMAKE_CUDA_STANDARD 17

    def sample_cmake(self, d):
        """What the sample's CMakeLists.txt (in d or above) asks for."""
        top = os.path.join(self.src, "Samples")
        while True:
            p = os.path.join(d, "CMakeLists.txt")
            if os.path.isfile(p) or d in (top, self.src) or len(d) <= 1:
                break
            d = os.path.dirname(d)
        if p in self.cache:
            return self.cache[p]
        info = {"includes": [], "defines": [], "rdc": False, "openmp": False}
        self.cache[p] = info
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                text = strip_cmake_comments(f.read())
        except OSError:
            return info
        for m in re.finditer(r"\b(target_)?include_directories\s*\(([^)]*)\)",
                             text):
            words = m.group(2).split()
            if m.group(1):
                words = words[1:]  # the target
            for w in words:
                w = w.strip('"')
                if w in ("PRIVATE", "PUBLIC", "INTERFACE", "SYSTEM",
                         "BEFORE", "AFTER"):
                    continue
                w = w.replace("${CMAKE_CURRENT_SOURCE_DIR}", d)
                if "${" in w:
                    continue  # the toolkit's, GL's, ...: not ours to find
                q = os.path.normpath(os.path.join(d, w))
                if os.path.isdir(q) and q not in info["includes"]:
                    info["includes"].append(q)
        for m in re.finditer(r"\badd_(?:compile_)?definitions\s*\(([^)]*)\)",
                             text):
            for w in m.group(1).split():
                if "${" not in w:
                    info["defines"].append(w if w.startswith("-D")
                                           else "-D" + w)
        info["rdc"] = bool(re.search(
            r"CUDA_SEPARABLE_COMPILATION\s+ON", text))
        info["openmp"] = bool(re.search(r"find_package\s*\(\s*OpenMP",
                                        text))
        return info

    def flags(self, rel):
        info = self.sample_cmake(os.path.dirname(os.path.join(self.src, rel)))
        common = os.path.join(self.src, "Common")
        out = ["-I" + common]
        out += ["-I" + d for d in info["includes"] if d != common]
        out += info["defines"]
        if info["rdc"] and rel.endswith(CUDA_EXTS):
            out.append("-fgpu-rdc")  # CUDA_SEPARABLE_COMPILATION ON
        if info["openmp"]:
            out.append("-fopenmp")
        return out


class Faiss(Recipe):
    name = "faiss"
    # Listed only under if(FAISS_ENABLE_CUVS) in faiss/gpu/CMakeLists.txt and
    # faiss/gpu/test/CMakeLists.txt (default OFF); they need cuVS.
    CUVS_ONLY = re.compile(
        r"(^|/)(GpuIndexBinaryCagra|GpuIndexCagra|BinaryCuvsCagra|CuvsCagra|"
        r"CuvsFlatIndex|CuvsIVFFlat|CuvsIVFPQ|CuvsIVFSQ|CuvsFilterConvert|"
        r"CuvsUtils|TestGpuFilterConvert|TestGpuIndexBinaryCagra|"
        r"TestGpuIndexCagra)\.cu$")

    # Not a translation unit: generate_ivf_interleaved_code() in
    # faiss/gpu/CMakeLists.txt reads it as a template for generated files.
    TEMPLATES = ("faiss/gpu/impl/scan/IVFInterleavedScanKernelTemplate.cu",)

    def keep(self, rel):
        return (rel.startswith("faiss/gpu/")
                and not self.CUVS_ONLY.search(rel)
                and rel not in self.TEMPLATES)

    def std(self, rel, cuda):
        return "c++17" if cuda else "c++20"

    def flags(self, rel):
        return ["-I" + self.src]


class Raft(Recipe):
    name = "raft"

    def __init__(self, args, src):
        super().__init__(args, src)
        parent = os.path.dirname(src)
        self.rmm = os.path.abspath(args.rmm or os.path.join(parent, "rmm"))
        self.logger = os.path.abspath(
            args.rapids_logger or os.path.join(parent, "rapids-logger"))
        # rmm wants CCCL >= 3.3; CUDA 13.0 ships 3.0. A CCCL checkout
        # (--cccl, or ../cccl) replaces the toolkit's when there is one.
        c = os.path.abspath(args.cccl or os.path.join(parent, "cccl"))
        self.cccl_root = c if os.path.isdir(
            os.path.join(c, "libcudacxx", "include")) else None
        if args.cccl and not self.cccl_root:
            sys.exit("real-code: --cccl %s has no libcudacxx/include"
                     % args.cccl)
        for what, p, inc in (("rmm", self.rmm, "cpp/include/rmm"),
                             ("rapids-logger", self.logger,
                              "include/rapids_logger")):
            if not os.path.isdir(os.path.join(p, inc)):
                sys.exit("real-code: raft needs %s: %s has no %s (pass --%s)"
                         % (what, p, inc, what))
        self.gen = self._generate_headers()
        self.per_test = self._configure_tests()

    def _generate_headers(self):
        """logger_macros.hpp as create_logger_macros() would write them."""
        tmpl_path = os.path.join(self.logger, "cmake", "logger_macros.hpp.in")
        with open(tmpl_path, encoding="utf-8") as f:
            tmpl = f.read()
        gen = gen_dir("rapids-logger", tmpl)
        for prefix, logger, rel in (
                ("RAFT", "raft::default_logger()", "raft/core"),
                ("RMM", "rmm::default_logger()", "rmm")):
            write_file(os.path.join(gen, rel, "logger_macros.hpp"),
                       tmpl.replace("@_RAPIDS_LOGGER_MACRO_PREFIX@", prefix)
                       .replace("@_RAPIDS_LOGGER_DEFAULT_LOGGER@", logger))
        return gen

    def _configure_tests(self):
        """file (relative to cpp/tests) -> set of ConfigureTest options."""
        path = os.path.join(self.src, "cpp", "tests", "CMakeLists.txt")
        out = {}
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return out
        text = re.sub(r"#[^\n]*", "", text)
        for m in re.finditer(r"\bConfigureTest\s*\(([^)]*)\)", text):
            words = m.group(1).split()
            opts, files, mode = set(), [], None
            for w in words:
                if w in ("LIB", "EXPLICIT_INSTANTIATE_ONLY", "NOCUDA",
                         "OPTIONAL"):
                    opts.add(w)
                    mode = None
                elif w in ("NAME", "GPUS", "PERCENT", "PATH", "TARGETS",
                           "CONFIGURATIONS"):
                    mode = w
                elif mode == "PATH":
                    files.append(w)
            if "NOCUDA" in opts:
                continue
            for f in files:
                out.setdefault(f, set()).update(opts)
        return out

    def keep(self, rel):
        # Only what a ConfigureTest() builds: cpp/tests also holds stale
        # sources no target lists (ext_headers/*.cu for code now in cuVS).
        return rel.startswith("cpp/tests/") and (
            not self.per_test
            or os.path.relpath(rel, "cpp/tests") in self.per_test)

    def std(self, rel, cuda):
        return "c++20"  # CXX_STANDARD / CUDA_STANDARD 20 on every test

    def flags(self, rel):
        cpp = os.path.join(self.src, "cpp")
        own = "-isystem" if self.args.raft_as_system else "-I"
        out = [own, os.path.join(cpp, "include"),
               "-I" + os.path.join(cpp, "internal"),
               "-I" + os.path.join(cpp, "tests"),
               "-isystem", self.gen,
               "-isystem", os.path.join(self.rmm, "cpp", "include"),
               "-isystem", os.path.join(self.logger, "include"),
               "-DCUDA_API_PER_THREAD_DEFAULT_STREAM",
               "-DRAFT_SYSTEM_LITTLE_ENDIAN=1",
               "-DRAFT_LOG_ACTIVE_LEVEL=RAPIDS_LOGGER_LOG_LEVEL_INFO"]
        opts = self.per_test.get(os.path.relpath(rel, "cpp/tests"), set())
        if "LIB" in opts:
            out.append("-DRAFT_COMPILED")
        if "EXPLICIT_INSTANTIATE_ONLY" in opts:
            out.append("-DRAFT_EXPLICIT_INSTANTIATE_ONLY")
        return out

    def cccl(self):
        if not self.cccl_root:
            return super().cccl()
        return [os.path.join(self.cccl_root, "libcudacxx", "include"),
                os.path.join(self.cccl_root, "cub"),
                os.path.join(self.cccl_root, "thrust")]

    def describe(self):
        return {"rmm": self.rmm, "rapids_logger": self.logger,
                "cccl": self.cccl(), "generated_headers": self.gen}


RECIPES = {r.name: r for r in (Recipe, CudaSamples, Faiss, Raft)}


# ------------------------------------------------------------- the runner --

DIAG = re.compile(
    r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>warning|error|fatal error|note|remark): (?P<msg>.*?)"
    r"(?: \[(?P<checks>[^\]\s]+)\])?$")
BARE = re.compile(r"^(?P<sev>error|fatal error): (?P<msg>.*?)"
                  r"(?: \[(?P<checks>[^\]\s]+)\])?$")
CRASH_MARKS = ("Stack dump:", "PLEASE submit a bug report",
               "Program arguments:", "LLVM ERROR:")


def base_flags(path, args, cccl):
    cuda_path = args.cuda_path
    if path.endswith(CUDA_EXTS):
        out = ["-x", "cuda", "--cuda-path=" + cuda_path, "--cuda-host-only",
               "-nocudalib", "--cuda-gpu-arch=sm_90"]
        for d in cccl:
            out += ["-isystem", d]
        if args.shims.get("minmax"):
            out += ["-include", args.shims["minmax"]]
    else:
        out = ["-x", "c++", "-isystem", os.path.join(cuda_path, "include")]
        for d in cccl:  # CMake's CUDA::cudart adds include/cccl (CUDA 13)
            out += ["-isystem", d]
    if args.shims.get("omp"):
        out += ["-isystem", args.shims["omp"]]
    return out


def make_shims(args):
    """What nvcc and its host GCC give that clang does not (--no-nvcc-shims
    leaves them out): nvcc's __host__ min/max overloads, and omp.h."""
    if args.no_nvcc_shims:
        return {}
    return {"minmax": nvcc_host_minmax_header(),
            "omp": omp_include_dir(args.clang_tidy)}


def file_flags(recipe, rel, args):
    own = getattr(recipe, "entry_flags", None)  # a compile database's recipe
    if own:
        return own(rel) + args.extra_arg
    cuda = rel.endswith(CUDA_EXTS)
    out = base_flags(rel, args, recipe.cccl())
    std = recipe.std(rel, cuda)
    if std:
        out.append("-std=" + std)
    out += recipe.flags(rel)
    out += args.extra_arg
    return out


class PathNamer:
    """Makes diagnostic paths relative to --src (absolute when outside)."""

    def __init__(self, src):
        self.src = os.path.realpath(src)

    def __call__(self, path, cwd):
        p = path if os.path.isabs(path) else os.path.join(cwd, path)
        p = os.path.normpath(p)
        real = os.path.realpath(p) if os.path.exists(p) else p
        if real == self.src or real.startswith(self.src + os.sep):
            return os.path.relpath(real, self.src)
        return real


def parse_output(text, namer, cwd):
    """Diagnostics from clang-tidy's stdout: our warnings and compile errors."""
    warnings, errors = [], []
    current = None  # the diagnostic a following note belongs to
    for line in text.splitlines():
        m = DIAG.match(line)
        if m:
            sev, checks = m.group("sev"), (m.group("checks") or "")
            d = {"path": namer(m.group("path"), cwd),
                 "line": int(m.group("line")), "col": int(m.group("col")),
                 "message": m.group("msg")}
            if sev == "note":
                if current is not None:
                    current.setdefault("notes", []).append(d)
                continue
            if sev in ("error", "fatal error"):
                d["severity"] = sev
                errors.append(d)
                current = None
            elif sev == "warning" and CHECK in checks.split(","):
                d["notes"] = []
                warnings.append(d)
                current = d
            else:
                current = None
            continue
        m = BARE.match(line)
        if m:
            errors.append({"path": None, "line": 0, "col": 0,
                           "message": m.group("msg"),
                           "severity": m.group("sev")})
            current = None
    return warnings, errors


def run_one(rel, recipe, args, namer, env=None):
    path = os.path.join(recipe.src, rel)
    flags = file_flags(recipe, rel, args)
    cmd = [args.clang_tidy, "--load=" + args.plugin,
           "-checks=-*," + CHECK, "--header-filter=.*", "--quiet"]
    if args.config:  # the check's options (StrictMode), as clang-tidy's
        cmd.append("-config=" + args.config)
    cmd += [path, "--"] + flags
    cwd = os.path.dirname(path)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, env=env,
                            stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    wall = time.monotonic() - t0
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    warnings, errors = parse_output(out, namer, cwd)
    rc = proc.returncode
    both = out + "\n" + err
    crashed = (not timed_out) and (
        rc < 0 or any(mark in both for mark in CRASH_MARKS))
    parse_error = bool(errors) or "Found compiler error" in err
    rec = {
        "file": rel,
        "status": ("timeout" if timed_out else "crash" if crashed
                   else "parse-error" if parse_error else "ok"),
        "parse_clean": not parse_error and not crashed and not timed_out,
        "parse_error": parse_error,
        "crash": crashed,
        "timeout": timed_out,
        "returncode": rc,
        "time_s": round(wall, 2),
        "warnings": sorted(warnings, key=warning_key),
        "error_count": len(errors),
        # '#error' and other fatal errors first, errors with no place last
        "first_errors": [fmt_diag(e) for e in sorted(
            errors, key=lambda e: (e["severity"] != "fatal error"
                                   and not e["message"].startswith('"'),
                                   e["path"] is None))[:5]],
    }
    if crashed:
        lines = both.splitlines()
        at = next((i for i, l in enumerate(lines)
                   if any(m in l for m in CRASH_MARKS)), 0)
        rec["crash_excerpt"] = "\n".join(lines[at:at + 25])
        if rc < 0:
            try:
                rec["signal"] = signal.Signals(-rc).name
            except ValueError:
                rec["signal"] = str(-rc)
    return rec


def warning_key(w):
    return (w["path"] or "", w["line"], w["col"], w["message"],
            json.dumps(w.get("notes", []), sort_keys=True))


def fmt_diag(d):
    if d.get("path") is None:
        return "%s: %s" % (d.get("severity", "error"), d["message"])
    return "%s:%d:%d: %s" % (d["path"], d["line"], d["col"], d["message"])


def pick(files, limit):
    """An evenly spaced, deterministic sample of `limit` files."""
    if not limit or limit >= len(files):
        return files
    n = len(files)
    return [files[(i * n) // limit] for i in range(limit)]


def tool_version(clang_tidy):
    try:
        out = subprocess.run([clang_tidy, "--version"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"version (\S+)", out)
    return m.group(1) if m else None


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def unique_warnings(results):
    """Each distinct warning (a header's shows once) -> the files reporting it."""
    seen = {}
    for r in results:
        for w in r["warnings"]:
            key = (w["path"], w["line"], w["col"], w["message"])
            seen.setdefault(key, []).append(r["file"])
    return sorted(seen.items(), key=lambda kv: (kv[0][0] or "",) + kv[0][1:])


def summarize(results):
    n = len(results)
    clean = sum(r["parse_clean"] for r in results)
    uniq = unique_warnings(results)
    return {
        "files": n,
        "parse_clean": clean,
        "parse_clean_rate": round(clean / n, 4) if n else None,
        "parse_errors": sum(r["parse_error"] and not r["crash"]
                            and not r["timeout"] for r in results),
        "crashes": sum(r["crash"] for r in results),
        "timeouts": sum(r["timeout"] for r in results),
        "warnings": sum(len(r["warnings"]) for r in results),
        "unique_warnings": len(uniq),
        "files_with_warnings": sum(bool(r["warnings"]) for r in results),
        "total_time_s": round(sum(r["time_s"] for r in results), 1),
    }, uniq


def print_summary(project, summary, uniq, results, wall, stream):
    p = lambda *a: print(*a, file=stream)
    p("== %s: %d files" % (project, summary["files"]))
    rate = summary["parse_clean_rate"]
    p("parse-clean: %d/%d (%.1f%%)" % (summary["parse_clean"],
                                      summary["files"],
                                      100 * (rate or 0)))
    p("parse errors: %d  crashes: %d  timeouts: %d" % (
        summary["parse_errors"], summary["crashes"], summary["timeouts"]))
    p("warnings: %d (%d unique, in %d files)" % (
        summary["warnings"], summary["unique_warnings"],
        summary["files_with_warnings"]))
    p("time: %.1f s of clang-tidy, %.1f s wall" % (summary["total_time_s"],
                                                   wall))
    bad = [r for r in results if r["status"] != "ok"]
    if bad:
        p("-- not clean:")
        for r in bad:
            why = r.get("signal") or (r["first_errors"][0]
                                      if r["first_errors"] else "")
            p("  %-11s %s  %s" % (r["status"], r["file"], why))
    if uniq:
        p("-- warnings:")
        for (path, line, col, msg), files in uniq:
            extra = "" if files == [path] else "  [from %s%s]" % (
                files[0], " +%d more" % (len(files) - 1) if len(files) > 1
                else "")
            p("%s:%d:%d: %s%s" % (path, line, col, msg, extra))


# ----------------------------------------------------------------- --diff --

def load_results(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        data["results"]
        return data
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("real-code.py: cannot read results %s: %s" % (path, e),
              file=sys.stderr)
        sys.exit(2)


def diff(old_path, new_path):
    old = load_results(old_path)
    new = load_results(new_path)
    o = {r["file"]: r for r in old["results"]}
    n = {r["file"]: r for r in new["results"]}
    changed = 0
    for name in sorted(set(o) | set(n)):
        a, b = o.get(name), n.get(name)
        if a is None or b is None:
            print("%s %s" % ("+" if a is None else "-", name))
            changed += 1
            continue
        if a["status"] != b["status"]:
            print("~ %s: %s -> %s" % (name, a["status"], b["status"]))
            changed += 1
        wa = {json.dumps(w, sort_keys=True) for w in a["warnings"]}
        wb = {json.dumps(w, sort_keys=True) for w in b["warnings"]}
        for w in sorted(wa - wb):
            print("- %s: %s" % (name, fmt_diag(json.loads(w))))
            changed += 1
        for w in sorted(wb - wa):
            print("+ %s: %s" % (name, fmt_diag(json.loads(w))))
            changed += 1
    for k in ("files", "parse_clean", "crashes", "timeouts", "warnings",
              "total_time_s"):
        print("%-14s %s -> %s" % (k, old["summary"].get(k),
                                  new["summary"].get(k)))
    print("%d difference(s)" % changed)
    return 0


# ------------------------------------------------------------------- main --

def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--project", choices=sorted(RECIPES))
    ap.add_argument("--src", help="the project's extracted work tree")
    ap.add_argument("--plugin", default=DEFAULT_PLUGIN)
    ap.add_argument("--clang-tidy", default=DEFAULT_CLANG_TIDY)
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=300,
                    help="per-file limit in seconds (default 300)")
    ap.add_argument("--out", help="write the full results here (JSON)")
    ap.add_argument("--files-limit", type=int, default=0,
                    help="check an evenly spaced sample of N of the files")
    ap.add_argument("--match", help="keep only files whose path relative "
                    "to --src matches this regular expression")
    ap.add_argument("--extra-arg", action="append", default=[],
                    help="one more clang flag for every file (repeatable)")
    ap.add_argument("--rmm", help="raft: rmm's work tree (default ../rmm)")
    ap.add_argument("--rapids-logger",
                    help="raft: rapids-logger's work tree "
                    "(default ../rapids-logger)")
    ap.add_argument("--cccl",
                    help="raft: a CCCL checkout to use instead of the "
                    "toolkit's (default ../cccl when present)")
    ap.add_argument("--raft-as-system", action="store_true",
                    help="raft: its own headers (cpp/include) as -isystem, "
                    "as CMake hands an imported raft to its users")
    ap.add_argument("--no-nvcc-shims", action="store_true",
                    help="leave out the nvcc-compatibility headers (host "
                    "min/max, omp.h) from the base flags")
    ap.add_argument("--summaries", action="store_true",
                    help="summaries across the selected files first (two "
                         "export rounds, as the launcher's fixpoint), then "
                         "the check applying them")
    ap.add_argument("--config", help="a clang-tidy -config= string: the "
                    "check's options, e.g. '{CheckOptions: "
                    "{cuda-async-read-before-sync.StrictMode: true}}'")
    ap.add_argument("--list", action="store_true",
                    help="print each file and its flags, run nothing")
    ap.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"),
                    help="compare two --out files and exit")
    args = ap.parse_args(argv)

    if args.diff:
        return diff(*args.diff)
    if not args.project or not args.src:
        ap.error("--project and --src are required")
    src = os.path.realpath(args.src)
    if not os.path.isdir(src):
        ap.error("--src %s is not a folder" % args.src)
    args.plugin = os.path.abspath(args.plugin)
    if not os.path.isfile(args.plugin):
        ap.error("no plugin at %s" % args.plugin)
    ct = shutil.which(args.clang_tidy) or args.clang_tidy
    if not os.path.isfile(ct):
        ap.error("no clang-tidy at %s" % args.clang_tidy)
    args.clang_tidy = ct
    args.jobs = max(1, args.jobs)

    args.shims = make_shims(args)
    recipe = RECIPES[args.project](args, src)
    files = recipe.select()
    if args.match:
        rx = re.compile(args.match)
        files = [f for f in files if rx.search(f)]
    total = len(files)
    files = pick(files, args.files_limit)
    if args.list:
        for f in files:
            print(f, " ".join(file_flags(recipe, f, args)))
        return 0
    if not files:
        print("real-code: no files selected", file=sys.stderr)

    namer = PathNamer(src)
    results, lock, done = [], threading.Lock(), [0]
    t0 = time.monotonic()
    print("real-code: %s: %d of %d files, %d jobs, timeout %g s, plugin %s"
          % (args.project, len(files), total, args.jobs, args.timeout,
             args.plugin), file=sys.stderr)

    env = None
    if args.summaries:
        scratch = tempfile.mkdtemp(prefix="real-code-summaries-")
        previous = ""
        for n in (1, 2):
            env = dict(os.environ, CARS_SUMMARY_EXPORT_DIRECTORY=os.path.join(
                scratch, str(n)), CARS_SUMMARY_IMPORT_PATHS=previous)
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                list(ex.map(lambda f: run_one(f, recipe, args, namer, env), files))
            previous = os.path.join(scratch, str(n))
            print("real-code: summaries, round %d: %d files" % (
                n, len(os.listdir(previous)) if os.path.isdir(previous) else 0),
                file=sys.stderr)
        env = dict(os.environ, CARS_SUMMARY_IMPORT_PATHS=previous)

    def task(rel):
        rec = run_one(rel, recipe, args, namer, env)
        with lock:
            done[0] += 1
            results.append(rec)
            extra = ""
            if rec["warnings"]:
                extra = "  %d warning(s)" % len(rec["warnings"])
            if rec["status"] == "parse-error" and rec["first_errors"]:
                extra += "  " + rec["first_errors"][0]
            if rec["crash"]:
                extra += "  " + rec.get("signal", "Stack dump")
            print("[%d/%d] %-11s %6.1fs %s%s" % (
                done[0], len(files), rec["status"], rec["time_s"], rel, extra),
                file=sys.stderr, flush=True)
            for w in rec["warnings"]:
                print("    " + fmt_diag(w), file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for fut in [ex.submit(task, f) for f in files]:
            fut.result()
    wall = time.monotonic() - t0
    results.sort(key=lambda r: r["file"])
    summary, uniq = summarize(results)
    print_summary(args.project, summary, uniq, results, wall, sys.stdout)

    if args.out:
        cfg = {
            "project": args.project,
            "src": src,
            "clang_tidy": args.clang_tidy,
            "clang_tidy_version": tool_version(args.clang_tidy),
            "plugin": args.plugin,
            "plugin_sha256": sha256(args.plugin),
            "summaries": args.summaries,
            "check_config": args.config,
            "cuda_path": args.cuda_path,
            "jobs": args.jobs,
            "timeout_s": args.timeout,
            "files_selected": total,
            "files_limit": args.files_limit,
            "match": args.match,
            "extra_args": args.extra_arg,
            "nvcc_shims": not args.no_nvcc_shims,
            "recipe": recipe.describe(),
            # the flags of the first file, with --src shown as <src>
            "example_flags": [a.replace(src, "<src>") for a in
                              file_flags(recipe, files[0], args)]
            if files else [],
        }
        doc = {"config": cfg, "summary": summary,
               "unique_warnings": [
                   {"path": k[0], "line": k[1], "col": k[2],
                    "message": k[3], "files": v} for k, v in uniq],
               "results": results}
        tmp = args.out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, args.out)
        print("results: %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
