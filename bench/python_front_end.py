#!/usr/bin/env python3
"""Speed of the check's Python front end against pyflakes, on one tree.

Runs `python3 -m cars_python` and `python3 -m pyflakes` (the baseline: a
whole-module static checker of the same standard-library-ast kind) over the
same .py files, interleaved, --runs times each, and prints files per second
of both and the ratio of medians (the goal: the front end no slower than
pyflakes). Both run as one process over the whole file list, with the same
interpreter, so that start-up counts once for each.

Usage: bench/python_front_end.py TREE [TREE ...] [--runs 3] [--python /usr/bin/python3]
A TREE is a directory (its .py files, recursively) or a file. Without
pyflakes importable by --python, it says so and exits 2.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python_files(trees):
    out = []
    for t in trees:
        if os.path.isfile(t):
            out.append(t)
            continue
        for d, dirs, files in os.walk(t):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    return out


def timed(cmd, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return time.perf_counter() - t0, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", default="/usr/bin/python3")
    ns = ap.parse_args()
    files = python_files(ns.trees)
    if not files:
        print("no .py files under %s" % " ".join(ns.trees))
        return 2
    if subprocess.run([ns.python, "-c", "import pyflakes"], capture_output=True).returncode:
        print("pyflakes is not importable by %s (Debian: python3-pyflakes)" % ns.python)
        return 2
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "checker", "python"))
    ours, base = [], []
    findings = None
    for _ in range(max(1, ns.runs)):
        t, p = timed([ns.python, "-m", "cars_python", "--quiet"] + files, env)
        ours.append(t)
        findings = p.stdout.decode(errors="replace").count(": warning: ")
        crashed = b"Traceback" in p.stderr
        t, _ = timed([ns.python, "-m", "pyflakes"] + files)
        base.append(t)
    mo, mb = statistics.median(ours), statistics.median(base)
    print("%d files, %d runs each, interleaved" % (len(files), len(ours)))
    print("cars_python: median %.2f s, %.0f files/s, %d warnings%s"
          % (mo, len(files) / mo, findings, ", CRASHED" if crashed else ""))
    print("pyflakes:    median %.2f s, %.0f files/s" % (mb, len(files) / mb))
    print("ratio (cars_python / pyflakes time): %.2f" % (mo / mb))
    return 0


if __name__ == "__main__":
    sys.exit(main())
