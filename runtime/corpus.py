#!/usr/bin/env python3
"""The runtime corpus (runtime/cases/) and the checker run on it.

What runtime/agree.py and runtime/fixits.py share: a case's markers (Case:
`// access: <id>`, `// copy: <id>`, CHECK lines, `rt-not-modelled:`,
`rt-conditional:`, `rt-per-thread-default-stream`, `semantics.md row:`,
`rt-parts:`), the tools it needs (nvcc, clang-tidy 22,
PyTorch, the GPU), a thread pool with progress lines, and the check run on
each case with the same command line as its lit RUN lines. A case with
`// rt-parts: parts/<unit>.cu` lines is a program of several translation
units: the parts are built into it, and the check reads them through
summaries exported from each part (SummaryExportDirectory) and imported
into the case's run (SummaryImportPaths), as the gate does.

Python 3 standard library only.
"""

import concurrent.futures as cf
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CASES_DIR = os.path.join(HERE, "cases")
CHECK_NAME = "cuda-async-read-before-sync"

WARNING_RE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): warning: (?P<msg>.* before the "
    r"asynchronous device-to-host copy into it is known to be complete) "
    r"\[cuda-async-read-before-sync\]\s*$")
# The producer diagnostic, at a copy.
PRODUCER_WARNING_RE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): warning: (?P<msg>the (asynchronous|blocking) "
    r"device-to-host copy of .* may read it before the work that writes it on .* has "
    r"finished) \[cuda-async-read-before-sync\]\s*$")
ACCESS_RE = re.compile(r"(?://|#)\s*access:\s*([A-Za-z0-9_.-]+)")
COPY_RE = re.compile(r"(?://|#)\s*copy:\s*([A-Za-z0-9_.-]+)")
CHECK_RE = re.compile(r"(?://|#)\s*CHECK(?:-MESSAGES)?:\s*:\[\[@LINE(?P<off>[+-]\d+)?\]\]:.*warning:")
PYTHON_FRONT_END = os.path.join(REPO, "checker", "python")
NOT_MODELLED_RE = re.compile(r"(?://|#)\s*rt-not-modelled:\s*(.*\S)")
# The check's warning is a conditional claim (its note names what would order
# the code), and in this program that condition holds: the GPU sees fresh data.
# Built with per-thread default streams: nvcc --default-stream per-thread, and
# the check given -DCUDA_API_PER_THREAD_DEFAULT_STREAM (the RUN line says so).
PER_THREAD_RE = re.compile(r"(?://|#)\s*rt-per-thread-default-stream\s*$")
CONDITIONAL_RE = re.compile(r"(?://|#)\s*rt-conditional:\s*(.*\S)")
ROW_RE = re.compile(r"(?://|#)\s*semantics\.md row:\s*(.*\S)")
# A second translation unit of the case, relative to runtime/cases/.
PARTS_RE = re.compile(r"//\s*rt-parts:\s*(\S+)")
DRIVER_API_RE = re.compile(r"^\s*#\s*include\s*<cuda\.h>", re.M)
# The CUDA math libraries a case includes, and the library nvcc links for each.
LIBRARY_INCLUDES = [(re.compile(r"^\s*#\s*include\s*<%s>" % re.escape(h), re.M), lib)
                    for h, lib in (("cublas_v2.h", "-lcublas"), ("cusparse.h", "-lcusparse"),
                                   ("cufft.h", "-lcufft"),
                                   ("cusolverDn.h", "-lcusolver"))]
TORCH_API_INCLUDE = "/usr/include/torch/csrc/api/include"
TORCH_STANDIN = os.path.join(REPO, "test", "Inputs", "torch-real-standin")
RT_LINE_RE = re.compile(
    r"^RT access=(?P<id>\S+) stale=(?P<stale>\d+) fresh=(?P<fresh>\d+) "
    r"other=(?P<other>\d+) total=(?P<total>\d+)\s*$")


# ---------------------------------------------------------------------------
# The corpus

