#!/usr/bin/env python3
"""Agreement between cuda-async-read-before-sync and what a GPU shows.

Every runtime/cases/*.cu is a complete CUDA program, every
runtime/cases/*.cpp a complete libtorch C++ program and every
runtime/cases/*.py a complete PyTorch program (on rt_torch.py, checked by
the check's Python front end, checker/python), whose host accesses are marked
`// access: <id>` (`# access: <id>`); a device-to-host copy that may read its source
before the work writing it (the check's producer diagnostic, warned at the
copy) is marked `// copy: <id>` with the id of the access that observes
what it copied. This script

  1. builds every case: the .cu cases with nvcc, the .cpp (libtorch) cases
     with g++ against the PyTorch that `python3 -c "import torch"` finds
     (linked executables where a GPU is present, compile-only objects where
     not; without an importable PyTorch the .cpp builds are skipped),
  2. on a GPU: runs every case N times and records, per access, how often it
     saw stale data; the result goes to results/<gpu>_driver-<version>.json,
  3. runs the checker on every case (the .cpp cases against Debian's
     libtorch-dev headers, where installed; otherwise they are skipped; the
     .py cases with the Python front end),
  4. prints the agreement table: case, access, line, expected, warned?,
     stale k/N, verdict, one table per GPU result (the fresh measurement on a
     GPU; every committed results/*.json without one),

and exits non-zero on any disagreement. Agreement: every warned access was
stale in at least one run, every silent marked access never was. Cases that
carry `// rt-not-modelled: <why>` are listed apart and do not fail the run.

Python 3 standard library only. `--help` lists the options; README.md says
how it is used in CI and on a GPU machine. The cases and the checker run on
them are runtime/corpus.py's; the fix-it round is runtime/fixits.py's.
"""

import argparse
import datetime
import concurrent.futures as cf
import glob
import hashlib
import json
import os
import re
import shutil
import sys

from corpus import (CASES_DIR, DRIVER_API_RE, HERE, LIBRARY_INCLUDES, REPO, RT_LINE_RE,
                    TORCH_API_INCLUDE, case_text, detect_gpu, find_clang_tidy, find_nvcc, find_torch,
                    format_rows, load_cases, parallel, run, run_checker, slug)
from fixits import fixed_cases, fixit_verdicts, format_fixit_table, load_fixed, make_fixed

sys.path.insert(0, os.path.join(REPO, "tools"))
from cars_compdb import cuda_root_of  # noqa: E402  (the launcher's own lookup)


# ---------------------------------------------------------------------------
# Build

def torch_build_command(case, torch, cxx, cuda_path, out, link):
    """g++ against PyTorch's own headers and libraries: the command line a
    libtorch user writes (README.md, examples/libtorch_*.cpp)."""
    t = torch["dir"]
    cmd = [cxx, "-std=" + os.environ.get("CARS_TORCH_CXX_STD", "c++17"), "-O1",
           "-D_GLIBCXX_USE_CXX11_ABI=" + torch["abi"], "-I" + HERE,
           "-isystem", os.path.join(t, "include"),
           "-isystem", os.path.join(t, "include", "torch", "csrc", "api", "include"),
           "-isystem", os.path.join(cuda_path, "include"), case.path, "-o", out]
    if not link:
        cmd.insert(1, "-c")
        return cmd
    lib = os.path.join(t, "lib")
    cmd += ["-L" + lib, "-Wl,--no-as-needed", "-ltorch", "-ltorch_cpu", "-ltorch_cuda",
            "-lc10", "-lc10_cuda", "-Wl,--as-needed", "-Wl,-rpath," + lib]
    if torch["cudart"] and os.path.exists(torch["cudart"]):
        cmd += [torch["cudart"], "-Wl,-rpath," + os.path.dirname(torch["cudart"])]
    else:
        cmd += ["-L" + os.path.join(cuda_path, "lib64"), "-lcudart"]
    return cmd


