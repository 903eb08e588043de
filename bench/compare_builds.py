#!/usr/bin/env python3
"""The check's own time in two builds of the plugin, on long functions.

For refactors that must not cost more: generates the shapes of
long_functions.py at the given sizes and, interleaving the two builds run by
run, takes the check's time from clang-tidy's --enable-check-profile (user +
system time of cuda-async-read-before-sync alone, so parsing and process
start do not dilute the difference). Prints per shape the median of the runs
for each build, the ratio new / old, and both builds' warning counts (which
must agree for a refactor).

Usage: bench/compare_builds.py --old OLD.so --new NEW.so
           [--clang-tidy PATH] [--runs 3] [--shapes straight:10000,loops:10000,...]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import long_functions  # noqa: E402  (the shapes)

SHAPE_NAMES = ("straight", "loops", "branches", "switch", "lambdas", "methods",
               "stream_arrays", "guards")
DEFAULT_SHAPES = ("straight:10000,loops:10000,branches:3000,switch:3000,lambdas:3000,"
                  "methods:1000,stream_arrays:1000,guards:1000")
PROFILE = re.compile(r"^\s*[\d.]+ \([\d.]+%\)\s+[\d.]+ \([\d.]+%\)\s+([\d.]+) \([\d.]+%\)"
                     r".*cuda-async-read-before-sync\s*$", re.M)


def check_time(tidy, plugin, path):
    cmd = [tidy, "--quiet", "--load=" + plugin, "-checks=-*,cuda-async-read-before-sync",
           "--enable-check-profile", path, "--", "-x", "cuda", "--cuda-host-only",
           "-nocudainc", "-nocudalib", "-isystem",
           os.path.join(long_functions.ROOT, "test", "Inputs")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    m = PROFILE.search(p.stdout + p.stderr)
    if p.returncode != 0 or not m:
        sys.exit("compare_builds.py: clang-tidy failed with %s on %s:\n%s"
                 % (plugin, path, (p.stderr or p.stdout)[-2000:]))
    return float(m.group(1)), p.stdout.count("warning:")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True, help="the plugin build to compare against")
    ap.add_argument("--new", required=True, help="the plugin build under test")
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shapes", default=DEFAULT_SHAPES,
                    help="shape:size,... (shapes of long_functions.py)")
    a = ap.parse_args()
    for p in (a.old, a.new, a.clang_tidy):
        if not os.path.isfile(p):
            ap.error("%s: no such file" % p)
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    shapes = []
    for item in a.shapes.split(","):
        name, _, size = item.partition(":")
        fn = getattr(long_functions, name, None) if name in SHAPE_NAMES else None
        if fn is None or not size.isdigit():
            ap.error("--shapes: '%s' is not shape:size with a shape of long_functions.py" % item)
        shapes.append((name, fn, int(size)))
    print("%-9s %6s %9s %9s %7s %s" % ("shape", "n", "old s", "new s", "new/old", "warnings old/new"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn, n in shapes:
            src, _ = fn(n)
            path = os.path.join(tmp, "%s_%d.cu" % (name, n))
            with open(path, "w") as f:
                f.write(src)
            old, new = [], []
            for _ in range(a.runs):
                t, wo = check_time(a.clang_tidy, a.old, path)
                old.append(t)
                t, wn = check_time(a.clang_tidy, a.new, path)
                new.append(t)
            mo, mn = statistics.median(old), statistics.median(new)
            print("%-9s %6d %9.3f %9.3f %7.2f %d/%d" % (
                name, n, mo, mn, mn / mo if mo else float("nan"), wo, wn))


if __name__ == "__main__":
    main()
