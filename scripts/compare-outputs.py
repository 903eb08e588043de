#!/usr/bin/env python3
"""The check's full output in two builds of the plugin, on the lit inputs.

For refactors that must not change behaviour: runs every clang-tidy RUN line
of test/checkers/ and runtime/cases/ (those that use %clang_tidy_cars or
%clang_tidy, with the suite's substitutions, the FileCheck part dropped)
once with each build, and prints a unified diff of each command whose
output (warnings, notes, source excerpts, stderr) differs. FileCheck pins
the warnings; this also compares every note and its order.

Usage: scripts/compare-outputs.py --old OLD.so --new NEW.so
           [--clang-tidy PATH] [--cuda-path /usr/local/cuda] [--jobs N]
Exit status: 0 when every output is the same, 1 when some differ, 2 on a
usage error.
"""
import argparse
import concurrent.futures
import difflib
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = "cuda-async-read-before-sync"


def run_lines(path):
    """The RUN lines of a lit test, continuations joined."""
    lines, cur = [], ""
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"(?://|#)\s*RUN:\s?(.*)$", line.rstrip("\n"))
            if not m:
                if cur:
                    lines.append(cur)
                    cur = ""
                continue
            part = m.group(1).rstrip()
            if part.endswith("\\"):
                cur += part[:-1] + " "
                continue
            lines.append(cur + part)
            cur = ""
    if cur:
        lines.append(cur)
    return lines


def commands(cuda_path):
    inputs = os.path.join(ROOT, "test", "Inputs")
    subs = {
        "%cuda_mock_flags": "-x cuda --cuda-host-only -nocudainc -nocudalib -isystem " + inputs,
        "%cuda_real_flags": "-x cuda --cuda-path=%s --cuda-host-only -nocudalib "
                            "--cuda-gpu-arch=sm_90 -isystem %s/include/cccl "
                            "-Wno-unknown-cuda-version" % (cuda_path, cuda_path),
        "%inputs": inputs,
        "%cuda_path": cuda_path,
    }
    files = sorted(glob.glob(os.path.join(ROOT, "test", "checkers", "*.*")))
    files += sorted(glob.glob(os.path.join(ROOT, "runtime", "cases", "*")))
    out = []
    for path in files:
        if not os.path.isfile(path):
            continue
        for line in run_lines(path):
            if "%clang_tidy_cars" not in line and "%clang_tidy " not in line:
                continue
            cmd = line.split("|")[0].replace("%s", path)
            for k, v in subs.items():
                cmd = cmd.replace(k, v)
            out.append((path, cmd))
    return out


def run(tidy, plugin, path, cmd):
    cmd = cmd.replace("%clang_tidy_cars", "%s --quiet --load=%s -checks=-*,%s"
                      % (tidy, plugin, CHECK))
    cmd = cmd.replace("%clang_tidy ", "%s --quiet --load=%s " % (tidy, plugin))
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True,
                       cwd=os.path.dirname(path))
    return p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    for p in (a.old, a.new, a.clang_tidy):
        if not os.path.isfile(p):
            ap.error("%s: no such file" % p)
    if a.jobs < 1:
        ap.error("--jobs must be at least 1")
    jobs = commands(a.cuda_path)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        old = list(ex.map(lambda j: run(a.clang_tidy, a.old, *j), jobs))
        new = list(ex.map(lambda j: run(a.clang_tidy, a.new, *j), jobs))
    differ = 0
    for (path, cmd), o, n in zip(jobs, old, new):
        if o == n:
            continue
        differ += 1
        print("== %s\n   %s" % (os.path.relpath(path, ROOT), cmd[:160]))
        for line in difflib.unified_diff(o.splitlines(), n.splitlines(), "old", "new",
                                         lineterm=""):
            print(line)
    print("%d commands, %d differ" % (len(jobs), differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
