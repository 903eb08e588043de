#!/usr/bin/env python3
"""Cost of cuda-async-read-before-sync on long functions, and its worst cases.

Generates one function of n statements per shape -- straight-line code,
sequential loops with copies, branches, a switch, lambdas called after
copies, a class of member functions calling each other (the helper
summaries' cost), loops over an array of streams, RAII guards whose
destructors synchronize -- and the worst cases issue 13 found: many
distinct streams, many events recorded and synchronized, nested stream
guards, a long else-if chain, an error-checking macro (a local error
variable and a no-return handler) around every call, and one costly
helper called from many places. Each planted race is counted.

Per shape and size it runs clang-tidy three ways, interleaved (--runs
rounds, the order rotating): with the check, with upstream's flow-sensitive
bugprone-use-after-move (the baseline), and parse-only (llvm-include-order,
a preprocessor callback: clang-tidy will not run with no check). It prints
medians of

  check s    the check's time (clang-tidy's --store-check-profile)
  ÷ uam      that / use-after-move's time on the same file
  +MiB       peak resident memory with the check minus parse-only's
  mem        the same as a ratio
  found      warnings / races planted ("?" where the call graph decides)
  gave up    functions the check gave up on (its remarks)

and, for sizes n and 10n of a shape, the growth of the check's time.
The mock CUDA headers of test/Inputs are used, so parse-only is small
against the real toolkit's (bench/real_tus.py measures real files).

Usage: bench/long_functions.py [--plugin PATH] [--clang-tidy PATH]
           [--sizes 1000,10000] [--shapes a,b,...] [--runs N]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tidy_run import run_tidy  # noqa: E402

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


def handles_and_groups(k, handle, create, group):
    """k handles of a type, each created, and k groups of statements, every
    100th of them racy: group(i, wrong) is group i's text. Returns
    (declarations, body, races planted)."""
    decl = "".join("  %s %s%d;\n  %s(&%s%d);\n" % (handle[0], handle[1], i,
                                                   create, handle[1], i)
                   for i in range(k))
    body = "".join(group(i, i % 100 == 99) for i in range(k))
    return decl, body, sum(1 for i in range(k) if i % 100 == 99)


def many_streams(n):
    # n/3 streams the function creates, each copied on and synchronized;
    # every 100th group synchronizes the previous group's stream instead:
    # a race, since the streams are the function's own and distinct.
    decl, body, races = handles_and_groups(
        max(1, n // 3), ("cudaStream_t", "s"), "cudaStreamCreate",
        lambda i, wrong: (
            "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s%d);\n"
            "  cudaStreamSynchronize(s%d);\n  consume(h[%d]);\n%s"
            % (i, i - 1 if wrong else i, i % 64,
               "  cudaDeviceSynchronize();\n" if wrong else "")))
    return (HEADER + "void f(float *h, const float *d) {\n" + decl + body
            + "}\n", races)


def many_events(n):
    # n/4 events the function creates, each recorded after a copy and
    # synchronized before the read; every 100th group synchronizes the
    # previous group's event, recorded before the copy: a race.
    decl, body, races = handles_and_groups(
        max(1, n // 4), ("cudaEvent_t", "e"), "cudaEventCreate",
        lambda i, wrong: (
            "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n"
            "  cudaEventRecord(e%d, s);\n  cudaEventSynchronize(e%d);\n"
            "  consume(h[%d]);\n%s"
            % (i, i - 1 if wrong else i, i % 64,
               "  cudaStreamSynchronize(s);\n" if wrong else "")))
    return (HEADER + "void f(float *h, const float *d, cudaStream_t s) {\n"
            + decl + body + "}\n", races)


GUARD = ("struct Guard {\n  explicit Guard(cudaStream_t s) : s_(s) {}\n"
         "  ~Guard() { cudaStreamSynchronize(s_); }\n  cudaStream_t s_;\n};\n")


def nested_guards(n):
    # Groups of 50 nested scopes, each with a guard whose destructor
    # synchronizes the stream and a copy; the innermost scope reads (a
    # race), the code after the group reads again (synchronized).
    depth, groups = 50, max(1, n // 100)
    body = ""
    for g in range(groups):
        for k in range(depth):
            body += ("  {\n  Guard g%d_%d(s);\n"
                     "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n"
                     % (g, k))
        body += "  consume(h[%d]);\n" % (g % 64) + "  }\n" * depth
        body += "  consume(h[%d]);\n" % ((g + 1) % 64)
    return (HEADER + GUARD + "void f(float *h, const float *d, cudaStream_t s) {\n"
            + body + "}\n", groups)


def else_if(n):
    # One else-if chain of n branches on k, a copy in each: the read after
    # it races, the read after the sync does not.
    body = "  if (k == 0)\n    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);\n"
    body += "".join("  else if (k == %d)\n    cudaMemcpyAsync(h + %d, d, 4, "
                    "cudaMemcpyDeviceToHost, s);\n" % (i, i % 64)
                    for i in range(1, max(2, n // 2)))
    body += "  consume(h[0]);\n  cudaStreamSynchronize(s);\n  consume(h[1]);\n"
    return (HEADER + "void f(float *h, const float *d, cudaStream_t s, int k) {\n"
            + body + "}\n", 1)


CHECK_MACRO = (
    "[[noreturn]] void fatal(cudaError_t e, const char *file, int line);\n"
    "#define CUDA_CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) "
    "fatal(err_, __FILE__, __LINE__); } while (0)\n")


def cuda_check(n):
    # ggml's and faiss's error-checking macro around every call: a copy, a
    # sync, a read; every 100th group reads before the sync (a race).
    k, body, races = max(1, n // 3), "", 0
    for i in range(k):
        wrong = i % 100 == 99
        races += wrong
        copy = "  CUDA_CHECK(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));\n"
        sync = "  CUDA_CHECK(cudaStreamSynchronize(s));\n"
        read = "  consume(h[%d]);\n" % (i % 64)
        body += copy + (read + sync if wrong else sync + read)
    return (HEADER + CHECK_MACRO + "void f(float *h, const float *d, cudaStream_t s) {\n"
            + body + "}\n", races)


def costly_helper(n):
    # One helper of n/2 statements (copies and syncs on its own buffer,
    # through the error-checking macro) called from n/20 callers, each of
    # which reads its own copy before syncing (a race) and then calls the
    # helper: the helper's summary is computed once, and every caller's
    # race is found.
    k = max(1, n // 6)
    helper = "".join(
        "  CUDA_CHECK(cudaMemcpyAsync(g, d, 64, cudaMemcpyDeviceToHost, s));\n"
        "  CUDA_CHECK(cudaStreamSynchronize(s));\n  consume(g[%d]);\n" % (i % 64)
        for i in range(k))
    callers = max(1, n // 20)
    fns = "".join(
        "void caller%d(float *h, float *g, const float *d, cudaStream_t s) {\n"
        "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n"
        "  consume(h[0]);\n  helper(g, d, s);\n  cudaStreamSynchronize(s);\n}\n" % i
        for i in range(callers))
    return (HEADER + CHECK_MACRO +
            "void helper(float *g, const float *d, cudaStream_t s) {\n" + helper
            + "}\n" + fns, callers)


SHAPES = [straight, loops, branches, switch, lambdas, methods, stream_arrays,
          guards, many_streams, many_events, nested_guards, else_if,
          cuda_check, costly_helper]

CHECK = "cuda-async-read-before-sync"
BASELINE = "bugprone-use-after-move"
PARSE_ONLY = "llvm-include-order"
FLAGS = ["-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
         "-isystem", os.path.join(ROOT, "test", "Inputs")]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "checker",
                                                     "CudaAsyncReadBeforeSync.so"))
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--shapes", help="comma-separated subset of: " +
                    ", ".join(f.__name__ for f in SHAPES))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600,
                    help="per clang-tidy process, seconds")
    a = ap.parse_args()
    if not os.path.isfile(a.plugin):
        sys.exit("long_functions: no plugin at %s" % a.plugin)
    sizes = [int(x) for x in a.sizes.split(",")]
    shapes = SHAPES
    if a.shapes:
        by = {f.__name__: f for f in SHAPES}
        unknown = [x for x in a.shapes.split(",") if x not in by]
        if unknown:
            sys.exit("long_functions: unknown shape(s): " + ", ".join(unknown))
        shapes = [by[x] for x in a.shapes.split(",")]
    print("%-14s %7s %8s %7s %7s %6s %9s %7s %7s" % (
        "shape", "n", "check s", "÷ uam", "+MiB", "mem", "found", "gave up",
        "growth"))
    configs = [("check", CHECK), ("uam", BASELINE), ("parse", PARSE_ONLY)]
    with tempfile.TemporaryDirectory() as tmp:
        for shape in shapes:
            times = {}
            for n in sizes:
                src, planted = shape(n)
                path = os.path.join(tmp, "%s_%d.cu" % (shape.__name__, n))
                with open(path, "w") as f:
                    f.write(src)
                got = {c: [] for c, _ in configs}
                for rnd in range(a.runs):
                    k = rnd % len(configs)
                    for cname, check in configs[k:] + configs[:k]:
                        r = run_tidy(a.clang_tidy, a.plugin, check, path, FLAGS,
                                     timeout=a.timeout)
                        if r.rc not in (0, 1):
                            sys.exit("long_functions: clang-tidy exited %d on %s "
                                     "(%s):\n%s" % (r.rc, path, check,
                                                     r.stderr[-2000:]))
                        got[cname].append(r)
                med = statistics.median
                ours = med(x.check_s for x in got["check"])
                base = med(x.check_s for x in got["uam"])
                peak = med(x.peak_mib for x in got["check"])
                parse = med(x.peak_mib for x in got["parse"])
                out = got["check"][0].stdout + got["check"][0].stderr
                warnings = out.count("warning:")
                gave_up = out.count("is not analysed:")
                times[n] = ours
                growth = ("%.1f" % (ours / times[n // 10])
                          if n % 10 == 0 and times.get(n // 10) else "")
                print("%-14s %7d %8.3f %7.2f %7.0f %6.2f %5d/%-3s %7d %7s" % (
                    shape.__name__, n, ours, ours / base if base else float("inf"),
                    peak - parse, peak / parse if parse else 0.0, warnings,
                    "?" if planted is None else planted, gave_up, growth),
                    flush=True)


if __name__ == "__main__":
    main()