def build(cases, nvcc, build_dir, link, jobs, arch, torch=None, cxx="g++", cuda_path=None):
    """Returns {case name: (ok, path or log)}; ok is None for a .cpp case with
    no PyTorch to build against (skipped). Cached by a hash of the inputs."""
    sub = "bin" if link else "obj"
    os.makedirs(os.path.join(build_dir, sub), exist_ok=True)
    harness = {}
    for h in ("rt.h", "rt_torch.h"):
        with open(os.path.join(HERE, h), "rb") as f:
            harness[h] = f.read()

    def one(case):
        out = os.path.join(build_dir, sub, case.name + ("" if link else ".o"))
        if case.python:  # nothing to build; run where PyTorch imports
            if torch is None:
                return case.name, (None, "skipped: no PyTorch to run it")
            return case.name, (True, case.path)
        if case.torch:
            if torch is None:
                return case.name, (None, "skipped: no libtorch to compile against")
            cmd = torch_build_command(case, torch, cxx, cuda_path, out, link)
            return case.name, compile_cached(case, cmd, out, harness["rt_torch.h"])
        cmd = [nvcc, "-arch=" + arch, "-O2", "-std=c++17", "-I" + HERE, case.path] + case.parts + [
            "-o", out]
        if case.per_thread:
            cmd[1:1] = ["--default-stream", "per-thread"]
        if link:
            text = case_text(case)
            if DRIVER_API_RE.search(text):
                stubs = os.path.join(cuda_path, "lib64", "stubs")
                cmd += ["-L" + stubs, "-lcuda"]
            cmd += [lib for rx, lib in LIBRARY_INCLUDES if rx.search(text)]
        elif not case.parts:  # nvcc compiles one unit per -c; several are linked
            cmd.insert(1, "-c")
        return case.name, compile_cached(case, cmd, out, harness["rt.h"] + parts_text(case))

    return dict(parallel(one, cases, jobs, label="build"))


def parts_text(case):
    """The contents of a case's other units and of the headers beside them
    (what its build depends on besides the case and the harness)."""
    data = b""
    for d in sorted({os.path.dirname(p) for p in case.parts}):
        for f in sorted(glob.glob(os.path.join(d, "*"))):
            with open(f, "rb") as fh:
                data += f.encode() + fh.read()
    return data


def compile_cached(case, cmd, out, harness):
    """Runs cmd unless out was built from the same case, harness and command."""
    with open(case.path, "rb") as f:
        h = hashlib.sha256(f.read() + harness + " ".join(cmd).encode()).hexdigest()
    stamp = out + ".sha256"
    if os.path.exists(out) and os.path.exists(stamp):
        with open(stamp) as f:
            if f.read().strip() == h:
                return True, out
    rc, so, se = run(cmd, timeout=600)
    if rc != 0:
        return False, "$ %s\n%s%s" % (" ".join(cmd), so, se)
    with open(stamp, "w") as f:
        f.write(h + "\n")
    return True, out


# ---------------------------------------------------------------------------
# GPU runs

def run_on_gpu(cases, built, reps, log, python="python3"):
    measured = {}
    for case in cases:
        ok, exe = built[case.name]
        if ok is None:
            continue  # skipped: nothing to measure, nothing recorded
        if not ok:
            measured[case.name] = {"exit": None, "error": "build failed", "accesses": {}}
            continue
        cmd = ([python, exe] if case.python else [exe]) + ["-n", str(reps)]
        rc, out, err = run(cmd, timeout=180 if case.torch or case.python else 120)
        if rc == 0 and any(l.startswith("RT skip:") for l in out.splitlines()):
            log("  %-40s %s" % (case.name, next(l for l in out.splitlines()
                                                 if l.startswith("RT skip:"))))
            continue  # too few GPUs here: the record of a machine with them stays
        acc = {}
        for line in out.splitlines():
            m = RT_LINE_RE.match(line.strip())
            if m:
                acc[m.group("id")] = {k: int(m.group(k)) for k in ("stale", "fresh", "other", "total")}
        measured[case.name] = {"exit": rc, "accesses": acc}
        if rc != 0:
            measured[case.name]["error"] = (err.strip() or out.strip())[-2000:]
        log("  %-40s rc=%d %s" % (case.name, rc, " ".join(
            "%s=%d/%d" % (k, v["stale"] + v["other"], v["total"]) for k, v in acc.items())))
    return measured


SANITIZERS = [
    ("memcheck", ["--tool", "memcheck", "--track-stream-ordered-races", "all"]),
    ("racecheck", ["--tool", "racecheck"]),
    ("synccheck", ["--tool", "synccheck"]),
]