class Case:
    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        # .cu: CUDA C++ on rt.h, built with nvcc; .cpp: libtorch C++ on
        # rt_torch.h, built with g++ against PyTorch.
        self.torch = path.endswith(".cpp")
        # .py: a PyTorch program, run by the Python that imports torch.
        self.python = path.endswith(".py")
        self.accesses = []          # [(id, line)]
        self.copies = []            # [(id of the access observing it, line)]
        self.expected_lines = set()  # lines a CHECK pins a warning to
        self.not_modelled = None
        self.conditional = None
        self.per_thread = False
        self.row = None
        self.parts = []             # other translation units (rt-parts:)
        with open(path, encoding="utf-8") as f:
            for no, text in enumerate(f, 1):
                m = ACCESS_RE.search(text)
                if m:
                    self.accesses.append((m.group(1), no))
                m = COPY_RE.search(text)
                if m:
                    self.copies.append((m.group(1), no))
                m = CHECK_RE.search(text)
                if m:
                    self.expected_lines.add(no + int(m.group("off") or 0))
                m = NOT_MODELLED_RE.search(text)
                if m:
                    self.not_modelled = m.group(1)
                if PER_THREAD_RE.search(text):
                    self.per_thread = True
                m = CONDITIONAL_RE.search(text)
                if m:
                    self.conditional = m.group(1)
                m = ROW_RE.search(text)
                if m and self.row is None:
                    self.row = m.group(1)
                m = PARTS_RE.search(text)
                if m:
                    self.parts.append(os.path.join(CASES_DIR, m.group(1)))

    def line_of(self, access_id):
        for i, line in self.accesses:
            if i == access_id:
                return line
        return None

    def lines_of(self, access_id):
        """The access's line and the lines of copies its value comes from."""
        return {l for i, l in self.accesses + self.copies if i == access_id}

    def marked_lines(self):
        return {l for _, l in self.accesses + self.copies}

    def racy_by_expectation(self):
        return bool(self.expected_lines & self.marked_lines()) or self.not_modelled is not None



def case_text(case):
    with open(case.path, encoding="utf-8") as f:
        return f.read()


def load_cases(patterns):
    paths = sorted(glob.glob(os.path.join(CASES_DIR, "*.cu"))
                   + glob.glob(os.path.join(CASES_DIR, "*.cpp"))
                   + glob.glob(os.path.join(CASES_DIR, "*.py")))
    if patterns:
        paths = [p for p in paths
                 if any(fnmatch.fnmatch(os.path.splitext(os.path.basename(p))[0], pat)
                        for pat in patterns)]
    return [Case(p) for p in paths]


# ---------------------------------------------------------------------------
# Tools

