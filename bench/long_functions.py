#!/usr/bin/env python3
"""Cost of cuda-async-read-before-sync on long functions.

Generates functions of growing length in seven shapes (straight-line code,
sequential loops with copies, nested branches, a switch, lambdas called
after copies, loops over an array of streams, scopes with RAII guards whose
destructors synchronize) and a class of n member functions calling each other (the
helper summaries' cost; its warnings depend on the call graph), runs clang-tidy on each with the check and, in the same run,
with upstream's flow-sensitive bugprone-use-after-move as the baseline, and
prints the time ratios. Also
reports how many warnings the check emitted (a skipped function, past the
visit budget, shows as 0 where warnings are expected).

Usage: bench/long_functions.py [--plugin PATH] [--clang-tidy PATH] [--sizes 100,1000,3000]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEADER = """#include <cuda_runtime.h>
void consume(float);
"""

def straight(n):
    body = "".join(
        "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n"
        "  consume(h[%d]);\n  cudaStreamSynchronize(s);\n  consume(h[%d]);\n" % (i % 64, i % 64)
        for i in range(n))
    return HEADER + "void f(float *h, const float *d, cudaStream_t s) {\n" + body + "}\n", n

def loops(n):
    body = "".join(
        "  for (int i = 0; i < k; ++i) { if (c) consume(h[i]);"
        " cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s); }\n"
        for _ in range(n))
    return (HEADER + "void f(float *h, const float *d, cudaStream_t s, bool c, int k) {\n"
            + body + "}\n", n)

def branches(n):
    body = "".join(
        "  if (x%d) { cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s); }"
        " else { cudaStreamSynchronize(s); }\n" % (i % 8)
        for i in range(n))
    params = ", ".join("int x%d" % i for i in range(8))
    return (HEADER + "void f(float *h, const float *d, cudaStream_t s, %s) {\n" % params
            + body + "  consume(h[0]);\n}\n", 1)

def switch(n):
    cases = "".join(
        "  case %d: cudaMemcpyAsync(h + %d, d, 4, cudaMemcpyDeviceToHost, s%d); break;\n"
        % (i, i % 64, i % 4) for i in range(n))
    return (HEADER + "void f(float *h, const float *d, cudaStream_t s0, cudaStream_t s1,"
            " cudaStream_t s2, cudaStream_t s3, int k) {\n  switch (k) {\n" + cases
            + "  }\n  consume(h[0]);\n}\n", 1)

def lambdas(n):
    # n lambdas, each capturing the buffer and the stream, each called after
    # a copy: half read it before syncing (warn), half sync first.
    defs = "".join(
        "  auto f%d = [&] { %s };\n" % (
            i, "consume(h[%d]);" % (i % 64) if i % 2 == 0
            else "cudaStreamSynchronize(s); consume(h[%d]);" % (i % 64))
        for i in range(n))
    body = "".join(
        "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n  f%d();\n"
        "  cudaStreamSynchronize(s);\n" % i for i in range(n))
    return (HEADER + "void f(float *h, const float *d, cudaStream_t s) {\n" + defs
            + body + "}\n", (n + 1) // 2)

def methods(n):
    # A class of 32 pinned-buffer members and 4 streams whose n member
    # functions each copy into a member, read another and call 4 others:
    # the helper summaries' worst case (every call looked through, 3 deep).
    members = "".join("  float *h%d;\n" % i for i in range(32))
    members += "".join("  cudaStream_t s%d;\n" % i for i in range(4))
    fns = []
    for i in range(n):
        calls = "".join("    m%d(d);\n" % ((i * 7 + k * 13 + 1) % n) for k in range(4) if n > 1)
        fns.append(
            "  void m%d(const float *d) {\n"
            "    cudaMemcpyAsync(h%d, d, 64, cudaMemcpyDeviceToHost, s%d);\n%s"
            "    consume(h%d[0]);\n    cudaStreamSynchronize(s%d);\n  }\n"
            % (i, i % 32, i % 4, calls, (i + 1) % 32, i % 4))
    return (HEADER + "struct C {\n" + members + "".join(fns) + "};\n"
            "void use(C &c, const float *d) { c.m0(d); }\n", None)

def stream_arrays(n):
    # n blocks over an array of 4 streams: copies in a loop on s[i], then a
    # sync loop over s[j] that stops one short, then a read: one warning per
    # block (element ranges and loops that certainly run, issue 12).
    body = "".join(
        "  for (int i = 0; i < 4; ++i)\n"
        "    cudaMemcpyAsync(h + i * 16, d, 64, cudaMemcpyDeviceToHost, s[i]);\n"
        "  for (int j = 0; j < 3; ++j)\n    cudaStreamSynchronize(s[j]);\n"
        "  consume(h[%d]);\n  cudaDeviceSynchronize();\n" % (i % 64)
        for i in range(n))
    return (HEADER + "void f(float *h, const float *d, cudaStream_t *s) {\n"
            + body + "}\n", n)

def guards(n):
    # n scopes, each with a RAII guard whose destructor synchronizes the
    # stream it was given (a local copy of the handle): half read inside the
    # scope (warn), half after it (silent). Destructors at every scope exit
    # and handle values (issue 12, class 7).
    guard = ("struct Guard {\n  explicit Guard(cudaStream_t s) : s_(s) {}\n"
             "  ~Guard() { cudaStreamSynchronize(s_); }\n  cudaStream_t s_;\n};\n")
    body = "".join(
        "  {\n    cudaStream_t t%d = s;\n    Guard g%d(t%d);\n"
        "    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n%s  }\n%s"
        % (i, i, i, "    consume(h[%d]);\n" % (i % 64) if i % 2 == 0 else "",
           "" if i % 2 == 0 else "  consume(h[%d]);\n" % (i % 64))
        for i in range(n))
    return (HEADER + guard + "void f(float *h, const float *d, cudaStream_t s) {\n"
            + body + "}\n", (n + 1) // 2)

def run(tidy, plugin, checks, path):
    cmd = [tidy, "--quiet", "--load=" + plugin, "-checks=-*," + checks, path, "--",
           "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
           "-isystem", os.path.join(ROOT, "test", "Inputs")]
    best, out = None, ""
    for _ in range(3):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        dt = time.perf_counter() - t
        if p.returncode != 0:
            sys.exit("clang-tidy failed on %s:\n%s" % (path, p.stderr[-2000:]))
        best = dt if best is None else min(best, dt)
        out = p.stdout
    return best, out.count("warning:")

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "checker",
                                                     "CudaAsyncReadBeforeSync.so"))
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--sizes", default="100,1000,3000")
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    print("%-13s %6s %10s %10s %7s %9s" % ("shape", "n", "check s", "base s", "ratio", "warnings"))
    with tempfile.TemporaryDirectory() as tmp:
        for shape in (straight, loops, branches, switch, lambdas, methods,
                      stream_arrays, guards):
            for n in sizes:
                src, expected = shape(n)
                path = os.path.join(tmp, "%s_%d.cu" % (shape.__name__, n))
                with open(path, "w") as f:
                    f.write(src)
                ours, warnings = run(a.clang_tidy, a.plugin, "cuda-async-read-before-sync", path)
                base, _ = run(a.clang_tidy, a.plugin, "bugprone-use-after-move", path)
                print("%-13s %6d %10.3f %10.3f %7.2f %5d/%-3s" % (
                    shape.__name__, n, ours, base, ours / base, warnings,
                    "?" if expected is None else expected))

if __name__ == "__main__":
    main()