def sanitize(cases, built, measured, jobs):
    """compute-sanitizer on the racy cases. Returns (summary rows, full log)."""
    cs = shutil.which("compute-sanitizer")
    if not cs:
        for p in (["/usr/local/cuda/bin/compute-sanitizer",
                   "/usr/local/cuda/compute-sanitizer/compute-sanitizer"]
                  + sorted(glob.glob("/usr/local/cuda*/bin/compute-sanitizer"))):
            if os.path.exists(p):
                cs = p
    if not cs:
        return [], "compute-sanitizer not found\n"

    def racy(case):
        if case.racy_by_expectation():
            return True
        m = measured.get(case.name, {}).get("accesses", {})
        return any(v["stale"] + v["other"] > 0 for v in m.values())

    # Not the libtorch cases: PyTorch's start-up under the tools takes minutes.
    jobs_list = [(c, tool, args) for c in cases
                 if not c.torch and not c.python and racy(c) and built[c.name][0]
                 for tool, args in SANITIZERS]

    def one(item):
        case, tool, args = item
        cmd = [cs] + args + [built[case.name][1], "-n", "1"]
        rc, out, err = run(cmd, timeout=90)
        text = out + err
        if tool == "memcheck" and re.search(r"(?i)unrecognized|invalid.*track-stream", text):
            cmd = [cs] + ["--tool", "memcheck", "--track-stream-ordered-races", "yes",
                          built[case.name][1], "-n", "1"]
            rc, out, err = run(cmd, timeout=90)
            text = out + err
        m = re.search(r"(ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY)[^\n]*", text)
        summary = m.group(0) if m else "(no summary line)"
        rt = [l for l in text.splitlines() if l.startswith("RT access=")]
        return (case.name, tool, rc, summary, " ".join(
            "%s" % l[len("RT access="):].split()[0] + ":" + l.split("stale=")[1].split()[0]
            + "/" + l.split("total=")[1] for l in rt), "$ %s\n%s" % (" ".join(cmd), text))

    results = parallel(one, jobs_list, jobs)
    rows = [(n, t, rc, s, rt) for n, t, rc, s, rt, _ in results]
    log = "\n".join(r[5] for r in results)
    return rows, log


# ---------------------------------------------------------------------------
# The table

def verdicts(cases, gpu_cases, checker):
    """Rows and problem lists for one GPU result (gpu_cases: name -> record)."""
    rows, problems, not_modelled = [], [], []
    for case in cases:
        g = gpu_cases.get(case.name)
        chk = checker.get(case.name) if checker is not None else None
        marked = case.marked_lines()
        if chk is not None:
            ok, warned, _ = chk
            if not ok:
                problems.append("%s: the checker failed on this case (run with -v for its log)" % case.name)
            for line in sorted(set(warned) - marked):
                problems.append("%s:%d: warning on a line with no `// access:` or `// copy:` marker" % (case.name, line))
        for line in sorted(case.expected_lines - marked):
            problems.append("%s:%d: a CHECK line pins a warning to a line with no `// access:` or `// copy:` marker"
                            % (case.name, line))
        if not case.accesses:
            problems.append("%s: no `// access:` marker" % case.name)
        for aid, line in case.accesses:
            lines = case.lines_of(aid)
            expect = bool(lines & case.expected_lines)
            warned_here = None
            if chk is not None:
                warned_here = bool(lines & set(chk[1]))
            stale = total = None
            if g is not None and aid in g.get("accesses", {}):
                a = g["accesses"][aid]
                stale, total = a["stale"] + a.get("other", 0), a["total"]
            if stale is None or total == 0:
                verdict = "NO-GPU-DATA"
                err = (g or {}).get("error") or ""
                problems.append("%s/%s: no GPU measurement%s" % (
                    case.name, aid, "" if g is None else " (case exit %s%s)" % (
                        g.get("exit"), (": " + err.splitlines()[-1]) if err.strip() else "")))
            else:
                gpu_stale = stale > 0
                basis = warned_here if warned_here is not None else expect
                agree = basis == gpu_stale
                verdict = "agree" if agree else "DISAGREE"
                # A conditional claim whose condition holds here: a warning
                # and fresh data agree.
                conditional = case.conditional is not None and basis and not gpu_stale
                if conditional:
                    agree, verdict = True, "agree (condition holds)"
                if case.not_modelled is not None:
                    verdict = "not-modelled" if not agree else "agree (not-modelled)"
                    if not agree:
                        not_modelled.append("%s/%s: GPU stale %d/%d, checker %s -- %s" % (
                            case.name, aid, stale, total,
                            "warned" if basis else "silent", case.not_modelled))
                elif not agree:
                    problems.append("%s:%d (%s): %s, but the GPU saw stale data in %d/%d runs" % (
                        case.name, line, aid,
                        ("the checker " if warned_here is not None else "the expectation ")
                        + ("warns" if basis else "is silent"), stale, total))
                if case.not_modelled is None and expect != gpu_stale and not (
                        conditional and expect):
                    problems.append("%s:%d (%s): the file's CHECK lines %s a warning, but the GPU saw "
                                    "stale data in %d/%d runs" % (
                                        case.name, line, aid, "expect" if expect else "do not expect",
                                        stale, total))
                    if verdict == "agree":
                        verdict = "agree (CHECK differs)"
            rows.append((case.name, aid, line, "warn" if expect else "silent",
                         "-" if warned_here is None else ("yes" if warned_here else "no"),
                         "-" if stale is None else "%d/%d" % (stale, total), verdict))
    return rows, problems, not_modelled