def run(cmd, timeout=None, env=None, cwd=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=env, cwd=cwd,
                           universal_newlines=True, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        err = e.stderr or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        if isinstance(err, bytes):
            err = err.decode(errors="replace")
        return 124, out, err + "\n[timed out after %ss]" % timeout
    except OSError as e:
        return 127, "", str(e)


def find_nvcc(explicit):
    for cand in [explicit, os.environ.get("NVCC"),
                 shutil.which("nvcc"),
                 os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc"),
                 "/usr/local/cuda/bin/nvcc"] + sorted(glob.glob("/usr/local/cuda-*/bin/nvcc")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def find_clang_tidy(explicit):
    for cand in [explicit, os.environ.get("CLANG_TIDY"),
                 "/usr/lib/llvm-22/bin/clang-tidy", shutil.which("clang-tidy-22")]:
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def find_torch(python):
    """What the .cpp cases build against: {dir, version, abi, cudart} of the
    PyTorch that `python -c "import torch"` finds, or None. cudart is the
    libcudart that torch itself loaded (read from /proc/self/maps), so the
    cases link the same one."""
    code = ("import os, torch\n"
            "m = [l.split()[-1] for l in open('/proc/self/maps') if 'libcudart.so' in l]\n"
            "print('CARS-TORCH', os.path.dirname(torch.__file__), torch.__version__,\n"
            "      int(torch.compiled_with_cxx11_abi()), m[0] if m else '-')\n")
    rc, out, _ = run([python, "-c", code], timeout=300)
    for line in out.splitlines():
        f = line.split()
        if rc == 0 and len(f) == 5 and f[0] == "CARS-TORCH":
            d = f[1]
            if os.path.isdir(os.path.join(d, "include", "torch", "csrc", "api", "include")):
                return {"dir": d, "version": f[2], "abi": f[3],
                        "cudart": "" if f[4] == "-" else f[4]}
    return None


def detect_gpu():
    """(name, driver) of GPU 0, or None."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    rc, out, _ = run([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     timeout=60)
    if rc != 0 or not out.strip():
        return None
    name, _, driver = out.strip().splitlines()[0].rpartition(",")
    return name.strip(), driver.strip()


def slug(gpu, driver):
    s = re.sub(r"[^A-Za-z0-9.]+", "_", gpu).strip("_")
    return "%s_driver-%s" % (s, re.sub(r"[^A-Za-z0-9.]+", "_", driver))


def parallel(fn, items, jobs, label=None):
    """fn over items on `jobs` threads, results in the items' order. With a
    label, one progress line per finished item ("  nvcc 12/91 name"), so
    that a long build or checker pass is not silent."""
    items = list(items)
    with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futures = {ex.submit(fn, item): k for k, item in enumerate(items)}
        results = [None] * len(items)
        for done, fut in enumerate(cf.as_completed(futures), 1):
            k = futures[fut]
            results[k] = fut.result()
            if label:
                name = getattr(items[k], "name", None) or getattr(items[k][0], "name", "")
                print("  %s %d/%d %s" % (label, done, len(items), name), flush=True)
        return results


def format_rows(head, rows):
    widths = [max(len(str(r[i])) for r in list(rows) + [head]) for i in range(len(head))]
    out = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |",
           "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Checker

def tidy_command(case, clang_tidy, plugin, cuda_path, extra):
    """The same command line as the lit RUN lines (%clang_tidy_cars ... --
    %cuda_real_flags, or the libtorch flags of the .cpp cases)."""
    if case.python:  # the Python front end, as the launcher runs it, with the module it imports
        return [sys.executable, "-m", "cars_python", "--quiet", case.path,
                os.path.join(HERE, "rt_torch.py")]
    cmd = [clang_tidy, "--quiet", "--load=" + plugin, "-checks=-*," + CHECK_NAME] + extra
    if case.torch:
        return cmd + [case.path, "--", "-x", "c++", "-std=c++17", "-isystem", TORCH_API_INCLUDE,
                      "-isystem", TORCH_STANDIN, "-isystem", os.path.join(cuda_path, "include"),
                      "-I" + HERE]
    return cmd + [case.path, "--", "-x", "cuda", "--cuda-path=" + cuda_path, "--cuda-host-only",
                  "-nocudalib", "--cuda-gpu-arch=sm_90", "-isystem",
                  os.path.join(cuda_path, "include", "cccl"), "-Wno-unknown-cuda-version",
                  "-I" + HERE] + (["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"] if case.per_thread else [])


def summary_env(case, clang_tidy, plugin, cuda_path, extra, directory):
    """The environment the check runs a case in. For a case of several
    units (rt-parts:), each part's summaries are first exported into
    directory (the check with CARS_SUMMARY_EXPORT_DIRECTORY, the command the
    gate runs), and the case's run imports them (CARS_SUMMARY_IMPORT_PATHS).
    Returns (env or None, the export log); a part that fails to export
    leaves its functions opaque, and its log says why."""
    if case.python:
        return dict(os.environ, PYTHONPATH=PYTHON_FRONT_END), ""
    if not case.parts:
        return None, ""
    logs = []
    for part in case.parts:
        cmd = tidy_command(Case(part), clang_tidy, plugin, cuda_path, extra)
        rc, out, err = run(cmd, timeout=300,
                           env=dict(os.environ, CARS_SUMMARY_EXPORT_DIRECTORY=directory))
        logs.append("$ CARS_SUMMARY_EXPORT_DIRECTORY=%s %s\n%s%s" % (directory, " ".join(cmd),
                                                                   out, err))
    return dict(os.environ, CARS_SUMMARY_IMPORT_PATHS=directory), "".join(logs)


def run_checker(cases, clang_tidy, plugin, cuda_path, jobs, extra):
    """Returns {case name: (ok, {line: [messages]}, log)}."""

    def one(case):
        cmd = tidy_command(case, clang_tidy, plugin, cuda_path, extra)
        with tempfile.TemporaryDirectory(prefix="cars-rt-summaries-") as directory:
            env, log = summary_env(case, clang_tidy, plugin, cuda_path, extra, directory)
            rc, out, err = run(cmd, timeout=300, env=env)
        warned = {}
        for line in out.splitlines():
            m = WARNING_RE.match(line) or PRODUCER_WARNING_RE.match(line)
            if m and os.path.realpath(m.group("file")) == os.path.realpath(case.path):
                warned.setdefault(int(m.group("line")), []).append(m.group("msg"))
        ok = rc == 0 and not re.search(r"(^|: )error: ", out + err, re.M)
        return case.name, (ok, warned, "%s$ %s\n%s%s" % (log, " ".join(cmd), out, err))

    return dict(parallel(one, cases, jobs, label="checker"))