def format_table(rows):
    head = ("case", "access", "line", "expected", "warned?", "stale k/N", "verdict")
    return format_rows(head, rows)



def coverage(cases, semantics):
    """Rows of semantics.md's table that no case names in `semantics.md row:`."""
    rows = []
    with open(semantics, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*$", line)
            if m and not m.group(1).startswith(("pattern", "---")) and not set(m.group(1)) <= set("-"):
                rows.append(m.group(1))
    named = [c.row or "" for c in cases]
    missing = [r for r in rows if not any(n == r or n.startswith(r + " (") for n in named)]
    return rows, missing


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--gpu", action="store_true", help="require a GPU (default: use one if nvidia-smi sees one)")
    g.add_argument("--no-gpu", action="store_true", help="compile only and compare with results/*.json")
    ap.add_argument("--reps", type=int, default=5, help="repetitions per case on the GPU (default 5)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="parallel builds / checker runs")
    ap.add_argument("--cases", nargs="*", help="only cases whose name matches one of these globs")
    ap.add_argument("--nvcc", help="nvcc to build with (default: $NVCC, PATH, /usr/local/cuda/bin/nvcc)")
    ap.add_argument("--arch", default="sm_90", help="nvcc -arch (default sm_90)")
    ap.add_argument("--cuda-path", help="CUDA toolkit root for clang's --cuda-path (default: the "
                    "toolkit nvcc compiles against, found as the launcher finds it)")
    ap.add_argument("--clang-tidy", help="clang-tidy 22 (default: /usr/lib/llvm-22/bin/clang-tidy)")
    ap.add_argument("--plugin", default=os.environ.get(
        "CARS_PLUGIN", os.path.join(REPO, "build", "checker", "CudaAsyncReadBeforeSync.so")),
                    help="the check's plugin (default: ../build/checker/CudaAsyncReadBeforeSync.so)")
    ap.add_argument("--tidy-arg", action="append", default=[], help="extra clang-tidy argument (repeatable)")
    ap.add_argument("--no-checker", action="store_true",
                    help="skip the checker (a GPU machine without clang-tidy 22): "
                         "the table then compares the files' CHECK lines with the GPU")
    ap.add_argument("--python", default=os.environ.get("CARS_PYTHON", "python3"),
                    help="the python whose PyTorch the .cpp (libtorch) cases build against "
                         "(default: $CARS_PYTHON or python3)")
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"),
                    help="C++ compiler for the .cpp cases (default: $CXX or g++)")
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--results-dir", default=os.path.join(HERE, "results"),
                    help="where GPU results are read from and written to")
    ap.add_argument("--sanitize", action="store_true",
                    help="on a GPU: also run compute-sanitizer (memcheck, racecheck, synccheck) on the racy cases")
    ap.add_argument("--write-tables", action="store_true",
                    help="rewrite results/<gpu>.md from each committed results/<gpu>.json and this checker")
    ap.add_argument("--semantics", help="semantics.md: report its rows that no case covers")
    ap.add_argument("--no-fixits", action="store_true",
                    help="skip the fix-it loop (apply each warned case's note fixes, check the copy "
                         "silent, and on a GPU run it: every access must read fresh data)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print build and checker logs of failures")
    args = ap.parse_args()

    def log(msg):
        print(msg, flush=True)

    cases = load_cases(args.cases)
    if not cases:
        log("no cases under %s" % CASES_DIR)
        return 2
    failures = []

    nvcc = find_nvcc(args.nvcc)
    if not nvcc:
        log("error: nvcc not found (pass --nvcc or set NVCC)")
        return 2
    cuda_path = args.cuda_path or cuda_root_of(nvcc)
    if not os.path.isfile(os.path.join(cuda_path, "include", "cuda_runtime.h")):
        log("error: no CUDA toolkit headers at %s/include (pass --cuda-path)" % cuda_path)
        return 2
    gpu = None if args.no_gpu else detect_gpu()
    if args.gpu and not gpu:
        log("error: --gpu given, but nvidia-smi sees no GPU")
        return 2
    link = gpu is not None
    log("== %d cases; %s; nvcc %s; CUDA headers for clang: %s"
        % (len(cases), "GPU: %s, driver %s" % gpu if gpu else "no GPU", nvcc, cuda_path))
    torch_cases = [c for c in cases if c.torch]
    py_cases = [c for c in cases if c.python]
    torch = find_torch(args.python) if torch_cases or py_cases else None
    if torch_cases:
        log("== %d libtorch cases; %s" % (len(torch_cases), (
            "PyTorch %s at %s (g++ builds against it)" % (torch["version"], torch["dir"]))
            if torch else "no PyTorch importable by %s: their builds are skipped" % args.python))
    # The checker parses the libtorch cases with Debian's libtorch-dev headers.
    torch_headers = os.path.exists(os.path.join(TORCH_API_INCLUDE, "torch", "torch.h"))
    chk_cases = [c for c in cases if not c.torch or torch_headers]

    # 1. build (and, in parallel, the checker)
    checker = None
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        fut_build = ex.submit(build, cases, nvcc, args.build_dir, link, args.jobs, args.arch,
                              torch, args.cxx, cuda_path)
        fut_chk = None
        if not args.no_checker:
            tidy = find_clang_tidy(args.clang_tidy)
            if not tidy:
                log("error: clang-tidy 22 not found (pass --clang-tidy, or --no-checker)")
                return 2
            if not os.path.isfile(args.plugin):
                log("error: plugin %s not found: build it first (cmake -S %s -B %s/build && "
                    "cmake --build %s/build), or pass --plugin / --no-checker"
                    % (args.plugin, REPO, REPO, REPO))
                return 2
            fut_chk = ex.submit(run_checker, chk_cases, tidy, args.plugin, cuda_path, args.jobs,
                                args.tidy_arg)
        built = fut_build.result()
        if fut_chk:
            checker = fut_chk.result()
    # 1b. the fix-it loop: each warned case with its note fixes applied
    fixed_dir = os.path.join(args.build_dir, "fixed")
    manifest, fcases, fbuilt = None, [], {}
    if not args.no_fixits:
        if checker is not None:
            manifest = make_fixed(chk_cases, checker, tidy, args.plugin, cuda_path, args.jobs,
                                  args.tidy_arg, fixed_dir)
        else:
            manifest = load_fixed(fixed_dir)
            if manifest is None:
                log("== fix-its: no fixed copies under %s (the checker writes them; copy that "
                    "folder here from a machine with clang-tidy 22): fix-it table skipped" % fixed_dir)
        if manifest is not None:
            fcases = fixed_cases(manifest, fixed_dir, args.cases)
            fbuilt = build(fcases, nvcc, os.path.join(args.build_dir, "fixed-build"), link,
                           args.jobs, args.arch, torch, args.cxx, cuda_path)
            nfix = sum(1 for m in manifest.values() if m["fixes"])
            log("== fix-its: %d of %d warned cases have one; the checker is silent on %d fixed "
                "copies; %d of %d fixed copies built, %d skipped (no PyTorch)" % (
                    nfix, len(manifest),
                    sum(1 for m in manifest.values() if m["fixes"] and m["ok"] and not m["warnings"]),
                    sum(1 for ok, _ in fbuilt.values() if ok), len(fbuilt),
                    sum(1 for ok, _ in fbuilt.values() if ok is None)))
            for n, (ok, text) in sorted(fbuilt.items()):
                if ok is False:
                    failures.append("%s: the fixed copy failed to build" % n)
                    log("  fixed copy failed to build: %s\n%s" % (n, text[-3000:]))
    kind = {c.name: ("g++" if c.torch else "python" if c.python else "nvcc") for c in cases}
    skipped = sorted(n for n, (ok, _) in built.items() if ok is None)
    nbad = [n for n, (ok, _) in built.items() if ok is False]
    for tool, mine in (("nvcc", [c for c in cases if not c.torch and not c.python]),
                       ("g++ for libtorch", torch_cases), ("python (nothing to build)", py_cases)):
        if not mine:
            continue
        todo = [c for c in mine if c.name not in skipped]
        if not todo:
            log("== %s: skipped for %d cases: no PyTorch to build against or run them"
                % (tool, len(mine)))
            continue
        bad = [c for c in todo if c.name in nbad]
        log("== %s (%s): %d/%d built" % (tool, "linked" if link else "compile only",
                                          len(todo) - len(bad), len(todo)))
    for n in nbad:
        failures.append("%s: %s failed" % (n, kind[n]))
        log("  %s failed: %s\n%s" % (kind[n], n, built[n][1] if args.verbose else built[n][1][-3000:]))
    if checker is not None:
        nwarn = sum(len(v[1]) for v in checker.values())
        log("== checker: %d warnings on %d cases" % (nwarn, len(chk_cases)))
        if py_cases:
            log("== checker: %d Python cases checked by the Python front end (checker/python)"
                % len(py_cases))
        if len(chk_cases) < len(cases):
            log("== checker: skipped for %d libtorch cases: no libtorch headers (%s); "
                "their table rows compare the CHECK lines with the GPU"
                % (len(cases) - len(chk_cases),
                   os.path.join(TORCH_API_INCLUDE, "torch", "torch.h")))
        failed_logs = [text for _, (ok, _, text) in sorted(checker.items()) if not ok]
        if failed_logs:
            # Without -v, the first failure's log still shows (CI prints only this).
            log("== checker failed on %d cases; %s" % (
                len(failed_logs), "their logs:" if args.verbose else "the first one's log (-v: all):"))
            for text in failed_logs if args.verbose else failed_logs[:1]:
                log(text if args.verbose else text[-3000:])

    # 2. GPU results: a fresh measurement, or the committed ones
    results = []  # (label, record dict)
    if gpu:
        log("== running every case on the GPU, %d repetitions" % args.reps)
        measured = run_on_gpu(cases, built, args.reps, log, args.python)
        if skipped:
            log("== not run (their build was skipped): %s" % " ".join(skipped))
        rc, out, _ = run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                          "--format=csv,noheader"], timeout=60)
        rec = {
            "gpu": gpu[0], "driver": gpu[1], "nvidia_smi": out.strip(),
            "nvcc": (run([nvcc, "--version"])[1].strip().splitlines() or [""])[-1],
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "reps": args.reps, "delay_ms": 30, "elements": 1 << 20,
            "cases": measured,
        }
        if torch and any((c.torch or c.python) and c.name in measured for c in cases):
            rec["torch"] = torch["version"]
        if fcases:
            log("== running every fixed copy on the GPU, %d repetitions" % args.reps)
            rec["fixed"] = run_on_gpu(fcases, fbuilt, args.reps, log, args.python)
            for name, r in rec["fixed"].items():
                r["sha256"] = manifest[name]["sha256"]
        path = os.path.join(args.results_dir, slug(*gpu) + ".json")
        if (args.cases or skipped) and os.path.exists(path):
            # a partial run (--cases, or cases whose build was skipped): merge
            # into the existing record for this GPU, keeping what was not re-run
            # (the record's date and repetitions stay those of the full run;
            # each partial run is listed with the cases it measured)
            with open(path) as f:
                old = json.load(f)
            partial = {"date": rec["date"], "reps": rec["reps"], "cases": sorted(measured)}
            old["cases"].update(measured)
            if "fixed" in old:
                rec["fixed"] = dict(old["fixed"], **rec.get("fixed", {}))
            measured = old["cases"]
            rec["cases"] = measured
            rec["date"], rec["reps"] = old.get("date", rec["date"]), old.get("reps", rec["reps"])
            rec["partial_runs"] = old.get("partial_runs", []) + [partial]
            if "torch" in old and "torch" not in rec:
                rec["torch"] = old["torch"]
        os.makedirs(args.results_dir, exist_ok=True)
        with open(path, "w") as f:
            json.dump(rec, f, indent=1, sort_keys=True)
            f.write("\n")
        log("== wrote %s" % path)
        results.append((path, rec))
        if args.sanitize:
            log("== compute-sanitizer on the racy cases")
            srows, slog = sanitize(cases, built, measured, max(1, min(args.jobs, 4)))
            spath = os.path.join(args.results_dir, slug(*gpu) + ".sanitizer.txt")
            with open(spath, "w") as f:
                f.write("# compute-sanitizer on the racy cases (%s, driver %s, %s)\n\n" % (
                    gpu[0], gpu[1], rec["date"]))
                for r in srows:
                    f.write("%-40s %-9s rc=%-3s %s   [%s]\n" % r)
                f.write("\n# full output\n\n" + slog)
            for r in srows:
                log("  %-40s %-9s rc=%-3s %s   [%s]" % r)
            log("== wrote %s" % spath)
    else:
        for path in sorted(glob.glob(os.path.join(args.results_dir, "*.json"))):
            if os.path.basename(path).startswith("gen_"):
                continue  # generated programs' measurements (gen/gpu_sample.py)
            with open(path) as f:
                results.append((path, json.load(f)))
        if not results:
            failures.append("no GPU results under %s" % args.results_dir)

    # 3. the tables
    all_nm = []
    # A fresh GPU run cannot measure a case it could not build: such cases
    # (libtorch cases without PyTorch) are left out of its table; against the
    # committed results (no GPU) they are compared like any other case.
    table_cases = [c for c in cases if not (gpu and c.name in skipped)]
    # A committed result may cover part of the corpus (a later run on another
    # GPU): a case is compared against each result that measured it, and one
    # that no result measured is a problem in every table.
    measured = {name for _, r in results for name in r.get("cases", {})}
    for path, rec in results:
        rec_cases = [c for c in table_cases if gpu or c.name in rec.get("cases", {})
                     or c.name not in measured]
        rows, problems, nm = verdicts(rec_cases, rec.get("cases", {}), checker)
        title = "%s, driver %s, %d repetitions, measured %s%s" % (
            rec.get("gpu"), rec.get("driver"), rec.get("reps", 0), rec.get("date"),
            "; libtorch cases: PyTorch %s" % rec["torch"] if rec.get("torch") else "")
        for run_ in rec.get("partial_runs", []):
            title += "; %d repetitions on %s for %s" % (
                run_["reps"], run_["date"], ", ".join(run_["cases"]))
        table = format_table(rows)
        log("\n== agreement: %s (%s)\n" % (title, os.path.relpath(path, REPO) if path.startswith(REPO) else path))
        log(table)
        ftable = None
        if manifest is not None:
            frows, fproblems = fixit_verdicts(rec_cases, manifest, rec.get("fixed"))
            ftable = format_fixit_table(frows)
            log("\n== fix-its: each warned case with its note fixes applied "
                "(clang-tidy --fix-notes --fix), checked again and run on the GPU\n")
            log(ftable)
            problems = problems + fproblems
        if args.write_tables or gpu:
            md = os.path.splitext(path)[0] + ".md"
            with open(md, "w") as f:
                f.write("# Agreement table: %s\n\n" % title)
                f.write("Written by `python3 runtime/agree.py%s`; checker: %s.\n"
                        "`stale k/N`: runs in which the access saw stale data (a lost write, for `write`).\n\n"
                        % ("" if gpu else " --no-gpu --write-tables",
                           "not run" if checker is None else os.path.basename(args.plugin)))
                f.write(table + "\n")
                if nm:
                    f.write("\nNot modelled by the check (listed apart, not failures):\n\n")
                    f.writelines("- %s\n" % x for x in nm)

                if ftable:
                    f.write("\n## Fix-its\n\nEach warned case with the check's note fixes applied "
                            "(`clang-tidy --fix-notes --fix` on a copy), checked again, rebuilt and run "
                            "on the GPU. `fixed`: the checker is silent on the copy and every marked "
                            "access read fresh data in every run.\n\n" + ftable + "\n")
            log("== wrote %s" % md)
        failures += ["[%s] %s" % (rec.get("gpu"), p) for p in problems]
        all_nm += nm

    if args.semantics:
        rows, missing = coverage(cases, args.semantics)
        log("\n== semantics.md coverage: %d/%d rows have a case" % (len(rows) - len(missing), len(rows)))
        for r in missing:
            failures.append("semantics.md row without a case: %s" % r)

    if all_nm:
        log("\n== not modelled by the check (not failures):")
        for x in sorted(set(all_nm)):
            log("  " + x)
    if failures:
        log("\n== %d DISAGREEMENT(S) / ERROR(S):" % len(failures))
        for x in failures:
            log("  " + x)
        return 1
    log("\n== agreement: every warned access was stale, every silent marked access was fresh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
